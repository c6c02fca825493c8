#include "model/legacy_record.hpp"

#include <string_view>

namespace perfgate {
namespace {

// The flat metric keys of the legacy layouts and what they measure. Component timings
// are every key ending in "_time_s".
std::optional<Metric> legacy_metric(const std::string& key) {
  if (key == "latency") return Metric{key, "s", Direction::kLowerIsBetter};
  if (key == "throughput") return Metric{key, "units/s", Direction::kHigherIsBetter};
  if (key == "memory") return Metric{key, "MB", Direction::kLowerIsBetter};
  if (key.ends_with("_time_s")) return Metric{key, "s", Direction::kLowerIsBetter};
  return std::nullopt;
}

// CI identifiers were written as text by the seed, but some exporters wrote numbers.
std::optional<std::string> ci_text(JsonObjectReader& reader, const std::string& key) {
  if (reader.has(key) && reader.member(key).is_number_integer()) {
    return reader.member(key).dump();
  }
  return reader.optional_string(key);
}

std::string text_or_empty(JsonObjectReader& reader, const std::string& key) {
  return reader.optional_string(key).value_or("");
}

// Legacy policies may leave out `gated`, which then defaults to true as in the seed.
MetricPolicy read_legacy_policy(const Json& json, const std::string& source,
                                const std::string& path) {
  JsonObjectReader reader(json, source, path);
  MetricPolicy policy;
  policy.threshold_percent = reader.number("threshold_percent");
  policy.threshold_absolute = reader.number("threshold_absolute");
  if (reader.has("gated")) policy.gated = reader.boolean("gated");
  return policy;
}

void read_flat_metrics(JsonObjectReader& reader, NormalizedRecord& record) {
  for (const auto& [key, value] : reader.json().items()) {
    const auto metric = legacy_metric(key);
    if (!metric) continue;
    // A null metric was not measured: skipped, as every gate skips it.
    const auto measured = reader.optional_number(key);
    if (measured) record.metrics[key] = MetricValue{*measured, metric->unit, metric->direction};
  }
}

// Raw records also start at result_schema_version 1; say what to do with one.
void reject_raw_record(const JsonObjectReader& reader) {
  if (reader.has("perfgate_version") && reader.has("runs")) {
    reader.fail("(top level)",
                "this is a raw record written by perfgate run, not a normalised record",
                "Pass it to perfgate compare, which normalises it");
  }
}

}  // namespace

NormalizedRecord read_legacy_record(JsonObjectReader& reader, int version) {
  reject_raw_record(reader);
  const std::string& source = reader.source();
  NormalizedRecord r;
  r.result_schema_version = kNormalizedRecordSchemaVersion;
  if (reader.has("model_id")) {
    r.benchmark_id = reader.string("model_id");
  } else if (reader.has("benchmark_id")) {
    r.benchmark_id = reader.string("benchmark_id");
  } else {
    reader.fail(reader.path_of("model_id"), "missing",
                "Add model_id, the name of the benchmark the record measured");
  }
  r.device =
      reader.has("gpu_type") ? text_or_empty(reader, "gpu_type") : text_or_empty(reader, "device");
  r.workload_id = reader.optional_string("workload_id");
  r.variant_id = reader.optional_string("variant_id");
  r.benchmark_version = reader.optional_integer("benchmark_version");
  const bool has_identity = r.workload_id || r.variant_id || r.benchmark_version;
  if (reader.has("config_schema_version")) {
    r.config_schema_version = static_cast<int>(reader.integer("config_schema_version"));
  } else {
    r.config_schema_version = version == 2 && has_identity ? 2 : 1;
  }
  r.timestamp = reader.string("timestamp");
  r.commit_sha = reader.optional_string("commit_sha");
  r.branch = reader.optional_string("branch");
  r.pr_number = ci_text(reader, "pr_number");
  r.build_url = reader.optional_string("build_url");
  r.build_id = ci_text(reader, "build_id");
  r.job_id = ci_text(reader, "job_id");
  read_flat_metrics(reader, r);
  if (const Json* thresholds = reader.optional_object("regression_thresholds")) {
    for (const auto& [name, value] : thresholds->items()) {
      r.regression_thresholds[name] =
          read_legacy_policy(value, source, reader.path_of("regression_thresholds." + name));
    }
  }
  r.recipe_fingerprint = text_or_empty(reader, "recipe_fingerprint");
  r.hardware_profile_id = text_or_empty(reader, "hardware_profile_id");
  r.software_profile_id = text_or_empty(reader, "software_profile_id");
  r.environment_fingerprint = text_or_empty(reader, "environment_fingerprint");
  if (const Json* quality = reader.optional_object("quality_metadata"))
    r.quality_metadata = *quality;
  r.baseline_status = text_or_empty(reader, "baseline_status");
  r.comparison_status = text_or_empty(reader, "comparison_status");
  r.comparison_status_reason = text_or_empty(reader, "comparison_status_reason");

  const auto run_source = reader.optional_string("run_source");
  const auto eligible = reader.optional_boolean("baseline_eligible");
  r.success = reader.optional_boolean("success").value_or(true);
  if (!run_source && !eligible) {
    // The seed's rule: records from before run sources existed were uploaded only by
    // successful main/full-suite runs, so they stay in rolling baselines.
    r.run_source = "scheduled_main";
    r.baseline_eligible = true;
  } else {
    r.run_source = run_source.value_or("unknown");
    r.baseline_eligible = eligible.value_or(false);
  }
  r.legacy_fields = reader.unread_members();
  return r;
}

}  // namespace perfgate
