#pragma once
// The five steps of `perfgate history` (SPEC §9, docs/history.md), each a function the
// command line calls: plan which commits to measure, measure them into a batch, publish
// the batch into the archive, validate it, and export the archive for the viewer.
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "history/archive.hpp"
#include "history/commit_plan.hpp"
#include "history/history_export.hpp"
#include "history/history_setup.hpp"
#include "model/json.hpp"

namespace perfgate::history {

struct PlanOptions {
  bool retry = false;
  std::optional<std::string> commit;      ///< --commit
  std::optional<int> max;                 ///< --max; default [history] max_per_run
  std::optional<std::string> target;      ///< --target; default the branch's tip
  std::optional<std::string> activation;  ///< --activation, for an archive without one
  /// --confirm-flags: measure each flagged commit not yet re-measured, and the commit before
  /// it, again (a pair at a time, within --max), before any missing commit.
  bool confirm_flags = false;
  bool bridge = true;  ///< plan_commits' PlanRequest::bridge (not with --no-bridge)
  /// --environment: the machine the plan is for; "" for this machine's hardware profile id.
  std::string environment;
  /// --accept-rewrite: the branch's tip no longer contains the ledger's current commit, and
  /// a person reviewed it. The plan records the rewrite (publish writes it into the ledger)
  /// and monitors the new first-parent path; every attempt and every commit monitored so
  /// far stays.
  bool accept_rewrite = false;
  /// --backfill N: extend the monitored history N first-parent commits further back than
  /// its oldest commit, and select them, newest first (within --max). The ledger records
  /// the extension; the activation commit stays. 0: no extension.
  int backfill = 0;
};

/// Error(kDataError) when the branch was rewritten (its tip no longer contains the
/// ledger's current commit) or the activation commit would move; kNoInput when the branch
/// or a named commit does not exist.
PlanFile plan_history(const HistorySetup& setup, const PlanOptions& options);

struct MeasureOptions {
  std::filesystem::path plan_file;
  std::filesystem::path batch_dir;
  std::string environment_id;
  bool stable = false;
  std::string image;
  std::string run;  ///< "" for the CI's run id, else local-<UTC stamp>
  int attempt = 0;  ///< 0 for the CI's attempt number, else 1
};

/// Measures every selected commit of the plan into the batch folder (which must not exist
/// or be empty). Returns 0, or 130/143/129 when interrupted (the attempts finished so far
/// are kept and batch.json says it is incomplete). Failed commits are recorded, not
/// returned as errors: `validate` is the step that fails.
int measure_plan(const HistorySetup& setup, const MeasureOptions& options, std::ostream& progress);

/// Publishes a batch's valid attempts, their raw files and the merged ledger. Publishing
/// the same batch again changes nothing. Error(kDataError) when an attempt file is invalid
/// or conflicts with the archive, or (unless `accept_stale`) when the batch's plan is
/// stale: one of its commits has an attempt of another batch on the same machine in the
/// same setup that started after the plan was made (two batches of one plan measure the
/// same commits twice). Nothing is then published; the message lists the commits.
PublishOutcome publish_batch(const HistorySetup& setup, const std::filesystem::path& batch_dir,
                             bool accept_stale = false);

/// Publishes every attempt a fleet stored in the work queue of a PostgreSQL store
/// (docs/fleet.md) for this checkout's suite and the branch's monitored commits, with the
/// ledger as planning from this checkout sees it. Publishing the same attempts again changes
/// nothing. Error(kDataError) when a stored attempt is invalid (nothing is then published).
PublishOutcome publish_queue(const HistorySetup& setup, const std::string& store_url);

/// Publishes attempts measured outside a batch (`perfgate bisect --publish`, docs/bisect.md):
/// those of the branch's monitored commits as planning from this checkout sees them, with
/// their raw files under `folder`/raw/<identity>/, in one change. Attempts of commits the
/// branch does not monitor are left out (their number in `left_out`). Publishing the same
/// attempts again changes nothing.
PublishOutcome publish_measured(const HistorySetup& setup,
                                const std::vector<HistoryAttempt>& attempts,
                                const std::filesystem::path& folder, const std::string& message,
                                std::size_t& left_out);

struct BatchVerdict {
  bool target_measured = false;    ///< the target's latest attempt (batch or archive) succeeded
  std::vector<std::string> lines;  ///< one per attempt and per finding, for the terminal
};
/// Error(kDataError) for a batch whose files are invalid.
BatchVerdict validate_batch(const HistorySetup& setup, const std::filesystem::path& batch_dir);

/// Everything an export reads: the archive's ledger and attempts (each validated; the
/// invalid ones as rejected), the commits' times. Error(kNoInput) when the archive does not
/// exist.
ExportInput gather_export_input(const HistorySetup& setup, const std::string& perfgate_version);

/// history.json of the archive, handed to `deliver` (which writes it out). Error(kNoInput)
/// when the archive does not exist.
ExportSummary export_archive(const HistorySetup& setup, const std::string& perfgate_version,
                             const std::function<void(const std::string&)>& deliver);

}  // namespace perfgate::history
