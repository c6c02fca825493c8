#pragma once
// The search of `perfgate bisect` (docs/bisect.md): along a first-parent path of commits,
// index 0 the good one and the last the bad one, which commit changed the metric. Pure: it
// asks a CommitSampler for one run of a commit at a time and decides with the anytime-valid
// confidence sequence of `ab --method stat` (stats/confidence_sequence.hpp), so a step looks
// after every round and stops as soon as its interval decides, and never decides on noise
// alone with more than alpha's chance.
//
//  1. The endpoints are compared, a round at a time in alternating order: the change of the
//     bad over the good with its interval. Within the threshold both ways: no change (the
//     search stops); an estimate beyond the threshold whose interval lies beyond half of it:
//     the search starts; neither after max_rounds: undecided.
//  2. Each step runs the lower end, the middle commit and the upper end once a round, in an
//     order shuffled per round, and asks whether the middle's level is like the lower end's
//     or the upper end's: x = log(mid) - (log(lo) + log(hi)) / 2 has the sign of the nearer
//     end. The half of the range that holds the change is searched next.
//  3. A middle that is neither (a change spread over several commits, or a level halfway) is
//     compared with both ends, and each half that holds a change is searched on its own: the
//     answer is then every commit found, a range.
//  4. A commit that cannot be measured (it does not build, its suite fails) is skipped, and
//     the nearest commit to the middle is taken instead, like `git bisect skip`.
//  5. Each commit found is compared with the last commit like the good one: its own change
//     with its interval.
// Counts of a deterministic program (each commit's within 0.1%) need one run of a middle
// commit: its position between the ends is read off exactly.
#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace perfgate::bisect {

/// One run of a commit at a time, for the search.
class CommitSampler {
 public:
  virtual ~CommitSampler() = default;
  /// One run of the commit at `index` of the path: its value of the metric (> 0), or nullopt
  /// when it cannot be measured (it does not build, its suite or case fails); the search then
  /// skips it. Throws SearchInterrupted when perfgate was interrupted.
  virtual std::optional<double> sample(std::size_t index) = 0;
};

/// Thrown by a sampler when perfgate was interrupted: the search ends without an answer.
struct SearchInterrupted {};

struct SearchRules {
  double threshold = 0.02;        ///< the smallest relative change worth finding
  double alpha = 0.01;            ///< each step's chance of a wrong decision
  std::size_t max_rounds = 1000;  ///< rounds a step may take before it is undecided
  bool counts = false;            ///< the values are instruction counts
};

/// A relative change (0.05 for +5%) and its interval.
struct Change {
  double estimate = 0;
  double lower = 0;
  double upper = 0;
  bool bounded = false;  ///< false while the interval is still unbounded
};

enum class StepKind {
  kCompare,  ///< two commits: is there a change beyond the threshold?
  kLocate,   ///< a middle commit: like the lower end or like the upper end?
};

enum class StepOutcome {
  kChange,     ///< compare: a change beyond the threshold
  kNoChange,   ///< compare: within the threshold both ways
  kLikeLower,  ///< locate: the middle is like the lower end (good)
  kLikeUpper,  ///< locate: the middle is like the upper end (bad)
  kBetween,    ///< locate: the middle is like neither end
  kUndecided,  ///< max_rounds ran and the interval still holds the threshold
  kSkipped,    ///< a commit of the step could not be measured
};

struct SearchStep {
  StepKind kind = StepKind::kCompare;
  std::size_t lower = 0;   ///< the step's lower end (index)
  std::size_t middle = 0;  ///< locate: the middle commit; compare: the upper end too
  std::size_t upper = 0;
  StepOutcome outcome = StepOutcome::kUndecided;
  /// compare: the upper end over the lower; locate: the middle over the ends' midpoint.
  Change change;
  std::size_t rounds = 0;
};

/// A commit the search found.
struct FoundCommit {
  std::size_t first_changed = 0;   ///< the first commit like the bad end
  std::size_t last_unchanged = 0;  ///< the last commit before it like the good end
  /// Commits between them that could not be measured: the change may be in any of them.
  std::vector<std::size_t> skipped_between;
  /// first_changed over last_unchanged, compared on their own (step 5).
  Change change;
  /// That comparison found a change beyond the threshold; false: the change is spread and no
  /// single commit holds it, or it could not decide.
  bool confirmed = false;
  /// The search could not narrow last_unchanged..first_changed down any further: neither
  /// half of a middle commit that was like neither end showed a change.
  bool unresolved = false;
};

enum class Answer {
  kCommit,     ///< one commit, confirmed, with no skipped commit before it
  kRange,      ///< several commits, or one with skipped commits before it, or unconfirmed
  kNoChange,   ///< the endpoints do not differ beyond the threshold
  kUndecided,  ///< the endpoints could not be compared or told apart in max_rounds
};

struct SearchResult {
  Answer answer = Answer::kUndecided;
  Change total;  ///< the bad end over the good end (step 1)
  std::vector<FoundCommit> found;
  std::vector<SearchStep> steps;
  std::set<std::size_t> skipped;   ///< commits that could not be measured
  std::set<std::size_t> measured;  ///< every commit sampled, the endpoints too
  std::size_t runs = 0;            ///< samples taken
};

/// Searches the path of `length` commits (at least 2). `on_step` hears each step as it ends.
/// Throws SearchInterrupted from the sampler.
SearchResult search(std::size_t length, CommitSampler& sampler, const SearchRules& rules,
                    const std::function<void(const SearchStep&)>& on_step = {});

}  // namespace perfgate::bisect
