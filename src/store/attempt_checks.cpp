#include "store/attempt_checks.hpp"

#include <set>

#include "model/error.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {

std::vector<std::string> check_attempt_content(const Attempt& attempt, const std::string& store) {
  std::vector<std::string> texts;
  texts.reserve(attempt.records.size());
  for (std::size_t i = 0; i < attempt.records.size(); ++i) {
    texts.push_back(record_content_text(attempt.records[i]));
    if (attempt.records[i].record_id != sha256_hex(texts.back())) {
      throw Error(ExitCode::kDataError,
                  store + ": attempt " + attempt.attempt_id + ": records[" + std::to_string(i) +
                      "].record_id does not match its content. Assign ids with "
                      "assign_attempt_id after the last change; stored data is never edited");
    }
  }
  if (attempt.attempt_id != attempt_content_id(attempt)) {
    throw_attempt_id_mismatch(store, attempt.attempt_id);
  }
  std::set<std::string> seen;
  for (const auto& record : attempt.records) {
    if (!seen.insert(record.record_id).second) {
      throw Error(ExitCode::kDataError,
                  store + ": attempt " + attempt.attempt_id + " holds record " + record.record_id +
                      " (" + record.benchmark_id +
                      ") twice. Keep one copy; identical records have one identity");
    }
  }
  return texts;
}

void throw_attempt_id_mismatch(const std::string& store, const std::string& attempt_id) {
  throw Error(ExitCode::kDataError,
              store + ": attempt " + attempt_id +
                  ": attempt_id does not match its content. Assign ids with assign_attempt_id "
                  "after the last change; stored data is never edited");
}

void throw_attempt_conflict(const std::string& store, const std::string& attempt_id) {
  throw Error(ExitCode::kDataError,
              store + ": attempt " + attempt_id +
                  " is already stored with different content. Attempts are immutable; "
                  "the stored copy was edited by hand or is damaged: restore it from a backup");
}

void throw_record_conflict(const std::string& store, const NormalizedRecord& record,
                           const std::string& other_attempt_id) {
  throw Error(ExitCode::kDataError,
              store + ": record " + record.record_id + " (" + record.benchmark_id +
                  ") is already stored under attempt " + other_attempt_id +
                  ". A record belongs to one attempt; leave it out of the new attempt");
}

}  // namespace perfgate
