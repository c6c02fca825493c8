#pragma once
// What `compare` and `import` do once compare_batch has judged their records: store the
// ones the upload policy selects as one attempt, print them, and turn their statuses into
// the exit status. One place, so both commands store and fail alike.
#include <map>
#include <string>
#include <vector>

#include "gate/upload_policy.hpp"
#include "model/cohort_history.hpp"
#include "model/normalized_record.hpp"
#include "store/store.hpp"

namespace perfgate {

struct UploadChoice {
  UploadPolicy policy = UploadPolicy::kNever;
  std::string text = "never";  ///< as given, for messages
};

/// --upload when given (already checked by the flag parser), else
/// $PERFGATE_UPLOAD_POLICY, else the seed's $PERF_UPLOAD_POLICY, else `fallback` (compare:
/// never; import: always). Error(kUsage) naming the variable for a bad value.
UploadChoice resolve_upload_policy(const std::string& flag, const std::string& fallback);

/// Gives every record its record_id, then appends the records the policy selects as one
/// attempt created at `created_at`, except records whose measurement is already stored
/// (the same raw_record_sha256, or for records without one the same record_id): the same
/// measurement is stored once, whatever verdict a later run gave it, so re-uploading is a
/// no-op and a CI retry succeeds. `storable[i]` false leaves records[i] out (a raw record
/// that could not be read). Returns the lines that say what happened ("stored 3 record(s)
/// in sqlite:... (attempt 0123456789ab)", "already stored: 2 record(s) ...", "nothing
/// stored (upload policy never)"). Store errors propagate.
std::string store_judged_records(Store& store, std::vector<NormalizedRecord>& records,
                                 const std::vector<bool>& storable, const UploadChoice& upload,
                                 const std::string& created_at);

/// Says on stderr, per metric, how many records are smaller than their policy's
/// threshold_absolute: such a metric regresses only when it gets worse by more than that
/// floor, so a 50 ms program's latency may double and pass. Every judging command says it
/// (compare, import).
void note_thresholds_above_values(const std::vector<NormalizedRecord>& records);

/// The key that says two records are one measurement: raw_record_sha256, else record_id.
std::string measurement_key(const NormalizedRecord& record);

/// The records as the comparison table (coloured on a terminal), or as a JSON array of
/// normalised records, on standard output. `baseline_units` from baseline_metric_units.
void print_judged_records(const std::vector<NormalizedRecord>& records, bool json,
                          const std::map<std::string, std::string>& baseline_units = {});

/// The unit of every metric of the baseline records the batch was judged against: a metric
/// a new record did not measure is still shown in its unit.
std::map<std::string, std::string> baseline_metric_units(const CohortHistories& histories);

/// 1 when any record is INFRA_ERROR, REGRESSION or RECIPE_MISMATCH, else 2 when any is
/// INCONCLUSIVE, else 0 (SPEC §3).
int judged_exit_status(const std::vector<NormalizedRecord>& records);

}  // namespace perfgate
