#include "store/attempt_checks.hpp"

#include <algorithm>
#include <set>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "store/store.hpp"

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

std::vector<std::string> raw_digests_of(const Attempt& attempt) {
  std::vector<std::string> digests;
  std::set<std::string> seen;
  for (const auto& record : attempt.records) {
    if (!record.raw_record_sha256.empty() && seen.insert(record.raw_record_sha256).second) {
      digests.push_back(record.raw_record_sha256);
    }
  }
  return digests;
}

void refuse_repeated_measurements(const std::string& store, const Attempt& attempt,
                                  const std::set<std::string>& stored) {
  std::vector<std::string> repeated;
  std::set<std::string> seen;
  for (const auto& record : attempt.records) {
    const std::string& digest = record.raw_record_sha256;
    if (digest.empty()) continue;
    const bool twice = !seen.insert(digest).second;
    if ((twice || stored.contains(digest)) &&
        std::find(repeated.begin(), repeated.end(), digest) == repeated.end()) {
      repeated.push_back(digest);
    }
  }
  if (!repeated.empty()) throw MeasurementsAlreadyStored(store, attempt, std::move(repeated));
}

namespace {

std::string repeated_measurements_message(const std::string& store, const Attempt& attempt,
                                          const std::vector<std::string>& digests) {
  std::string first;
  for (const auto& record : attempt.records) {
    if (!digests.empty() && record.raw_record_sha256 == digests.front()) {
      first = record.benchmark_id;
      break;
    }
  }
  return store + ": attempt " + attempt.attempt_id + ": " + std::to_string(digests.size()) +
         " measurement(s) are stored already (first: " + first + ", raw_record_sha256 " +
         (digests.empty() ? std::string() : digests.front()) +
         "). A measurement is stored once: another writer stored it first, or it was given "
         "twice; leave those records out";
}

}  // namespace

MeasurementsAlreadyStored::MeasurementsAlreadyStored(const std::string& store,
                                                     const Attempt& attempt,
                                                     std::vector<std::string> raw_digests)
    : Error(ExitCode::kDataError, repeated_measurements_message(store, attempt, raw_digests)),
      raw_digests_(std::move(raw_digests)) {}

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
