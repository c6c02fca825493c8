#pragma once
// plan.json in the archive: the ledger of every commit ever monitored on the branch, the
// newest of them (`current`), and an index of the attempts published so far. It only
// grows: merging a plan never drops a commit, and `current` never moves back to an
// ancestor, however late a batch arrives (seed 003).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/json.hpp"

namespace perfgate::history {

struct HistoryAttempt;
class ArchiveSnapshot;

/// What the ledger remembers of one published attempt: enough to plan without reading it.
struct AttemptSummary {
  bool success = false;
  std::string started_at;
  /// The machine and the setup it was measured with (series_identity.hpp): a commit is
  /// measured per environment and setup. "" in a ledger written before they were recorded,
  /// until complete_ledger reads them from the attempt.
  std::string environment;
  std::string setup;
  bool operator==(const AttemptSummary&) const = default;
};

AttemptSummary summary_of(const HistoryAttempt& attempt);

/// A rewrite of the branch a person accepted (`history plan --accept-rewrite`): the tip the
/// ledger had, the tip that does not contain it, when and by whom.
struct AcceptedRewrite {
  std::string old_tip;
  std::string new_tip;
  std::string accepted_at;  ///< ISO 8601 UTC
  std::string by;           ///< $GITHUB_ACTOR, else $USER, else "unknown"
  bool operator==(const AcceptedRewrite&) const = default;
};

Json to_json(const AcceptedRewrite& rewrite);
/// Error(kDataError) "<source>: ..." for an entry that is not a rewrite.
AcceptedRewrite read_rewrite(const Json& json, const std::string& source, const std::string& key);

/// An extension of the monitored history further back (`history plan --backfill N`): the
/// oldest commit monitored before, the oldest after, how many commits were added, when
/// and by whom. The activation commit stays where it was recorded.
struct HistoryExtension {
  std::string from;
  std::string to;
  int commits = 0;
  std::string extended_at;
  std::string by;
  bool operator==(const HistoryExtension&) const = default;
};

Json to_json(const HistoryExtension& extension);
HistoryExtension read_extension(const Json& json, const std::string& source,
                                const std::string& key);

/// The rewrites and extensions a ledger or a plan file holds under "rewrites" and
/// "extensions" (each optional: absent in files older perfgate versions wrote).
void read_history_changes(const Json& json, const std::string& source,
                          std::vector<AcceptedRewrite>& rewrites,
                          std::vector<HistoryExtension>& extensions);
/// Writes them into `json`, each key only when it has entries.
void write_history_changes(Json& json, const std::vector<AcceptedRewrite>& rewrites,
                           const std::vector<HistoryExtension>& extensions);

struct Ledger {
  std::string branch;
  std::string baseline;                            ///< the activation commit
  std::string current;                             ///< the newest monitored commit
  std::vector<std::string> monitored;              ///< oldest first
  std::map<std::string, AttemptSummary> attempts;  ///< by identity "<sha>-<run>-<attempt>"
  std::vector<AcceptedRewrite> rewrites;           ///< oldest first; written when any
  std::vector<HistoryExtension> extensions;        ///< oldest first; written when any
  bool operator==(const Ledger&) const = default;
};

Json to_json(const Ledger& ledger);
/// Error(kDataError) "<source>: ..." when the text is not a ledger this perfgate reads.
Ledger read_ledger(const std::string& text, const std::string& source);

/// Whether the first commit is the second or one of its ancestors.
using AncestryCheck = std::function<bool(const std::string&, const std::string&)>;

/// The ledger after `observed` joins `previous`:
/// - monitored is the union, the previous order kept, each new commit placed after the
///   commit before it in `observed.monitored` (a fast-forward merge that put the old tip on
///   a second parent loses nothing);
/// - current moves forward to observed.current when the old current is its ancestor, and
///   stays when observed.current is an ancestor of it (a late batch);
/// - attempts is the union, and so are rewrites and extensions.
/// Error(kDataError) when the baselines differ, or when neither current contains the other:
/// the branch was rewritten, which a person must review (the message names both tips and
/// `history plan --accept-rewrite`) — unless `observed.rewrites` accepts it: an entry whose
/// old_tip is the previous current and whose new_tip is observed.current or its ancestor.
/// current then moves to observed.current; every commit monitored before stays.
Ledger merge_ledger(const std::optional<Ledger>& previous, Ledger observed,
                    const AncestryCheck& is_ancestor);

/// Fills the environment and setup of every attempt the ledger lists without them (a ledger
/// an older perfgate wrote) from the attempt's file in `snapshot`; an attempt whose file
/// cannot be read keeps "" (it then counts for no environment). Returns how many it filled.
std::size_t complete_ledger(Ledger& ledger, const ArchiveSnapshot& snapshot,
                            const std::string& archive_url);

enum class CommitState { kMissing, kMeasured, kFailed };

/// Each commit's state on one environment in one setup, from the attempts measured there:
/// the latest attempt by start time decides, a failure included, so an older success never
/// hides a newer failure. Attempts on other machines or in other setups do not count: a
/// second machine never hides the first one's data, and a configuration change is measured
/// again (issue 35).
std::map<std::string, CommitState> commit_states(const Ledger& ledger,
                                                 const std::string& environment,
                                                 const std::string& setup);

}  // namespace perfgate::history
