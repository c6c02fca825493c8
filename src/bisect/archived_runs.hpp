#pragma once
// Runs of a bisection's commits that the [history] archive already holds (docs/bisect.md):
// a commit measured once is never measured again for the same question. An attempt counts
// when it is of the same series as the bisection's own runs would be (series_identity.hpp):
// a success, on this machine (its environment id), in the setup perfgate.toml gives now, with
// the case and the metric, whose raw record with its per-run samples was published beside
// it. Its runs are served before any run measured now; they were taken at another moment,
// which `--fresh` leaves out.
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace perfgate::history {
class ArchiveSnapshot;
}

namespace perfgate::bisect {

/// What an archived attempt must match.
struct ArchiveMatch {
  std::string environment;  ///< this machine's environment id
  std::string setup;        ///< setup_id of perfgate.toml's [history] as it is now
  std::string case_name;
  std::string metric;
};

struct ArchivedRuns {
  /// The runs of each commit of the path (by index), oldest attempt first.
  std::map<std::size_t, std::deque<double>> runs;
  /// The attempts whose runs count, "<sha>-<run>-<attempt>", in the order found.
  std::vector<std::string> attempts;
  /// Attempts of the path's commits in this series that could not count, and why (a damaged
  /// file, a raw record that was not published): said, not fatal.
  std::vector<std::string> notes;
  std::size_t total() const;
};

/// The runs `snapshot` (the archive at `url`) holds of the commits `shas` (the path, good
/// first) that match `match`.
ArchivedRuns archived_runs(const history::ArchiveSnapshot& snapshot, const std::string& url,
                           const std::vector<std::string>& shas, const ArchiveMatch& match);

}  // namespace perfgate::bisect
