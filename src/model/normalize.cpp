#include "model/normalize.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "model/instant.hpp"
#include "model/raw_record.hpp"
#include "model/record_field.hpp"
#include "model/static_thresholds.hpp"

namespace perfgate {
namespace {

// Raw records are machine-written; a malformed one was edited or truncated, and only a
// fresh run can recreate what it measured.
constexpr const char* kRawRecordFix =
    "Raw records are written by `perfgate run`; run it again rather than editing the file";

const std::set<std::string> kRunSources = {"pr", "local", "scheduled_main", "unknown"};

void check_schema_version(const RecordField& root) {
  const RecordField version = root.at("result_schema_version");
  const long long found = version.integer();
  if (found == kRawRecordSchemaVersion) return;
  throw version.error(fmt::format("is {}, but this perfgate reads raw records of version {}", found,
                                  kRawRecordSchemaVersion),
                      found > kRawRecordSchemaVersion
                          ? "Use the perfgate version that wrote the record, or a newer one"
                          : kRawRecordFix);
}

// A metric's samples must be finite and agree with the summary that holds its value;
// returns the value the gates compare, or nullopt when nothing was measured.
std::optional<MetricValue> read_metric(const std::string& name, const RecordField& field) {
  field.object();
  MetricValue metric;
  metric.unit = field.at("unit").string();
  const RecordField direction = field.at("direction");
  const auto parsed = parse_direction(direction.string());
  if (!parsed) throw direction.error("must be \"lower\" or \"higher\"");
  metric.direction = *parsed;

  const std::vector<RecordField> samples = field.at("samples").items();
  for (const RecordField& sample : samples) sample.finite_number();
  const RecordField summary = field.at("summary");
  const RecordField count = summary.at("count");
  if (count.integer() != static_cast<long long>(samples.size())) {
    throw count.error(
        fmt::format("is {}, but the metric has {} samples", count.integer(), samples.size()));
  }
  if (samples.empty()) return std::nullopt;
  metric.value = summary.at(std::string(threshold_statistic(name))).finite_number();
  metric.samples.reserve(samples.size());
  for (const RecordField& sample : samples) metric.samples.push_back(sample.finite_number());
  return metric;
}

MetricPolicy read_policy(const RecordField& field) {
  for (const auto& [key, value] : field.members()) {
    if (key != "threshold_percent" && key != "threshold_absolute" && key != "gated") {
      throw value.error("unknown key '" + key + "'");
    }
  }
  MetricPolicy policy;
  const RecordField percent = field.at("threshold_percent");
  policy.threshold_percent = percent.finite_number();
  if (policy.threshold_percent < 0) throw percent.error("must not be negative");
  const RecordField absolute = field.at("threshold_absolute");
  policy.threshold_absolute = absolute.finite_number();
  if (policy.threshold_absolute < 0) throw absolute.error("must not be negative");
  if (auto gated = field.find("gated")) policy.gated = gated->boolean();
  return policy;
}

std::optional<std::string> optional_ci_field(const RecordField& ci, std::string_view key) {
  const auto field = ci.find(key);
  return field ? field->string_or_null() : std::nullopt;
}

void check_static_verdict(const RecordField& verdict) {
  const RecordField status = verdict.at("status");
  const std::string text = status.string();
  if (text != "PASS" && text != "REGRESSION") {
    throw status.error("must be \"PASS\" or \"REGRESSION\"");
  }
  for (const RecordField& check : verdict.at("checks").items()) {
    check.at("metric").string();
    check.at("statistic").string();
    check.at("value").finite_number();
    check.at("limit").finite_number();
    const RecordField kind = check.at("kind");
    if (kind.string() != "max" && kind.string() != "min") {
      throw kind.error("must be \"max\" or \"min\"");
    }
    check.at("breached").boolean();
  }
}

void read_identity(const RecordField& root, NormalizedRecord& record) {
  record.benchmark_id = root.at("benchmark_id").non_empty_string();
  const RecordField schema = root.at("config_schema_version");
  const long long version = schema.integer();
  if (version != 1 && version != 2) throw schema.error("must be 1 or 2");
  record.config_schema_version = static_cast<int>(version);
  record.workload_id = root.at("workload_id").string_or_null();
  record.variant_id = root.at("variant_id").string_or_null();
  record.benchmark_version = root.at("benchmark_version").integer_or_null();
  // The state's axis values, so that a dashboard can name sibling cohorts by them
  // (sort/default (n=200000)); optional, as a hand-made raw record may leave them out.
  if (const auto parameters = root.find("parameters")) {
    for (const auto& [axis, value] : parameters->members())
      record.parameters[axis] = value.string();
  }
}

// Metric values and the policy of every metric, measured or not: an unmeasured metric
// keeps its policy so that the comparison lists it as skipped.
void read_metrics(const RecordField& root, const std::map<std::string, MetricPolicy>& project,
                  CompareMethod method, NormalizedRecord& record) {
  std::vector<std::string> unmeasured;
  for (const auto& [name, field] : root.at("metrics").members()) {
    if (auto metric = read_metric(name, field)) {
      record.metrics[name] = std::move(*metric);
    } else {
      unmeasured.push_back(name);
    }
  }
  if (auto missing = root.find("missing_components")) {
    for (const RecordField& name : missing->items()) unmeasured.push_back(name.string());
  }
  std::map<std::string, MetricPolicy> config;
  for (const auto& [metric, field] : root.at("regression_thresholds").members()) {
    config[metric] = read_policy(field);
  }
  record.regression_thresholds = effective_policies(record.metrics, project, config, method);
  for (const std::string& name : unmeasured) {
    record.regression_thresholds.emplace(name, policy_for(name, project, config, method));
  }
}

void read_provenance(const RecordField& root, NormalizedRecord& record) {
  const RecordField timestamp = root.at("timestamp");
  const auto utc = normalize_utc_timestamp(timestamp.non_empty_string());
  if (!utc) throw timestamp.error("is not an ISO 8601 date-time such as 2026-05-08T22:00:00Z");
  // Stored timestamps are UTC, whatever offset the raw record was written with.
  record.timestamp = *utc;
  record.device = root.at("device").string();
  record.quality_metadata = root.at("quality_metadata").object();
  // What the measurement warned of (the probe's FORKED, a region that ended out of order,
  // a missing component...) stays with the record, so the stored record, the comparison's
  // Markdown and the site can say it: under quality_metadata.measurement_warnings.
  if (const auto warnings = root.find("warnings")) {
    Json lines = Json::array();
    for (const RecordField& line : warnings->items()) lines.push_back(line.string());
    if (!lines.empty()) record.quality_metadata["measurement_warnings"] = std::move(lines);
  }
  // The machine around the runs (load, clock, steal) stays with the record too, so a
  // stored record, an attempt and the history can tell a busy machine from a regression.
  if (const auto machine = root.find("machine_state")) {
    machine->object();
    record.quality_metadata["machine_state"] = machine->json();
  }
  record.recipe_fingerprint = root.at("recipe_fingerprint").string();
  record.hardware_profile_id = root.at("hardware_profile_id").string();
  record.software_profile_id = root.at("software_profile_id").string();
  record.environment_fingerprint = root.at("environment_fingerprint").string();
  const RecordField run_source = root.at("run_source");
  record.run_source = run_source.string();
  if (!kRunSources.contains(record.run_source)) {
    throw run_source.error("must be one of pr, local, scheduled_main, unknown");
  }
  const RecordField ci = root.at("ci");
  ci.object();
  record.commit_sha = optional_ci_field(ci, "commit");
  record.branch = optional_ci_field(ci, "branch");
  record.pr_number = optional_ci_field(ci, "pr_number");
  record.build_url = optional_ci_field(ci, "build_url");
  record.build_id = optional_ci_field(ci, "build_id");
  record.job_id = optional_ci_field(ci, "job_id");
}

}  // namespace

MetricPolicy default_policy(const std::string& metric, CompareMethod method) {
  using namespace metric_names;
  MetricPolicy policy{0.05, 0.25, true};
  if (metric == kLatency || metric == kCpuTime) policy = {0.08, 0.5, true};
  if (metric == kThroughput) policy = {0.08, 0.05, true};
  if (metric == kMemory || metric == kGpuMemory) policy = {0.05, 256, true};
  // The seed's floors stood in for the noise a mean cannot see; the interval sees it, and
  // a floor would hide a +200% change of a program that runs in milliseconds.
  if (method == CompareMethod::kStat) policy.threshold_absolute = 0;
  // Counts (issue 36): a deterministic program's count repeats to a handful of
  // instructions, so 1% is far outside its noise and needs no floor. Hardware cycles move
  // with the clock and the caches like a time; misses are kept to read, not gated.
  using namespace count_metric_names;
  if (metric == kInstructions || metric == kEstimatedCycles || is_region_count(metric))
    policy = {0.01, 0, true};
  if (metric == kCycles) policy = {0.05, 0, true};
  if (metric == kL1Misses || metric == kLlMisses || metric == kBranchMisses)
    policy = {0.05, 0, false};
  return policy;
}

MetricPolicy policy_for(const std::string& metric,
                        const std::map<std::string, MetricPolicy>& project,
                        const std::map<std::string, MetricPolicy>& config, CompareMethod method) {
  if (auto it = config.find(metric); it != config.end()) return it->second;
  if (auto it = project.find(metric); it != project.end()) return it->second;
  return default_policy(metric, method);
}

std::map<std::string, MetricPolicy> effective_policies(
    const std::map<std::string, MetricValue>& metrics,
    const std::map<std::string, MetricPolicy>& project,
    const std::map<std::string, MetricPolicy>& config, CompareMethod method) {
  std::map<std::string, MetricPolicy> policies;
  for (const auto& [metric, value] : metrics)
    policies[metric] = policy_for(metric, project, config, method);
  for (const auto& [metric, policy] : config) policies[metric] = policy;
  return policies;
}

NormalizedRecord normalize_raw_record(const Json& raw, const std::string& source,
                                      const std::string& raw_sha256,
                                      const std::map<std::string, MetricPolicy>& project_policies,
                                      CompareMethod method) {
  const RecordField root(raw, source, kRawRecordFix);
  root.object();
  check_schema_version(root);

  NormalizedRecord record;
  record.raw_record_sha256 = raw_sha256;
  read_identity(root, record);
  record.success = root.at("success").boolean();
  root.at("failure_reason").string_or_null();  // read later by raw_record_outcome
  read_metrics(root, project_policies, method, record);
  check_static_verdict(root.at("static_thresholds"));
  read_provenance(root, record);
  return record;
}

}  // namespace perfgate
