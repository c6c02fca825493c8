#include "model/visible_text.hpp"

#include <fmt/format.h>

namespace perfgate {

std::string visible_text(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool control = byte < 0x20 || byte == 0x7f;
    if (!control || (keep_line_breaks && (c == '\n' || c == '\t'))) {
      out += c;
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  return out;
}

}  // namespace perfgate
