#include "cli/judged_records.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include "cli/terminal.hpp"
#include "model/attempt.hpp"
#include "model/error.hpp"
#include "report/comparison_summary.hpp"

namespace perfgate {
namespace {

bool fails_ci(const NormalizedRecord& record) {
  return record.comparison_status == kInfraError || record.comparison_status == kRegression ||
         record.comparison_status == kRecipeMismatch;
}

}  // namespace

UploadChoice resolve_upload_policy(const std::string& flag, const std::string& fallback) {
  std::string source = "--upload";
  std::string text = flag;
  for (const char* variable : {"PERFGATE_UPLOAD_POLICY", "PERF_UPLOAD_POLICY"}) {
    const char* value = std::getenv(variable);
    if (!text.empty() || value == nullptr || *value == '\0') continue;
    source = variable;
    text = value;
  }
  if (text.empty()) text = fallback;
  const std::optional<UploadPolicy> policy = parse_upload_policy(text);
  if (!policy) throw Error(ExitCode::kUsage, source + "='" + text + "': use never, pass or always");
  return {*policy, text};
}

std::string measurement_key(const NormalizedRecord& record) {
  return record.raw_record_sha256.empty() ? record.record_id : record.raw_record_sha256;
}

// A micro-benchmark's latency far below the default absolute threshold (0.5 s) regresses
// only when it gets worse by more than that: the gate would pass a doubling in silence.
void note_thresholds_above_values(const std::vector<NormalizedRecord>& records) {
  std::map<std::string, std::pair<std::size_t, const MetricPolicy*>> below;
  for (const auto& record : records) {
    for (const auto& [name, value] : record.metrics) {
      const auto policy = record.regression_thresholds.find(name);
      if (policy == record.regression_thresholds.end() || !policy->second.gated) continue;
      if (std::abs(value.value) < policy->second.threshold_absolute) {
        auto& [count, example] = below[name];
        ++count;
        example = &policy->second;
      }
    }
  }
  for (const auto& [name, entry] : below) {
    std::cerr << fmt::format(
        "perfgate: note: {} of {} record(s) is smaller than its policy's threshold_absolute "
        "({:g}): it regresses only when it gets worse by more than that. Set "
        "[policies.{}] threshold_absolute in perfgate.toml to a size that fits these "
        "benchmarks\n",
        name, entry.first, entry.second->threshold_absolute, name);
  }
}

std::string store_judged_records(Store& store, std::vector<NormalizedRecord>& records,
                                 const std::vector<bool>& storable, const UploadChoice& upload,
                                 const std::string& created_at) {
  std::vector<NormalizedRecord> selected;
  for (std::size_t i = 0; i < records.size(); ++i) {
    assign_record_id(records[i]);
    if (storable[i] && should_upload(upload.policy, records[i])) selected.push_back(records[i]);
  }
  if (selected.empty()) return "nothing stored (upload policy " + upload.text + ")";

  std::vector<std::string> keys;
  for (const auto& record : selected) keys.push_back(measurement_key(record));
  const std::vector<std::string> stored = store.already_stored(keys);
  std::set<std::string> held(stored.begin(), stored.end());
  // already_stored is read before the append's transaction: a writer that stores the same
  // measurement in between is found by append itself, and those records are left out too.
  for (;;) {
    Attempt attempt;
    attempt.created_at = created_at;
    std::vector<std::string> skipped;
    std::set<std::string> seen = held;
    for (const auto& record : selected) {
      // Stored before, or twice in this batch (the same file given twice): keep the first.
      if (!seen.insert(measurement_key(record)).second) {
        skipped.push_back(record.benchmark_id);
        continue;
      }
      attempt.records.push_back(record);
    }
    std::string note;
    if (!skipped.empty()) {
      // A suite of thousands of states is named by its first few.
      constexpr std::size_t kNamesShown = 3;
      const std::vector<std::string> shown(skipped.begin(),
                                           skipped.begin() + std::min(skipped.size(), kNamesShown));
      note = fmt::format(
          "already stored: {} record(s) whose measurement is in {} ({}{}); not stored again",
          skipped.size(), store.url(), fmt::join(shown, ", "),
          skipped.size() > kNamesShown ? ", …" : "");
    }
    if (attempt.records.empty()) return note + "; nothing changed";
    if (!note.empty()) note = "\n" + note;

    attempt.commit_sha = attempt.records.front().commit_sha.value_or("");
    attempt.run_source = attempt.records.front().run_source;
    attempt.success = std::all_of(attempt.records.begin(), attempt.records.end(),
                                  [](const NormalizedRecord& r) { return r.success; });
    assign_attempt_id(attempt);
    AppendOutcome outcome{};
    try {
      outcome = store.append(attempt);
    } catch (const MeasurementsAlreadyStored& repeated) {
      // Each round leaves at least one more record out, so this ends.
      const std::size_t before = held.size();
      held.insert(repeated.raw_digests().begin(), repeated.raw_digests().end());
      if (held.size() == before) throw;
      continue;
    }
    return (outcome == AppendOutcome::kAppended ? "stored " : "already stored: ") +
           std::to_string(attempt.records.size()) + " record(s) in " + store.url() + " (attempt " +
           attempt.attempt_id.substr(0, 12) + ")" + note;
  }
}

std::map<std::string, std::string> baseline_metric_units(const CohortHistories& histories) {
  std::map<std::string, std::string> units;
  for (const auto& [cohort, history] : histories) {
    for (const NormalizedRecord& record : history.baseline) {
      for (const auto& [name, value] : record.metrics) units.emplace(name, value.unit);
    }
  }
  return units;
}

void print_judged_records(const std::vector<NormalizedRecord>& records, bool json,
                          const std::map<std::string, std::string>& baseline_units) {
  if (json) {
    Json list = Json::array();
    for (const auto& record : records) list.push_back(to_json(record));
    std::cout << pretty_json(list);
  } else {
    std::cout << render_comparison_table(records, stdout_supports_color(), stdout_columns(),
                                         baseline_units);
  }
  // Never silent, and never in the JSON of the records: stderr when stdout is JSON.
  if (const std::string held = not_gated_note(records); !held.empty())
    (json ? std::cerr : std::cout) << held;
}

int judged_exit_status(const std::vector<NormalizedRecord>& records) {
  const bool failed = std::any_of(records.begin(), records.end(), fails_ci);
  if (failed) return static_cast<int>(ExitCode::kFailure);
  // Undecided is neither a pass nor a failure: 2, as ab's INCONCLUSIVE (SPEC §3).
  const bool undecided = std::any_of(records.begin(), records.end(), [](const auto& record) {
    return record.comparison_status == kInconclusive;
  });
  return static_cast<int>(undecided ? ExitCode::kInconclusive : ExitCode::kOk);
}

}  // namespace perfgate
