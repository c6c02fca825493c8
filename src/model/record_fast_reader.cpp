#include "model/record_fast_reader.hpp"

#include <simdjson.h>

#include <algorithm>
#include <climits>
#include <limits>

#include "model/fast_fields.hpp"
#include "model/fast_json.hpp"
#include "model/record_fields.hpp"

namespace perfgate {
namespace {

using namespace fast_fields;

/// An integer as JsonObjectReader::integer reads it. simdjson types every integer that
/// fits int64 as INT64, so UINT64 is one the strict reader refuses as too large.
long long integer_of(element value) {
  require(value.type() == element_type::INT64);
  return std::int64_t(value);
}

/// Any JSON number as a double, as nlohmann's get<double> converts it.
double number_of(element value) {
  switch (value.type()) {
    case element_type::INT64:
      return static_cast<double>(std::int64_t(value));
    case element_type::UINT64:
      return static_cast<double>(std::uint64_t(value));
    case element_type::DOUBLE:
      return double(value);
    default:
      give_up();
  }
}

bool is_null(element value) {
  return value.type() == element_type::NULL_VALUE;
}

std::optional<std::string> optional_text_of(element value) {
  if (is_null(value)) return std::nullopt;
  return std::string(text_of(value));
}

std::optional<double> optional_number_of(element value) {
  if (is_null(value)) return std::nullopt;
  return number_of(value);
}

constexpr std::array<std::string_view, 3> kPolicyFields = {"threshold_percent",
                                                           "threshold_absolute", "gated"};

MetricPolicy policy_of(element value) {
  const auto f = exact_fields_of(object_of(value), kPolicyFields);
  MetricPolicy policy;
  policy.threshold_percent = number_of(f[0]);
  policy.threshold_absolute = number_of(f[1]);
  policy.gated = boolean_of(f[2]);
  return policy;
}

MetricValue metric_of(element value) {
  const auto f = exact_fields_of(
      object_of(value), std::array<std::string_view, 4>{"value", "unit", "direction", "samples"});
  MetricValue metric;
  metric.value = number_of(f[0]);
  metric.unit = std::string(text_of(f[1]));
  const auto direction = parse_direction(text_of(f[2]));
  require(direction.has_value());
  metric.direction = *direction;
  if (f.has(3)) {
    for (const element sample : array_of(f[3])) metric.samples.push_back(number_of(sample));
  }
  return metric;
}

/// As the strict reader: a null end is infinite, toward its side.
double interval_end_of(element value, double sign) {
  const std::optional<double> end = optional_number_of(value);
  return end ? *end : sign * std::numeric_limits<double>::infinity();
}

ChangeInterval interval_of(element value) {
  const auto f = exact_fields_of(object_of(value),
                                 std::array<std::string_view, 3>{"low", "high", "confidence"});
  ChangeInterval interval;
  interval.low = interval_end_of(f[0], -1);
  interval.high = interval_end_of(f[1], 1);
  interval.confidence = number_of(f[2]);
  require(interval.confidence > 0 && interval.confidence < 1 && interval.low <= interval.high);
  return interval;
}

constexpr std::array<std::string_view, 13> kComparisonFields = {
    "metric",        "current",      "baseline",           "baseline_count", "absolute_delta",
    "percent_delta", "policy",       "threshold_exceeded", "regressed",      "method",
    "interval",      "inconclusive", "not_gated"};

MetricComparison comparison_of(element value) {
  const auto f = exact_fields_of(object_of(value), kComparisonFields);
  MetricComparison c;
  c.metric = std::string(text_of(f[index_of(kComparisonFields, "metric")]));
  c.current = optional_number_of(f[index_of(kComparisonFields, "current")]);
  c.baseline = optional_number_of(f[index_of(kComparisonFields, "baseline")]);
  const long long count = integer_of(f[index_of(kComparisonFields, "baseline_count")]);
  require(count >= 0);
  c.baseline_count = static_cast<std::size_t>(count);
  c.absolute_delta = number_of(f[index_of(kComparisonFields, "absolute_delta")]);
  const std::optional<double> percent =
      optional_number_of(f[index_of(kComparisonFields, "percent_delta")]);
  // As the strict reader: a null percentage is an infinitely worse (or better) value over a
  // baseline of 0, told by the sign of the absolute delta.
  c.percent_delta = percent                ? *percent
                    : c.absolute_delta > 0 ? std::numeric_limits<double>::infinity()
                    : c.absolute_delta < 0 ? -std::numeric_limits<double>::infinity()
                                           : 0.0;
  c.policy = policy_of(f[index_of(kComparisonFields, "policy")]);
  c.threshold_exceeded = boolean_of(f[index_of(kComparisonFields, "threshold_exceeded")]);
  c.regressed = boolean_of(f[index_of(kComparisonFields, "regressed")]);
  // The fields a stat comparison adds: absent, or null like the strict reader's optionals.
  constexpr std::size_t method = index_of(kComparisonFields, "method");
  if (f.has(method) && !is_null(f[method])) {
    const auto parsed = parse_compare_method(text_of(f[method]));
    require(parsed.has_value());
    c.method = *parsed;
  }
  constexpr std::size_t interval = index_of(kComparisonFields, "interval");
  if (f.has(interval) && !is_null(f[interval])) c.interval = interval_of(f[interval]);
  constexpr std::size_t inconclusive = index_of(kComparisonFields, "inconclusive");
  if (f.has(inconclusive) && !is_null(f[inconclusive]))
    c.inconclusive = boolean_of(f[inconclusive]);
  constexpr std::size_t not_gated = index_of(kComparisonFields, "not_gated");
  if (f.has(not_gated) && !is_null(f[not_gated])) c.not_gated = std::string(text_of(f[not_gated]));
  return c;
}

/// Every field of version 3: those the strict reader requires, the version, and the
/// optional parameters and legacy_fields.
constexpr auto kRecordFields = [] {
  std::array<std::string_view, kCurrentRecordFields.size() + 3> names{};
  std::copy(kCurrentRecordFields.begin(), kCurrentRecordFields.end(), names.begin());
  names[kCurrentRecordFields.size()] = "result_schema_version";
  names[kCurrentRecordFields.size() + 1] = "parameters";
  names[kCurrentRecordFields.size() + 2] = "legacy_fields";
  return names;
}();

consteval std::size_t field(std::string_view name) {
  return index_of(kRecordFields, name);
}

NormalizedRecord record_of(simdjson::dom::object root, std::string record_id) {
  const auto f = exact_fields_of(root, kRecordFields);
  require(integer_of(f[field("result_schema_version")]) == kNormalizedRecordSchemaVersion);
  NormalizedRecord r;
  r.record_id = std::move(record_id);
  r.benchmark_id = std::string(text_of(f[field("benchmark_id")]));
  const long long config_version = integer_of(f[field("config_schema_version")]);
  require(config_version >= 1 && config_version <= INT_MAX);
  r.config_schema_version = static_cast<int>(config_version);
  r.workload_id = optional_text_of(f[field("workload_id")]);
  r.variant_id = optional_text_of(f[field("variant_id")]);
  if (!is_null(f[field("benchmark_version")])) {
    r.benchmark_version = integer_of(f[field("benchmark_version")]);
  }
  r.timestamp = std::string(text_of(f[field("timestamp")]));
  r.commit_sha = optional_text_of(f[field("commit_sha")]);
  r.branch = optional_text_of(f[field("branch")]);
  r.pr_number = optional_text_of(f[field("pr_number")]);
  r.build_url = optional_text_of(f[field("build_url")]);
  r.build_id = optional_text_of(f[field("build_id")]);
  r.job_id = optional_text_of(f[field("job_id")]);
  r.device = std::string(text_of(f[field("device")]));
  if (f.has(field("parameters"))) {
    for (const auto axis : object_of(f[field("parameters")])) {
      r.parameters[std::string(axis.key)] = std::string(text_of(axis.value));
    }
  }
  for (const auto metric : object_of(f[field("metrics")])) {
    r.metrics[std::string(metric.key)] = metric_of(metric.value);  // a duplicate: the last wins
  }
  for (const auto policy : object_of(f[field("regression_thresholds")])) {
    r.regression_thresholds[std::string(policy.key)] = policy_of(policy.value);
  }
  r.recipe_fingerprint = std::string(text_of(f[field("recipe_fingerprint")]));
  r.hardware_profile_id = std::string(text_of(f[field("hardware_profile_id")]));
  r.software_profile_id = std::string(text_of(f[field("software_profile_id")]));
  r.environment_fingerprint = std::string(text_of(f[field("environment_fingerprint")]));
  r.run_source = std::string(text_of(f[field("run_source")]));
  object_of(f[field("quality_metadata")]);
  r.quality_metadata = json_of(f[field("quality_metadata")]);
  r.raw_record_sha256 = std::string(text_of(f[field("raw_record_sha256")]));
  r.baseline_status = std::string(text_of(f[field("baseline_status")]));
  r.comparison_status = std::string(text_of(f[field("comparison_status")]));
  r.comparison_status_reason = std::string(text_of(f[field("comparison_status_reason")]));
  for (const element comparison : array_of(f[field("comparisons")])) {
    r.comparisons.push_back(comparison_of(comparison));
  }
  r.baseline_eligible = boolean_of(f[field("baseline_eligible")]);
  r.success = boolean_of(f[field("success")]);
  if (f.has(field("legacy_fields"))) {
    object_of(f[field("legacy_fields")]);
    r.legacy_fields = json_of(f[field("legacy_fields")]);
  }
  return r;
}

}  // namespace

std::optional<NormalizedRecord> read_current_record_fast(std::string_view content,
                                                         std::string record_id) {
  // One parser per thread: it keeps its buffers between records.
  thread_local simdjson::dom::parser parser;
  element root;
  if (parser.parse(content.data(), content.size(), true).get(root) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  if (root.type() != element_type::OBJECT) return std::nullopt;
  try {
    return record_of(simdjson::dom::object(root), std::move(record_id));
  } catch (const NotTheHappyPath&) {
    return std::nullopt;
  }
}

}  // namespace perfgate
