#pragma once
// Which monitored commits to measure in this run (seed 003): the target first when it has
// no measurement, then (--confirm-flags) each flag's two commits again, then the oldest
// missing ones, at most `max` in all; with what the budget leaves, the measured neighbours of
// the new commits again (bridges between two batches); every other missing
// commit stays listed. A commit whose latest attempt failed is measured again only when
// asked (--retry, or --commit naming it), so one commit that never builds cannot starve the
// rest of the backlog.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "history/ledger.hpp"
#include "model/json.hpp"

namespace perfgate::history {

struct PlanRequest {
  std::vector<std::string> monitored;  ///< oldest first; the target among them
  std::string target;
  std::map<std::string, CommitState> states;  ///< absent: missing
  bool retry = false;
  std::optional<std::string> commit;  ///< --commit: this one alone, whatever its state
  int max = 8;
  /// --confirm-flags: (previous, flagged) commits to measure again whatever their state,
  /// first, a whole pair at a time while the budget allows.
  std::vector<std::pair<std::string, std::string>> confirm;
  /// Whether the budget left after the new commits measures their neighbours again: on each
  /// side of a new commit, the nearest commit with a successful measurement (failed ones
  /// skipped), which its flags compare it with (not with --no-bridge, --commit, --backfill).
  bool bridge = false;
  /// --backfill: the commits the plan extended the history back by, newest first: chosen
  /// first (within max), instead of the target and the oldest missing commits.
  std::vector<std::string> backfill;
};

struct CommitPlan {
  std::vector<std::string> selected;  ///< in the order they are to be measured
  /// Those of `selected` measured again to confirm a flag; written as "confirming".
  std::vector<std::string> confirming;
  /// Those of `selected` measured again beside a new commit next to them, so that its flags
  /// compare two measurements of one batch; written as "bridging".
  std::vector<std::string> bridging;
  std::vector<std::string> missing;   ///< without a measurement and not selected, oldest first
  std::vector<std::string> failed;    ///< latest attempt failed and not selected
  std::vector<std::string> measured;  ///< latest attempt succeeded and not selected
};

/// Error(kUsage) when `commit` is not among the monitored commits.
CommitPlan plan_commits(const PlanRequest& request);

/// The plan file `history measure` reads (docs/history.md).
struct PlanFile {
  std::string branch;
  std::string archive;
  std::string baseline;
  std::string target;
  std::string current;      ///< the ledger's current after this plan
  std::string harness_sha;  ///< the checkout that planned, whose perfgate.toml drives measure
  int harness_version = 1;
  /// The machine the plan is for (`--environment`, else the planning machine's hardware
  /// profile id) and the setup perfgate.toml gives (series_identity.hpp): the commits
  /// selected are those without a winning attempt there. measure takes the environment
  /// unless told another. "" in a plan an older perfgate wrote.
  std::string environment;
  std::string setup;
  /// A rewrite of the branch accepted by this plan (--accept-rewrite): publish records it in
  /// the ledger with the batch. Empty when none; written only when any.
  std::vector<AcceptedRewrite> rewrites;
  /// The extension of the history further back made by this plan (--backfill): publish
  /// records it in the ledger with the batch. Written only when any.
  std::vector<HistoryExtension> extensions;
  std::string created_at;
  bool retry = false;
  std::vector<std::string> monitored;
  CommitPlan plan;
};

Json to_json(const PlanFile& plan);
/// The plan as the file holds it: exactly pretty_json(to_json(plan)), written directly, since
/// a long history's plan lists hundreds of thousands of SHAs and a tree of JSON nodes for
/// them cost a tenth of a plan's time.
std::string plan_file_text(const PlanFile& plan);
/// Error(kDataError) "<source>: ..." for a file that is not a plan.
PlanFile read_plan_file(const std::string& text, const std::string& source);

}  // namespace perfgate::history
