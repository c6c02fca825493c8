#include "report/markdown.hpp"

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
    if (kEscaped.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace perfgate
