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

/// What the ledger remembers of one published attempt: enough to plan without reading it.
struct AttemptSummary {
  bool success = false;
  std::string started_at;
  bool operator==(const AttemptSummary&) const = default;
};

struct Ledger {
  std::string branch;
  std::string baseline;                            ///< the activation commit
  std::string current;                             ///< the newest monitored commit
  std::vector<std::string> monitored;              ///< oldest first
  std::map<std::string, AttemptSummary> attempts;  ///< by identity "<sha>-<run>-<attempt>"
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
/// - attempts is the union.
/// Error(kDataError) when the baselines differ, or when neither current contains the other:
/// the branch was rewritten, which a person must review (the message names both tips).
Ledger merge_ledger(const std::optional<Ledger>& previous, Ledger observed,
                    const AncestryCheck& is_ancestor);

enum class CommitState { kMissing, kMeasured, kFailed };

/// Each commit's state from the attempts: the latest attempt by start time decides, a
/// failure included, so an older success never hides a newer failure.
std::map<std::string, CommitState> commit_states(const Ledger& ledger);

}  // namespace perfgate::history
