#pragma once
// store.json (docs/store-json.md): a store's records for the dashboard viewer, grouped by
// cohort and laid out as columns, so that 100,000 records are a few arrays per cohort
// rather than 100,000 objects for a browser to parse.
#include <string>
#include <vector>

#include "store/store.hpp"

namespace perfgate {

struct StoreViewContext {
  std::string store_url;
  std::string generated_at;
  std::string benchmark_glob;  ///< "" when no --benchmark filter selected the records
  std::string since;           ///< "" when no --since filter selected the records
  /// A commit's page with "{sha}" for its SHA (report_commit_url); "" for none (null).
  std::string commit_url;
  /// write_store_view: the id of the one cohort to write ("" for all), labelled as it is
  /// among all the records' cohorts (serve's /api/v1/series).
  std::string cohort;
};

/// The id a cohort has in store.json: CohortKey::to_string() for a complete v2 identity,
/// "legacy-v1/<benchmark_id>/<device>" or "invalid-v2/<benchmark_id>" otherwise.
std::string store_view_cohort_id(const NormalizedRecord& record);

/// The document, compact, ending in a newline. `records` in any order (a store lists them
/// newest first); each cohort's columns are oldest first. With `context.cohort`, only that
/// cohort and its unplaced records are written.
std::string write_store_view(const std::vector<StoredRecord>& records,
                             const StoreViewContext& context);

/// The cohorts alone, for `serve`'s /api/v1/cohorts: per cohort its id, label, kind,
/// record_count, first and last timestamps, benchmarks and the metrics that have values,
/// with the same top-level fields as write_store_view (kind "perfgate-store-cohorts"). Same order
/// as write_store_view.
std::string write_store_cohort_index(const std::vector<StoredRecord>& records,
                                     const StoreViewContext& context);

}  // namespace perfgate
