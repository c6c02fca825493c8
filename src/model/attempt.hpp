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
  /// Content address: SHA-256 of the canonical JSON of the fields below with the records
  /// replaced by their record_ids (themselves content addresses), so the id covers every
  /// byte of the attempt without hashing the records twice. See attempt_content_id.
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
/// to_json without "records": what describes the attempt itself.
Json attempt_header_json(const Attempt& attempt);
Attempt attempt_from_json(const Json& json, const std::string& source);
/// The id the attempt's content gives, from its fields and its records' record_ids as they
/// are (they are not recomputed).
std::string attempt_content_id(const Attempt& attempt);
/// Sets every record's record_id, then attempt_id, from the content.
void assign_attempt_id(Attempt& attempt);

}  // namespace perfgate
