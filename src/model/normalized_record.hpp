#pragma once
// The normalised record (SPEC §1, §6): the compact, comparable form of a raw record plus
// its comparison outcome. Written by `compare` as normalized_perf_*.json, kept by the store.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"
#include "model/metric.hpp"

namespace perfgate {

/// Layout version of a normalised record. Versions 1 (no result_schema_version field) and
/// 2 are the seed's legacy layouts with flat metric keys; 3 nests metrics under "metrics".
/// normalized_record_from_json reads all three; to_json writes 3.
inline constexpr int kNormalizedRecordSchemaVersion = 3;

/// Statuses in their order of precedence (SPEC §6): the first that applies wins.
inline constexpr const char* kInfraError = "INFRA_ERROR";
inline constexpr const char* kRegression = "REGRESSION";
/// compare --method stat: a gated metric's interval straddles its threshold.
inline constexpr const char* kInconclusive = "INCONCLUSIVE";
inline constexpr const char* kRecipeMismatch = "RECIPE_MISMATCH";
inline constexpr const char* kCalibrationNeeded = "CALIBRATION_NEEDED";
inline constexpr const char* kPass = "PASS";

/// baseline_status values.
inline constexpr const char* kBaselineCompared = "compared";
inline constexpr const char* kBaselineInitializedNewCohort = "initialized_new_cohort";
inline constexpr const char* kBaselineSkippedMissingIdentity = "skipped_missing_identity";
inline constexpr const char* kBaselineSkippedFailedRun = "skipped_failed_run";
inline constexpr const char* kBaselineSkippedNoMetric = "skipped_no_metric";

/// The six fields that decide which records may be compared with each other.
struct CohortKey {
  std::string workload_id;
  std::string variant_id;
  long long benchmark_version = 0;
  std::string recipe_fingerprint;
  std::string hardware_profile_id;
  std::string software_profile_id;

  auto operator<=>(const CohortKey&) const = default;
  /// workload/variant/vN/recipe[:12]/hw/sw, for display and as a map key.
  std::string to_string() const;
};

/// One metric of a record: the value the gates compare (mean of the measured runs;
/// the largest sample for memory metrics), its unit and direction, and the measured
/// runs' samples that compare --method stat estimates a change from (empty for records
/// written before they were kept, and for imports that had none).
struct MetricValue {
  double value = 0;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
  std::vector<double> samples = {};
  bool operator==(const MetricValue&) const = default;
};

/// How `compare` decides (docs/compare.md): "stat" estimates each metric's change from
/// the samples with an interval; "seed" is seed 000's rule, the mean against the median
/// of the baseline means.
enum class CompareMethod { kStat, kSeed };
const char* to_string(CompareMethod method);
std::optional<CompareMethod> parse_compare_method(std::string_view text);

/// The interval of a change under --method stat, in the worse direction like
/// percent_delta: low = 0.02, high = 0.12 means between 2% and 12% worse.
struct ChangeInterval {
  double low = 0;
  double high = 0;
  double confidence = 0.95;
  bool operator==(const ChangeInterval&) const = default;
};

/// A metric of the current record against the rolling baseline.
struct MetricComparison {
  std::string metric;
  std::optional<double> current;   ///< null when the record lacks the metric (skipped)
  std::optional<double> baseline;  ///< median of the baseline records that have it
  std::size_t baseline_count = 0;  ///< how many baseline records had the metric
  double absolute_delta = 0;       ///< in the worse direction: > 0 means worse
  double percent_delta = 0;        ///< fraction of the baseline, worse direction: 0.08 = 8% worse
  MetricPolicy policy;
  bool threshold_exceeded = false;  ///< percent AND absolute deltas above the policy
  bool regressed = false;           ///< exceeded and gated
  CompareMethod method = CompareMethod::kSeed;
  /// --method stat: the change's interval (absent when a side had no samples to estimate
  /// from). The deltas above are then the estimate, not current − baseline.
  std::optional<ChangeInterval> interval;
  /// --method stat: the interval straddles the threshold, and the metric is gated.
  bool inconclusive = false;
  /// Why a change beyond the relative threshold is not gated, e.g. "under the 500 ms
  /// floor": never silent. "" otherwise.
  std::string not_gated;
  bool operator==(const MetricComparison&) const = default;
};

struct NormalizedRecord {
  int result_schema_version = kNormalizedRecordSchemaVersion;
  /// Content address: SHA-256 of the canonical JSON of the record without this field.
  std::string record_id;
  std::string benchmark_id;
  int config_schema_version = 1;
  std::optional<std::string> workload_id;
  std::optional<std::string> variant_id;
  std::optional<long long> benchmark_version;
  std::string timestamp;
  std::optional<std::string> commit_sha;
  std::optional<std::string> branch;
  std::optional<std::string> pr_number;
  std::optional<std::string> build_url;
  std::optional<std::string> build_id;
  std::optional<std::string> job_id;
  std::string device;
  /// The state's parameter values, axis -> value as text ({"n": "200000"}), so that a
  /// dashboard can tell sibling cohorts apart by them. Empty for a state without axes, an
  /// import, and records written before they were kept; written only when not empty, so
  /// those records keep their layout and their ids.
  std::map<std::string, std::string> parameters;
  std::map<std::string, MetricValue> metrics;
  std::map<std::string, MetricPolicy> regression_thresholds;  ///< effective policy per metric
  std::string recipe_fingerprint;
  std::string hardware_profile_id;
  std::string software_profile_id;
  std::string environment_fingerprint;
  std::string run_source = "unknown";
  Json quality_metadata = Json::object();
  std::string raw_record_sha256;  ///< digest of the raw record file it came from ("" for imports)

  std::string baseline_status;
  std::string comparison_status;
  std::string comparison_status_reason;
  std::vector<MetricComparison> comparisons;
  bool baseline_eligible = false;
  bool success = true;
  /// Fields of a legacy record that perfgate does not know, kept verbatim so that reading
  /// old data loses nothing. Written as "legacy_fields" only when not empty.
  Json legacy_fields = Json::object();

  /// The cohort, when the record has a complete v2 identity and profile ids.
  std::optional<CohortKey> cohort() const;
  bool operator==(const NormalizedRecord&) const = default;
};

Json to_json(const NormalizedRecord& record);
/// Reads a normalised record; `source` names it in errors (Error kDataError
/// "<source>: <json.path>: <reason>. <fix>"). Version 3 is read strictly: every field
/// typed, unknown fields rejected. The seed's legacy layouts (no result_schema_version =
/// v1, or 2) are read leniently: flat metric keys become metrics, unknown fields go to
/// legacy_fields, and a record with neither run_source nor baseline_eligible is a legacy
/// successful main upload (eligible, run_source "scheduled_main").
NormalizedRecord normalized_record_from_json(const Json& json, const std::string& source);
/// The same for a record nested in a larger document: errors name fields under `path`
/// (e.g. "records[2]").
NormalizedRecord normalized_record_from_json(const Json& json, const std::string& source,
                                             const std::string& path);
/// The canonical JSON of the record without its record_id: what the id is the SHA-256 of,
/// and what stores keep (the id is stored beside it).
std::string record_content_text(const NormalizedRecord& record);

/// A policy as records write it: {"threshold_percent", "threshold_absolute", "gated"}.
Json policy_json(const MetricPolicy& policy);
/// Sets record_id from the record's content.
void assign_record_id(NormalizedRecord& record);

}  // namespace perfgate
