#pragma once
// store.json (docs/store-json.md): a store's records for the dashboard viewer, grouped by
// cohort and laid out as columns, so that 100,000 records are a few arrays per cohort
// rather than 100,000 objects for a browser to parse.
#include <cstddef>
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

/// The kind of a cohort's details document (docs/store-json.md, "Details apart").
inline constexpr const char* kCohortDetailsKind = "perfgate-store-cohort-details";

/// A site's store view of more records than this is written with each cohort's details
/// apart: the page then loads what its first screen shows, and a cohort's details when it
/// is opened (docs/viewer.md, "Large sites").
inline constexpr std::size_t kDetailsApartRecords = 10000;

/// A store view with each cohort's details apart: `document` is write_store_view's but each
/// cohort has "details" ({"commit", "file", "record", "rows"}) in place of its detail
/// columns (attempt, baseline_status, benchmark, branch, commit, eligible, record) and its
/// metrics' spread; `details[i]` is the details document of the cohort whose "file" is i + 1.
struct StoreViewApart {
  std::string document;
  std::vector<std::string> details;
};

StoreViewApart write_store_view_apart(const std::vector<StoredRecord>& records,
                                      const StoreViewContext& context);

/// The cohorts alone, for `serve`'s /api/v1/cohorts: per cohort its id, label, kind,
/// record_count, first and last timestamps, benchmarks and the metrics that have values,
/// with the same top-level fields as write_store_view (kind "perfgate-store-cohorts"). Same order
/// as write_store_view.
std::string write_store_cohort_index(const std::vector<StoredRecord>& records,
                                     const StoreViewContext& context);

}  // namespace perfgate
