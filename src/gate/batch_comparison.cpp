#include "gate/batch_comparison.hpp"

#include <algorithm>
#include <set>

#include "gate/comparison_status.hpp"
#include "gate/normalize.hpp"
#include "gate/rolling_baseline.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

std::string unit_of(const Json& raw, const std::string& metric) {
  const Json& metrics = raw.value("metrics", Json::object());
  if (metrics.is_object() && metrics.contains(metric) && metrics[metric].is_object() &&
      metrics[metric].contains("unit") && metrics[metric]["unit"].is_string()) {
    return metrics[metric]["unit"].get<std::string>();
  }
  return "";
}

/// Recipes of trusted, successful records of the same workload/variant/version under a
/// recipe other than `recipe`, on any hardware or software profile.
std::vector<std::string> other_trusted_recipes(Store& store, const NormalizedRecord& record,
                                               const std::vector<std::string>& trusted) {
  RecordFilter filter;
  filter.workload_id = *record.workload_id;
  filter.variant_id = *record.variant_id;
  filter.benchmark_version = record.benchmark_version;
  std::set<std::string> recipes;
  for (const auto& stored : store.list_records(filter)) {
    const NormalizedRecord& other = stored.record;
    const bool trusted_source = std::find(trusted.begin(), trusted.end(), other.run_source) != trusted.end();
    if (other.success && (trusted_source || stored.eligible) && other.recipe_fingerprint != record.recipe_fingerprint) {
      recipes.insert(other.recipe_fingerprint);
    }
  }
  return {recipes.begin(), recipes.end()};
}

}  // namespace

std::string static_breach_detail(const Json& raw) {
  std::string detail;
  const Json checks = raw.contains("static_thresholds") && raw["static_thresholds"].is_object()
                          ? raw["static_thresholds"].value("checks", Json::array())
                          : Json::array();
  for (const auto& check : checks) {
    if (!check.is_object() || !check.value("breached", false)) continue;
    const std::string metric = check.value("metric", std::string("?"));
    const std::string unit = unit_of(raw, metric);
    const bool minimum = check.value("kind", std::string("max")) == "min";
    if (!detail.empty()) detail += ", ";
    detail += metric + " " + check.value("statistic", std::string("mean")) + " " +
              format_quantity(check.value("value", 0.0), unit) + (minimum ? " < " : " > ") +
              format_quantity(check.value("limit", 0.0), unit);
  }
  return detail;
}

std::vector<NormalizedRecord> compare_batch(const std::vector<RawInput>& inputs, Store& store,
                                            const BatchOptions& options) {
  std::vector<NormalizedRecord> records;
  bool batch_breach = false;
  for (const auto& input : inputs) {
    records.push_back(normalize_raw_record(input.raw, input.path, input.sha256, options.project_policies));
    if (options.run_source) records.back().run_source = *options.run_source;
    batch_breach = batch_breach || raw_record_breached_static_threshold(input.raw);
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    NormalizedRecord& record = records[i];
    const Json& raw = inputs[i].raw;
    ClassificationInputs in;
    in.run_succeeded = raw.value("success", false);
    in.run_failure = raw.contains("failure_reason") && raw["failure_reason"].is_string()
                         ? raw["failure_reason"].get<std::string>()
                         : "";
    in.static_breach = raw_record_breached_static_threshold(raw);
    in.static_breach_detail = static_breach_detail(raw);
    in.run_rc = options.run_rc;
    in.batch_has_static_breach = batch_breach;
    in.trusted_run_sources = options.trusted_run_sources;
    if (const auto cohort = record.cohort()) {
      for (auto& stored : store.baseline_records(*cohort, kRollingBaselineSize)) in.baseline.push_back(stored.record);
      if (in.baseline.empty()) in.other_trusted_recipes = other_trusted_recipes(store, record, options.trusted_run_sources);
    }
    classify(record, in);
  }
  return records;
}

}  // namespace perfgate
