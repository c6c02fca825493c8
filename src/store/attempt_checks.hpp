#pragma once
// What every store backend checks before it writes an attempt, so that all backends
// accept and refuse exactly the same attempts with the same messages.
#include <set>
#include <string>
#include <vector>

#include "model/attempt.hpp"

namespace perfgate {

/// Error(kDataError) unless the attempt's id and every record id match their content and
/// no record appears twice. `store` names the store in the message. Returns each record's
/// record_content_text, computed once for the check, for a backend that stores it.
std::vector<std::string> check_attempt_content(const Attempt& attempt, const std::string& store);

/// Error(kDataError): the attempt's id is not the digest of its content.
[[noreturn]] void throw_attempt_id_mismatch(const std::string& store,
                                            const std::string& attempt_id);

/// Error(kDataError): `attempt_id` is stored with other content.
[[noreturn]] void throw_attempt_conflict(const std::string& store, const std::string& attempt_id);

/// Error(kDataError): the record is already stored under another attempt.
[[noreturn]] void throw_record_conflict(const std::string& store, const NormalizedRecord& record,
                                        const std::string& other_attempt_id);

/// The attempt's non-empty raw digests, each once, for a backend to look up.
std::vector<std::string> raw_digests_of(const Attempt& attempt);

/// MeasurementsAlreadyStored when the attempt holds a raw digest twice, or one of those in
/// `stored` (found in the store inside the append's transaction); otherwise nothing.
void refuse_repeated_measurements(const std::string& store, const Attempt& attempt,
                                  const std::set<std::string>& stored);

}  // namespace perfgate
