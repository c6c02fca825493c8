#pragma once
// What `perfgate bisect` says at the end (docs/bisect.md): the answer, the commit or commits
// found with their change and its interval, the steps, the skipped commits and the time
// spent, as Markdown (for a person or a pull request) and as JSON (--json).
#include <map>
#include <string>
#include <vector>

#include "bisect/bisect_search.hpp"
#include "history/git_repository.hpp"
#include "model/json.hpp"

namespace perfgate::bisect {

struct BisectFacts {
  std::vector<history::CommitInfo> path;  ///< first-parent path, the good commit first
  std::string case_name;
  std::string metric;  ///< latency, cpu_time, memory or instructions
  double threshold = 0;
  std::string commit_url;                       ///< [history] commit_url, "" for none
  std::map<std::size_t, std::string> failures;  ///< why each skipped commit was skipped
  /// The branch a merge commit brought in, by the merge's index: its second parent's summary.
  std::map<std::size_t, std::string> merged;
  double seconds = 0;            ///< time the bisection took, this invocation
  std::size_t replayed = 0;      ///< runs taken from the log of an earlier invocation (--resume)
  std::size_t from_archive = 0;  ///< runs taken from the [history] archive's attempts
  std::vector<std::string> archive_attempts;  ///< the attempts those runs may come from
  std::size_t built = 0;                      ///< commits built by this invocation
};

/// The exit status: 0 a commit or range found, 1 no change, 2 undecided.
int exit_status(const SearchResult& result);

/// A relative change as "+5.1%" (two decimals below 1%).
std::string percent(double change);

/// One line per step, as the terminal prints it while the search runs.
std::string step_line(const SearchStep& step, const BisectFacts& facts);

std::string markdown_report(const SearchResult& result, const BisectFacts& facts);
Json json_report(const SearchResult& result, const BisectFacts& facts);

}  // namespace perfgate::bisect
