#include "store/cohort_history.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace perfgate {
namespace {

// The newest `size` usable records. Records of the batch itself and records
// with no metric are skipped, so more are fetched until enough remain or the cohort ends.
// The first fetch allows for the batch's own records of this cohort (`in_cohort`), not for
// the whole batch: a batch of 1,000 cohorts would otherwise read 1,005 records of each.
std::vector<NormalizedRecord> rolling_baseline(Store& store, const CohortKey& cohort,
                                               const std::set<std::string>& batch_digests,
                                               std::size_t in_cohort, std::size_t size) {
  std::size_t fetch = size + in_cohort;
  while (true) {
    const std::vector<StoredRecord> stored = store.baseline_records(cohort, fetch);
    std::vector<NormalizedRecord> baseline;
    for (const StoredRecord& candidate : stored) {
      const NormalizedRecord& record = candidate.record;
      if (record.metrics.empty()) continue;
      if (!record.raw_record_sha256.empty() && batch_digests.contains(record.raw_record_sha256))
        continue;
      baseline.push_back(record);
      if (baseline.size() == size) return baseline;
    }
    if (stored.size() < fetch) return baseline;
    fetch *= 2;
  }
}

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

CohortHistories fetch_cohort_histories(Store& store, const std::vector<NormalizedRecord>& batch,
                                       const std::vector<std::string>& trusted_run_sources,
                                       std::size_t history_size) {
  std::set<std::string> digests;
  std::map<CohortKey, std::size_t> per_cohort;
  for (const auto& record : batch) {
    if (!record.raw_record_sha256.empty()) digests.insert(record.raw_record_sha256);
    if (const auto cohort = record.cohort()) ++per_cohort[*cohort];
  }
  CohortHistories histories;
  for (const auto& record : batch) {
    const auto cohort = record.cohort();
    if (!cohort || histories.contains(*cohort)) continue;
    CohortHistory history;
    if (history_size > kRollingBaselineSize) {
      history.history =
          rolling_baseline(store, *cohort, digests, per_cohort[*cohort], history_size);
      history.baseline.assign(
          history.history.begin(),
          history.history.begin() +
              static_cast<std::ptrdiff_t>(std::min(history.history.size(), kRollingBaselineSize)));
    } else {
      history.baseline =
          rolling_baseline(store, *cohort, digests, per_cohort[*cohort], kRollingBaselineSize);
    }
    // Only a cohort with no baseline can be a RECIPE_MISMATCH: skip the wider query else.
    if (history.baseline.empty())
      history.other_trusted_recipes = other_trusted_recipes(store, record, trusted_run_sources);
    histories.emplace(*cohort, std::move(history));
  }
  return histories;
}

}  // namespace perfgate
