#include "report/markdown.hpp"
#include "model/visible_text.hpp"

#include <algorithm>
#include <string_view>

namespace perfgate {

std::string markdown_cell(const std::string& text) {
  constexpr std::string_view kEscaped = "|\\*_`<>[]";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    // Other control characters are shown, not sent: an ESC in a benchmark name would
    // otherwise reach the terminal of whoever reads the file.
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += visible_text(std::string_view(&c, 1));
      continue;
    }
    if (kEscaped.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::size_t longest_backtick_run(const std::string& text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

std::string markdown_code_span(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  const std::string fence(longest_backtick_run(text) + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  const std::string space = pad ? " " : "";
  return fence + space + text + space + fence;
}

}  // namespace perfgate
