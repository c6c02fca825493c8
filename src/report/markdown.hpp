#pragma once
#include <string>

namespace perfgate {

/// Text made safe for one Markdown table cell: table pipes, backslashes and markup
/// characters are escaped and line breaks become spaces, so a benchmark name or a reason
/// can neither break the table nor inject links or HTML.
std::string markdown_cell(const std::string& text);

}  // namespace perfgate
