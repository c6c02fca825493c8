#include "gate/batch_comparison.hpp"

#include <algorithm>
#include <set>

#include "gate/comparison_status.hpp"
#include "gate/normalize.hpp"
#include "gate/rolling_baseline.hpp"
#include "ingest/seed_raw_record.hpp"

namespace perfgate {
namespace {

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
    const bool trusted_source =
        std::find(trusted.begin(), trusted.end(), other.run_source) != trusted.end();
    if (other.success && (trusted_source || stored.eligible) &&
        other.recipe_fingerprint != record.recipe_fingerprint) {
      recipes.insert(other.recipe_fingerprint);
    }
  }
  return {recipes.begin(), recipes.end()};
}

}  // namespace

std::vector<NormalizedRecord> compare_batch(const std::vector<RawInput>& inputs, Store& store,
                                            const BatchOptions& options) {
  std::vector<NormalizedRecord> records;
  bool batch_breach = false;
  std::vector<Json> raws;
  for (const auto& input : inputs) {
    raws.push_back(is_seed_raw_record(input.raw) ? convert_seed_raw_record(input.raw, input.path)
                                                 : input.raw);
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const RawInput& input = inputs[i];
    const Json& raw = raws[i];
    records.push_back(
        normalize_raw_record(raw, input.path, input.sha256, options.project_policies));
    if (options.run_source) records.back().run_source = *options.run_source;
    batch_breach = batch_breach || raw_record_breached_static_threshold(raw);
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    NormalizedRecord& record = records[i];
    const Json& raw = raws[i];
    ClassificationInputs in = raw_record_outcome(raw);
    in.run_rc = options.run_rc;
    in.batch_has_static_breach = batch_breach;
    in.trusted_run_sources = options.trusted_run_sources;
    if (const auto cohort = record.cohort()) {
      for (auto& stored : store.baseline_records(*cohort, kRollingBaselineSize))
        in.baseline.push_back(stored.record);
      if (in.baseline.empty())
        in.other_trusted_recipes =
            other_trusted_recipes(store, record, options.trusted_run_sources);
    }
    classify(record, in);
  }
  return records;
}

}  // namespace perfgate
