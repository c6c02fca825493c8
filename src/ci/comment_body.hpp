#pragma once
// The text of perfgate's one comment on a pull or merge request: a hidden marker that finds
// it again, the report's short top (verdict, regressions, each change with its interval),
// the full tables folded in <details>, and a line saying when it was last updated.
#include <cstddef>
#include <string>

namespace perfgate {

/// GitHub refuses a comment over 65,536 characters; GitLab a note over 1,000,000.
inline constexpr std::size_t kGitHubCommentLimit = 65536;
inline constexpr std::size_t kGitLabCommentLimit = 1000000;

/// "<!-- perfgate-comment: KEY -->": the comment perfgate owns for KEY (one per suite or
/// job of a pull request). Error(kUsage) unless KEY is 1–64 of [A-Za-z0-9._-].
std::string comment_marker(const std::string& key);

/// The comment: `marker`, the report's part before its details marker
/// (report/markdown.hpp, kReportDetailsMarker) on top and the rest folded; a report
/// without one shows its first heading on top and folds the whole. `footer` ends it. At
/// most `limit` bytes: the folded part is cut at a line and says how much was left out.
std::string comment_body(const std::string& report, const std::string& marker,
                         const std::string& footer, std::size_t limit);

}  // namespace perfgate
