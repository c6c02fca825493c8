#include "gate/comparison_status.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gate/machine_load.hpp"
#include "gate/rolling_baseline.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

// The fields a v2 record needs to belong to a cohort, in the order reasons list them.
std::vector<std::string> missing_identity_fields(const NormalizedRecord& record) {
  std::vector<std::string> missing;
  if (!record.workload_id || record.workload_id->empty()) missing.push_back("workload_id");
  if (!record.variant_id || record.variant_id->empty()) missing.push_back("variant_id");
  if (!record.benchmark_version) missing.push_back("benchmark_version");
  if (record.recipe_fingerprint.empty()) missing.push_back("recipe_fingerprint");
  if (record.hardware_profile_id.empty()) missing.push_back("hardware_profile_id");
  if (record.software_profile_id.empty()) missing.push_back("software_profile_id");
  return missing;
}

// Up to three significant digits in fixed notation, trailing zeros dropped:
// 12.5 -> "12.5", 6 -> "6", 0.6234 -> "0.623", 1234.5 -> "1235"; infinity -> "inf".
std::string significant(double value) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, 2 - magnitude);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string signed_significant(double value) {
  return (value >= 0 ? "+" : "") + significant(value);
}

// "latency +12.5% (+0.62 s), throughput -20% (-0.3 frames/s)": every regressed metric in
// name order (comparisons are sorted), its change as current minus baseline — the sign
// convention of every table, so a throughput drop is negative — in percent and in the
// metric's unit.
std::string describe_changes(const NormalizedRecord& record, bool MetricComparison::*which) {
  std::vector<std::string> parts;
  bool with_intervals = false;
  for (const MetricComparison& comparison : record.comparisons) {
    if (!(comparison.*which)) continue;
    with_intervals = with_intervals || comparison.interval.has_value();
    const auto metric = record.metrics.find(comparison.metric);
    const std::string unit = metric == record.metrics.end() ? "" : metric->second.unit;
    // Deltas are kept in the worse direction; for higher-is-better metrics worse is down.
    const double sign =
        metric != record.metrics.end() && metric->second.direction == Direction::kHigherIsBetter
            ? -1.0
            : 1.0;
    // The change in the unit the table shows the values in (+0.62 s beside 5.58 s, +67 ns
    // beside 567 ns), never a raw "+6.7e-08 s".
    const DisplayUnit display =
        choose_display_unit(std::max(std::fabs(comparison.current.value_or(0)),
                                     std::fabs(comparison.baseline.value_or(0))),
                            unit);
    const std::string suffix = display.suffix.empty() ? "" : " " + display.suffix;
    std::string part =
        fmt::format("{} {}% ({}{})", comparison.metric,
                    signed_significant(sign * comparison.percent_delta * 100),
                    signed_significant(sign * comparison.absolute_delta / display.divisor), suffix);
    if (comparison.interval) {
      // The interval in the sign of the change, low end first.
      const double a = sign * comparison.interval->low * 100;
      const double b = sign * comparison.interval->high * 100;
      // One decimal, as the table's change column shows it.
      part += fmt::format(", {:g}% interval {:+.1f}% to {:+.1f}%",
                          comparison.interval->confidence * 100, std::min(a, b), std::max(a, b));
    }
    parts.push_back(std::move(part));
  }
  // A part with an interval holds a comma of its own.
  return fmt::format("{}", fmt::join(parts, with_intervals ? "; " : ", "));
}

std::string describe_regressions(const NormalizedRecord& record) {
  return "gated metrics regressed against the rolling baseline: " +
         describe_changes(record, &MetricComparison::regressed);
}

// Why a record's slower times were not blamed on its code: the load it was measured under.
struct LoadNote {
  std::string lead;    ///< "the machine was busier than for the baseline (…)"
  std::string advice;  ///< "Rerun when the machine is idle"
  bool empty() const { return lead.empty(); }
};

std::string describe_inconclusive(const NormalizedRecord& record, const LoadNote& load) {
  if (!load.empty()) {
    return load.lead + ": " + describe_changes(record, &MetricComparison::inconclusive) +
           " may be the load's, not the code's. " + load.advice;
  }
  return "the change's interval straddles the threshold: " +
         describe_changes(record, &MetricComparison::inconclusive) +
         ". Rerun, or raise the repetitions";
}

// The slowdown a regressed metric's interval is sure of, as a ratio: its low end in the
// worse direction (a time 1 + low; a rate that fell by low, 1 / (1 - low)).
double surest_slowdown(const MetricComparison& comparison, Direction direction) {
  const double low = comparison.interval ? comparison.interval->low : comparison.percent_delta;
  if (direction != Direction::kHigherIsBetter) return 1 + low;
  return low >= 1 ? std::numeric_limits<double>::infinity() : 1 / (1 - low);
}

// A busy machine: under a busy loop on each core the machine's level drifts between
// moments more than records measured back to back scatter, and a confirmation measured right
// after the first runs meets the same moment, so neither the baseline's spread nor a
// confirmation can vouch for it (bench/compare_verdicts.sh: 2-3 unchanged tries in 20 were
// REGRESSION unconfirmed, 1 in 20 confirmed). Unless the change is larger than the load
// could make it, the code is not blamed.
LoadNote busy_explains(const NormalizedRecord& record) {
  const std::optional<BusyMachine> busy = busy_machine(record);
  if (!busy) return {};
  for (const MetricComparison& comparison : record.comparisons) {
    if (!comparison.regressed) continue;
    const Direction direction = record.metrics.at(comparison.metric).direction;
    if (surest_slowdown(comparison, direction) > busy->explainable_slowdown) return {};
  }
  return {"the machine was busy (measured while " + busy->description + ")",
          "Rerun when the machine is idle, or count instructions (run --measure "
          "time,instructions)"};
}

// --method stat: when every regressed metric is one the load can slow (times, rates) and
// the record was measured on a machine busier than its baseline's, or on a busy machine
// that can explain the change, the regressions become inconclusive: the runs agree with each
// other under the load, so their interval is narrow and would blame the code. Returns why,
// empty when nothing changed. A count or a size that regressed keeps the record a
// REGRESSION.
LoadNote discount_load(NormalizedRecord& record, const ClassificationInputs& inputs) {
  if (inputs.method != CompareMethod::kStat || inputs.static_breach) return {};
  bool any = false;
  for (const MetricComparison& comparison : record.comparisons) {
    if (!comparison.regressed) continue;
    const auto metric = record.metrics.find(comparison.metric);
    if (metric == record.metrics.end() || !load_sensitive_unit(metric->second.unit)) return {};
    any = true;
  }
  if (!any) return {};
  LoadNote note;
  if (const std::string busier = busier_than_baseline(record, inputs.baseline); !busier.empty()) {
    note = {"the machine was busier than for the baseline (" + busier + ")",
            "Rerun when the machine is idle"};
  } else {
    note = busy_explains(record);
  }
  if (note.empty()) return {};
  for (MetricComparison& comparison : record.comparisons) {
    if (!comparison.regressed) continue;
    comparison.regressed = false;
    comparison.inconclusive = true;
  }
  return note;
}

// Recipe fingerprints are shown by their first 12 hex digits, as in cohort names.
std::string short_recipe(const std::string& fingerprint) {
  return fingerprint.substr(0, 12);
}

std::string describe_recipe_mismatch(const NormalizedRecord& record,
                                     const std::vector<std::string>& others) {
  std::vector<std::string> shown;
  for (const std::string& other : others) shown.push_back(short_recipe(other));
  std::sort(shown.begin(), shown.end());
  shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
  return fmt::format(
      "no baseline for recipe {}; trusted records of {}/{}/v{} exist under recipe(s) {}",
      short_recipe(record.recipe_fingerprint), record.workload_id.value_or(""),
      record.variant_id.value_or(""), record.benchmark_version.value_or(0), fmt::join(shown, ", "));
}

struct Status {
  std::string status;
  std::string reason;
};

// The first rule that applies wins; the order is the precedence of SPEC §6.
Status decide(const NormalizedRecord& record, const ClassificationInputs& inputs,
              const std::vector<std::string>& missing_identity, const LoadNote& load) {
  const bool legacy = record.config_schema_version != 2;
  if (!inputs.malformed.empty()) {
    return {kInfraError, "the raw record cannot be read: " + inputs.malformed};
  }
  if (!legacy && !missing_identity.empty()) {
    return {kInfraError, fmt::format("v2 record is missing required identity fields: {}",
                                     fmt::join(missing_identity, ", "))};
  }
  if (!inputs.run_succeeded && !inputs.static_breach) {
    return {kInfraError,
            "run failed with no attributable static-threshold breach: " + inputs.run_failure};
  }
  // A failing test runner is explained by a static breach anywhere in its batch; with
  // none, something outside the measurements failed and no record can be trusted.
  const bool batch_breached = inputs.batch_has_static_breach || inputs.static_breach;
  if (inputs.run_rc && *inputs.run_rc != 0 && !batch_breached) {
    return {kInfraError, fmt::format("test runner exited with status {} with no attributable "
                                     "static-threshold breach",
                                     *inputs.run_rc)};
  }
  if (inputs.static_breach) {
    return {kRegression, "static threshold breached: " + inputs.static_breach_detail};
  }
  if (record.metrics.empty()) {
    return {kInfraError,
            "no metric was measured (every metric is missing or null): the record cannot be "
            "gated. Check the benchmark's worker log"};
  }
  const bool regressed = std::any_of(record.comparisons.begin(), record.comparisons.end(),
                                     [](const MetricComparison& c) { return c.regressed; });
  if (regressed) return {kRegression, describe_regressions(record)};
  const bool inconclusive = std::any_of(record.comparisons.begin(), record.comparisons.end(),
                                        [](const MetricComparison& c) { return c.inconclusive; });
  if (inconclusive) return {kInconclusive, describe_inconclusive(record, load)};
  if (legacy) return {kPass, "legacy v1 record: gated by static thresholds only"};
  if (inputs.baseline.empty()) {
    std::vector<std::string> others;
    for (const std::string& recipe : inputs.other_trusted_recipes) {
      if (!recipe.empty() && recipe != record.recipe_fingerprint) others.push_back(recipe);
    }
    if (!others.empty()) return {kRecipeMismatch, describe_recipe_mismatch(record, others)};
    return {kCalibrationNeeded, "No baseline found for exact comparable identity"};
  }
  return {kPass, "Comparable baseline found with no gated regressions"};
}

}  // namespace

void classify(NormalizedRecord& record, const ClassificationInputs& inputs) {
  const bool legacy = record.config_schema_version != 2;
  const std::vector<std::string> missing_identity =
      legacy ? std::vector<std::string>{} : missing_identity_fields(record);
  const bool comparable = !legacy && missing_identity.empty();

  // Comparisons are kept whatever the status, so reports can show them next to it.
  record.comparisons =
      comparable && !inputs.baseline.empty()
          ? compare_with_baseline(record, inputs.baseline, inputs.method, inputs.history)
          : std::vector<MetricComparison>{};
  if (!inputs.run_succeeded) {
    record.baseline_status = kBaselineSkippedFailedRun;
  } else if (record.metrics.empty()) {
    record.baseline_status = kBaselineSkippedNoMetric;
  } else if (!comparable) {
    record.baseline_status = kBaselineSkippedMissingIdentity;
  } else if (inputs.baseline.empty()) {
    record.baseline_status = kBaselineInitializedNewCohort;
  } else {
    record.baseline_status = kBaselineCompared;
  }

  const LoadNote load = discount_load(record, inputs);
  const Status status = decide(record, inputs, missing_identity, load);
  record.comparison_status = status.status;
  record.comparison_status_reason = status.reason;
  record.success = inputs.run_succeeded && !inputs.static_breach && status.status != kInfraError;
  const bool trusted =
      std::find(inputs.trusted_run_sources.begin(), inputs.trusted_run_sources.end(),
                record.run_source) != inputs.trusted_run_sources.end();
  record.baseline_eligible = record.success && status.status == kPass &&
                             record.baseline_status == kBaselineCompared && trusted;
}

}  // namespace perfgate
