#pragma once
// An approval: a named batch of records made baseline-eligible together (SPEC §6,
// `perfgate baseline approve`). Its name is the digest of the manifest it came from.
#include <string>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

struct Approval {
  std::string approval_id;
  std::vector<std::string> record_ids;  ///< sorted, without duplicates
  std::string created_at;               ///< ISO 8601 UTC
  bool operator==(const Approval&) const = default;
};

/// A new approval stamped with the current time. Error(kDataError) for an empty list of
/// records or an approval_id that is not 1 to 128 letters, digits, '-' or '_' (it names
/// a file in the directory store).
Approval make_approval(const std::vector<std::string>& record_ids, const std::string& approval_id,
                       const std::string& store);

/// Approving the same approval again is a no-op when it names the same records;
/// Error(kDataError) when `stored_record_ids` (sorted) differ from the request's.
void check_repeated_approval(const std::string& store, const Approval& requested,
                             const std::vector<std::string>& stored_record_ids);

/// Error(kDataError) unless the store is still at the revision the approval was
/// prepared against.
void check_revision(const std::string& store, const std::string& current,
                    const std::string& expected);

/// Error(kDataError) listing record ids the store does not hold.
[[noreturn]] void throw_unknown_records(const std::string& store, const std::string& approval_id,
                                        const std::vector<std::string>& unknown);

Json to_json(const Approval& approval);
Approval approval_from_json(const Json& json, const std::string& source);

}  // namespace perfgate
