#pragma once
#include <cstddef>
#include <string>

namespace perfgate {

/// Where a report's short top (verdict, regressions, each change with its interval) ends and
/// its full tables begin: `perfgate comment` shows the top and folds the rest. An HTML
/// comment, so every Markdown renderer hides it.
inline constexpr const char* kReportDetailsMarker = "<!-- perfgate: details -->";

/// Text made safe for one Markdown table cell: table pipes, backslashes and markup
/// characters are escaped and line breaks become spaces, so a benchmark name or a reason
/// can neither break the table nor inject links or HTML.
std::string markdown_cell(const std::string& text);

/// The length of the longest run of backticks in `text`: a fence around it must be longer.
std::size_t longest_backtick_run(const std::string& text);

/// A code span that shows any text as written (CommonMark): its fence is one backtick longer
/// than the longest run inside, it is padded with a space when the text starts or ends with
/// a backtick, and a line break, which a span cannot hold, becomes a space.
std::string markdown_code_span(std::string text);

}  // namespace perfgate
