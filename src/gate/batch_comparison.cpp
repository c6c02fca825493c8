#include "gate/batch_comparison.hpp"

#include <algorithm>
#include <filesystem>

#include "gate/raw_outcome.hpp"
#include "model/error.hpp"
#include "model/normalize.hpp"

namespace perfgate {
namespace {

// A file name, and so a message naming it, can hold any bytes; a record's text must be UTF-8
// to be fingerprinted and stored. Bad bytes become U+FFFD.
std::string valid_utf8(const std::string& text) {
  return Json::parse(Json(text).dump(-1, ' ', false, Json::error_handler_t::replace))
      .get<std::string>();
}

// A record that stands for a raw record perfgate could not read: enough identity to
// show it in the table and the summary, and nothing a baseline could use.
NormalizedRecord malformed_record(const RawInput& input, const std::string& now) {
  NormalizedRecord record;
  const auto id = input.raw.is_object() ? input.raw.find("benchmark_id") : input.raw.end();
  record.benchmark_id = input.raw.is_object() && id != input.raw.end() && id->is_string() &&
                                !id->get<std::string>().empty()
                            ? id->get<std::string>()
                            : valid_utf8(std::filesystem::path(input.path).filename().string());
  record.timestamp = now;
  record.raw_record_sha256 = input.sha256;
  record.success = false;
  return record;
}

}  // namespace

std::vector<PendingRecord> normalize_batch(const std::vector<RawInput>& inputs,
                                           const BatchOptions& options) {
  std::vector<PendingRecord> pending;
  pending.reserve(inputs.size());
  for (const RawInput& input : inputs) {
    PendingRecord entry;
    if (!input.unreadable.empty()) {
      entry.record = malformed_record(input, options.now);
      entry.malformed = valid_utf8(input.unreadable);
      pending.push_back(std::move(entry));
      continue;
    }
    try {
      entry.record = normalize_raw_record(input.raw, input.path, input.sha256,
                                          options.project_policies, options.method);
    } catch (const Error& error) {
      // One bad file must not hide the verdicts of the others (the exit status still fails).
      entry.record = malformed_record(input, options.now);
      entry.malformed = valid_utf8(error.what());
      pending.push_back(std::move(entry));
      continue;
    }
    if (options.run_source) entry.record.run_source = *options.run_source;
    entry.inputs = raw_record_outcome(input.raw);
    pending.push_back(std::move(entry));
  }
  return pending;
}

std::vector<NormalizedRecord> judge_batch(const std::vector<PendingRecord>& pending,
                                          const CohortHistories& histories,
                                          const BatchOptions& options) {
  // A failing test runner is explained by a static breach anywhere in its batch.
  const bool batch_breach = std::any_of(pending.begin(), pending.end(), [](const auto& entry) {
    return entry.malformed.empty() && entry.inputs.static_breach;
  });
  std::vector<NormalizedRecord> records;
  records.reserve(pending.size());
  for (const PendingRecord& entry : pending) {
    NormalizedRecord record = entry.record;
    ClassificationInputs in = entry.inputs;
    if (!entry.malformed.empty()) {
      in.run_succeeded = false;
      in.malformed = entry.malformed;
    }
    in.run_rc = options.run_rc;
    in.batch_has_static_breach = batch_breach;
    in.trusted_run_sources = options.trusted_run_sources;
    in.method = options.method;
    if (const auto cohort = record.cohort()) {
      if (const auto history = histories.find(*cohort); history != histories.end()) {
        in.baseline = history->second.baseline;
        in.history = history->second.history;
        in.other_trusted_recipes = history->second.other_trusted_recipes;
      }
    }
    classify(record, in);
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace perfgate
