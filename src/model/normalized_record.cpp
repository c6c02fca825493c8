#include "model/normalized_record.hpp"

#include <climits>
#include <cmath>
#include <limits>

#include "model/fingerprint.hpp"
#include "model/json_reader.hpp"
#include "model/legacy_record.hpp"
#include "model/record_fields.hpp"

namespace perfgate {
namespace {

template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json finite_or_null(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

Json comparison_json(const MetricComparison& c) {
  Json json = {
      {"metric", c.metric},
      {"current", optional_json(c.current)},
      {"baseline", optional_json(c.baseline)},
      {"baseline_count", c.baseline_count},
      {"absolute_delta", c.absolute_delta},
      // A worse value over a baseline of 0 is infinitely worse; JSON has no infinity, so
      // it is written as null and read back from the sign of absolute_delta.
      {"percent_delta", std::isfinite(c.percent_delta) ? Json(c.percent_delta) : Json(nullptr)},
      {"policy", policy_json(c.policy)},
      {"threshold_exceeded", c.threshold_exceeded},
      {"regressed", c.regressed}};
  // Written only when they say something, so that records judged by the seed's rule keep
  // exactly the seed's layout (and their record ids).
  if (c.method != CompareMethod::kSeed) json["method"] = to_string(c.method);
  if (c.interval) {
    json["interval"] = {{"low", finite_or_null(c.interval->low)},
                        {"high", finite_or_null(c.interval->high)},
                        {"confidence", c.interval->confidence}};
  }
  if (c.inconclusive) json["inconclusive"] = true;
  if (!c.not_gated.empty()) json["not_gated"] = c.not_gated;
  return json;
}

// An interval's end past a baseline of 0 is infinite: null in JSON, read back as such.
double infinite_like(const std::optional<double>& value, double sign) {
  return value ? *value : sign * std::numeric_limits<double>::infinity();
}

ChangeInterval read_interval(const Json& json, const std::string& source, const std::string& path) {
  JsonObjectReader reader(json, source, path);
  ChangeInterval interval;
  interval.low = infinite_like(reader.optional_number("low"), -1);
  interval.high = infinite_like(reader.optional_number("high"), 1);
  interval.confidence = reader.number("confidence");
  if (!(interval.confidence > 0 && interval.confidence < 1)) {
    reader.fail(reader.path_of("confidence"), "is not between 0 and 1",
                "Use the interval's confidence level, e.g. 0.95");
  }
  if (interval.low > interval.high) {
    reader.fail(reader.path_of("low"), "is above high", "An interval's low end comes first");
  }
  reader.reject_unknown_keys();
  return interval;
}

MetricPolicy read_policy(const Json& json, const std::string& source, const std::string& path) {
  JsonObjectReader reader(json, source, path);
  MetricPolicy policy;
  policy.threshold_percent = reader.number("threshold_percent");
  policy.threshold_absolute = reader.number("threshold_absolute");
  policy.gated = reader.boolean("gated");
  reader.reject_unknown_keys();
  return policy;
}

MetricValue read_metric(const Json& json, const std::string& source, const std::string& path) {
  JsonObjectReader reader(json, source, path);
  MetricValue metric;
  metric.value = reader.number("value");
  metric.unit = reader.string("unit");
  const std::string direction = reader.string("direction");
  const auto parsed = parse_direction(direction);
  if (!parsed) {
    reader.fail(reader.path_of("direction"), "'" + direction + "' is not a direction",
                "Use \"lower\" or \"higher\"");
  }
  metric.direction = *parsed;
  if (reader.has("samples")) {
    const Json& samples = reader.array("samples");
    for (std::size_t i = 0; i < samples.size(); ++i) {
      if (!samples[i].is_number()) {
        reader.fail(reader.path_of("samples[" + std::to_string(i) + "]"), "is not a number",
                    "Samples are the measured runs' values, as perfgate wrote them");
      }
      metric.samples.push_back(samples[i].get<double>());
    }
  }
  reader.reject_unknown_keys();
  return metric;
}

MetricComparison read_comparison(const Json& json, const std::string& source,
                                 const std::string& path) {
  JsonObjectReader reader(json, source, path);
  MetricComparison c;
  c.metric = reader.string("metric");
  c.current = reader.optional_number("current");
  c.baseline = reader.optional_number("baseline");
  const long long count = reader.integer("baseline_count");
  if (count < 0) {
    reader.fail(reader.path_of("baseline_count"), "is negative",
                "Use the number of baseline records (0 or more)");
  }
  c.baseline_count = static_cast<std::size_t>(count);
  c.absolute_delta = reader.number("absolute_delta");
  const std::optional<double> percent = reader.optional_number("percent_delta");
  c.percent_delta = percent                ? *percent
                    : c.absolute_delta > 0 ? std::numeric_limits<double>::infinity()
                    : c.absolute_delta < 0 ? -std::numeric_limits<double>::infinity()
                                           : 0.0;
  c.policy = read_policy(reader.object("policy"), source, reader.path_of("policy"));
  c.threshold_exceeded = reader.boolean("threshold_exceeded");
  c.regressed = reader.boolean("regressed");
  if (const auto method = reader.optional_string("method")) {
    const auto parsed = parse_compare_method(*method);
    if (!parsed) {
      reader.fail(reader.path_of("method"), "'" + *method + "' is not a compare method",
                  "Use \"stat\" or \"seed\"");
    }
    c.method = *parsed;
  }
  if (const Json* interval = reader.optional_object("interval")) {
    c.interval = read_interval(*interval, source, reader.path_of("interval"));
  }
  c.inconclusive = reader.optional_boolean("inconclusive").value_or(false);
  c.not_gated = reader.optional_string("not_gated").value_or("");
  reader.reject_unknown_keys();
  return c;
}

// Version 3: exactly the fields to_json writes, each with its type.
NormalizedRecord read_current_record(JsonObjectReader& reader) {
  for (const std::string_view field : kCurrentRecordFields) reader.member(std::string(field));
  const std::string& source = reader.source();
  NormalizedRecord r;
  r.result_schema_version = kNormalizedRecordSchemaVersion;
  r.record_id = reader.string("record_id");
  r.benchmark_id = reader.string("benchmark_id");
  const long long config_version = reader.integer("config_schema_version");
  if (config_version < 1 || config_version > INT_MAX) {
    reader.fail(reader.path_of("config_schema_version"),
                std::to_string(config_version) + " is not a config schema version",
                "Use the config's version: 1 (legacy) or 2 (with identity)");
  }
  r.config_schema_version = static_cast<int>(config_version);
  r.workload_id = reader.optional_string("workload_id");
  r.variant_id = reader.optional_string("variant_id");
  r.benchmark_version = reader.optional_integer("benchmark_version");
  r.timestamp = reader.string("timestamp");
  r.commit_sha = reader.optional_string("commit_sha");
  r.branch = reader.optional_string("branch");
  r.pr_number = reader.optional_string("pr_number");
  r.build_url = reader.optional_string("build_url");
  r.build_id = reader.optional_string("build_id");
  r.job_id = reader.optional_string("job_id");
  r.device = reader.string("device");
  if (reader.has("parameters")) {
    for (const auto& [axis, value] : reader.object("parameters").items()) {
      if (!value.is_string()) {
        reader.fail(reader.path_of("parameters." + axis), "is not a string",
                    "Parameter values are written as text, as perfgate wrote them");
      }
      r.parameters[axis] = value.get<std::string>();
    }
  }
  for (const auto& [name, value] : reader.object("metrics").items()) {
    r.metrics[name] = read_metric(value, source, reader.path_of("metrics." + name));
  }
  for (const auto& [name, value] : reader.object("regression_thresholds").items()) {
    r.regression_thresholds[name] =
        read_policy(value, source, reader.path_of("regression_thresholds." + name));
  }
  r.recipe_fingerprint = reader.string("recipe_fingerprint");
  r.hardware_profile_id = reader.string("hardware_profile_id");
  r.software_profile_id = reader.string("software_profile_id");
  r.environment_fingerprint = reader.string("environment_fingerprint");
  r.run_source = reader.string("run_source");
  r.quality_metadata = reader.object("quality_metadata");
  r.raw_record_sha256 = reader.string("raw_record_sha256");
  r.baseline_status = reader.string("baseline_status");
  r.comparison_status = reader.string("comparison_status");
  r.comparison_status_reason = reader.string("comparison_status_reason");
  const Json& comparisons = reader.array("comparisons");
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    r.comparisons.push_back(read_comparison(
        comparisons[i], source, reader.path_of("comparisons[" + std::to_string(i) + "]")));
  }
  r.baseline_eligible = reader.boolean("baseline_eligible");
  r.success = reader.boolean("success");
  if (reader.has("legacy_fields")) r.legacy_fields = reader.object("legacy_fields");
  reader.reject_unknown_keys();
  return r;
}

}  // namespace

const char* to_string(CompareMethod method) {
  return method == CompareMethod::kStat ? "stat" : "seed";
}

std::optional<CompareMethod> parse_compare_method(std::string_view text) {
  if (text == "stat") return CompareMethod::kStat;
  if (text == "seed") return CompareMethod::kSeed;
  return std::nullopt;
}

Json policy_json(const MetricPolicy& policy) {
  return {{"threshold_percent", policy.threshold_percent},
          {"threshold_absolute", policy.threshold_absolute},
          {"gated", policy.gated}};
}

std::string CohortKey::to_string() const {
  return workload_id + "/" + variant_id + "/v" + std::to_string(benchmark_version) + "/" +
         recipe_fingerprint.substr(0, 12) + "/" + hardware_profile_id + "/" + software_profile_id;
}

std::optional<CohortKey> NormalizedRecord::cohort() const {
  const auto filled = [](const std::optional<std::string>& text) { return text && !text->empty(); };
  if (!filled(workload_id) || !filled(variant_id) || !benchmark_version ||
      recipe_fingerprint.empty() || hardware_profile_id.empty() || software_profile_id.empty()) {
    return std::nullopt;
  }
  return CohortKey{*workload_id,       *variant_id,         *benchmark_version,
                   recipe_fingerprint, hardware_profile_id, software_profile_id};
}

Json to_json(const NormalizedRecord& record) {
  Json metrics = Json::object();
  for (const auto& [name, metric] : record.metrics) {
    metrics[name] = {
        {"value", metric.value}, {"unit", metric.unit}, {"direction", to_string(metric.direction)}};
    if (!metric.samples.empty()) metrics[name]["samples"] = metric.samples;
  }
  Json thresholds = Json::object();
  for (const auto& [name, policy] : record.regression_thresholds) {
    thresholds[name] = policy_json(policy);
  }
  Json comparisons = Json::array();
  for (const auto& comparison : record.comparisons) {
    comparisons.push_back(comparison_json(comparison));
  }

  Json json = {
      {"result_schema_version", record.result_schema_version},
      {"record_id", record.record_id},
      {"benchmark_id", record.benchmark_id},
      {"config_schema_version", record.config_schema_version},
      {"workload_id", optional_json(record.workload_id)},
      {"variant_id", optional_json(record.variant_id)},
      {"benchmark_version", optional_json(record.benchmark_version)},
      {"timestamp", record.timestamp},
      {"commit_sha", optional_json(record.commit_sha)},
      {"branch", optional_json(record.branch)},
      {"pr_number", optional_json(record.pr_number)},
      {"build_url", optional_json(record.build_url)},
      {"build_id", optional_json(record.build_id)},
      {"job_id", optional_json(record.job_id)},
      {"device", record.device},
      {"metrics", metrics},
      {"regression_thresholds", thresholds},
      {"recipe_fingerprint", record.recipe_fingerprint},
      {"hardware_profile_id", record.hardware_profile_id},
      {"software_profile_id", record.software_profile_id},
      {"environment_fingerprint", record.environment_fingerprint},
      {"run_source", record.run_source},
      {"quality_metadata", record.quality_metadata},
      {"raw_record_sha256", record.raw_record_sha256},
      {"baseline_status", record.baseline_status},
      {"comparison_status", record.comparison_status},
      {"comparison_status_reason", record.comparison_status_reason},
      {"comparisons", comparisons},
      {"baseline_eligible", record.baseline_eligible},
      {"success", record.success},
  };
  if (!record.parameters.empty()) json["parameters"] = record.parameters;
  if (!record.legacy_fields.empty()) json["legacy_fields"] = record.legacy_fields;
  return json;
}

NormalizedRecord normalized_record_from_json(const Json& json, const std::string& source) {
  return normalized_record_from_json(json, source, "");
}

NormalizedRecord normalized_record_from_json(const Json& json, const std::string& source,
                                             const std::string& path) {
  JsonObjectReader reader(json, source, path);
  if (!reader.has("result_schema_version")) return read_legacy_record(reader, 1);
  const long long version = reader.integer("result_schema_version");
  if (version == 1 || version == 2) return read_legacy_record(reader, static_cast<int>(version));
  if (version == kNormalizedRecordSchemaVersion) return read_current_record(reader);
  if (version > kNormalizedRecordSchemaVersion) {
    reader.fail(reader.path_of("result_schema_version"),
                "version " + std::to_string(version) + " was written by a newer perfgate",
                "Upgrade perfgate; this one reads versions 1 to " +
                    std::to_string(kNormalizedRecordSchemaVersion));
  }
  reader.fail(reader.path_of("result_schema_version"),
              "version " + std::to_string(version) + " does not exist",
              "Use 1, 2 or " + std::to_string(kNormalizedRecordSchemaVersion) +
                  " (or leave the field out for a legacy v1 record)");
}

std::string record_content_text(const NormalizedRecord& record) {
  Json content = to_json(record);
  content.erase("record_id");
  return canonical_json(content);
}

void assign_record_id(NormalizedRecord& record) {
  record.record_id = sha256_hex(record_content_text(record));
}

}  // namespace perfgate
