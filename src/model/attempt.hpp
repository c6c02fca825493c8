#pragma once
// An attempt: one try at measuring one source revision or one CI job (SPEC §1). It holds
// records, or a failure with its errors. Attempts are immutable once stored.
#include <string>
#include <vector>

#include "model/json.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

inline constexpr int kAttemptSchemaVersion = 1;

struct Attempt {
  int attempt_schema_version = kAttemptSchemaVersion;
  /// Content address: SHA-256 of the canonical JSON of everything below except this field.
  std::string attempt_id;
  std::string created_at;  ///< ISO 8601 UTC
  std::string commit_sha;  ///< "" when unknown
  std::string run_source = "unknown";
  bool success = true;
  std::vector<std::string> errors;  ///< why the attempt failed, when it did
  std::vector<NormalizedRecord> records;
  bool operator==(const Attempt&) const = default;
};

Json to_json(const Attempt& attempt);
Attempt attempt_from_json(const Json& json, const std::string& source);
/// Sets attempt_id (and every record's record_id) from the content.
void assign_attempt_id(Attempt& attempt);

}  // namespace perfgate
