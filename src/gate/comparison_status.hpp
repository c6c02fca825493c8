#pragma once
// The status of a normalised record and its reason, in precedence order (SPEC §6):
// INFRA_ERROR > REGRESSION > INCONCLUSIVE > RECIPE_MISMATCH > CALIBRATION_NEEDED > PASS.
// Pure.
#include <optional>
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// What the classifier needs to know beyond the record itself.
struct ClassificationInputs {
  /// The raw record's own outcome: false when a run or hook failed.
  bool run_succeeded = true;
  std::string run_failure;  ///< the raw record's failure_reason
  /// Why the raw record could not be read ("" when it could): the record is INFRA_ERROR.
  std::string malformed;
  /// The raw record breached a static threshold.
  bool static_breach = false;
  std::string static_breach_detail;  ///< e.g. "latency mean 2.1 s > 2 s"
  /// Exit status of the test runner (--run-rc), when given. Non-zero with no static
  /// breach anywhere in the batch makes every record INFRA_ERROR.
  std::optional<int> run_rc;
  bool batch_has_static_breach = false;
  /// The last (up to 5) eligible records of the record's exact cohort, newest first.
  std::vector<NormalizedRecord> baseline;
  /// The last (up to 20) of them, for --method stat's spread between records; may be empty.
  std::vector<NormalizedRecord> history;
  /// Recipe fingerprints of trusted successful records (trusted source or eligible) of
  /// the same workload, variant and version, under any other recipe, on any profile.
  std::vector<std::string> other_trusted_recipes;
  /// Run sources whose successful records are baseline-eligible.
  std::vector<std::string> trusted_run_sources = {"scheduled_main"};
  /// How the metrics are compared with the baseline (rolling_baseline.hpp).
  CompareMethod method = CompareMethod::kSeed;
};

/// Fills baseline_status, comparison_status, comparison_status_reason, comparisons,
/// baseline_eligible and success of `record`.
/// A malformed raw record, and a record with no measured metric (every metric missing or
/// null: nothing was measured, so nothing could regress), are INFRA_ERROR; neither is
/// successful, so neither ever takes a baseline slot.
/// - success: the run succeeded, no static breach, not INFRA_ERROR.
/// - baseline_eligible: success, PASS against a compared baseline, and a trusted run
///   source. CALIBRATION_NEEDED and INCONCLUSIVE records become eligible only through an
///   approval.
/// INCONCLUSIVE (--method stat): no gated metric regressed, and the interval of at least
/// one gated metric straddles its threshold; or every regressed metric is a time or a rate
/// and the record was measured on a machine busier than its baseline's
/// (gate/machine_load.hpp): those metrics are then marked inconclusive, not regressed. So
/// are they when every part of the record's runs met a busy machine and the load alone
/// could explain the whole change.
void classify(NormalizedRecord& record, const ClassificationInputs& inputs);

}  // namespace perfgate
