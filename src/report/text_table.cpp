#include "report/text_table.hpp"

#include <algorithm>

namespace perfgate {
namespace {

/// Decodes the UTF-8 code point starting at `i` and advances `i` past it; bytes that are
/// not valid UTF-8 count as one code point each.
char32_t next_code_point(const std::string& text, std::size_t& i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  int length = 1;
  char32_t value = byte;
  if (byte >= 0xF0) {
    length = 4;
    value = byte & 0x07;
  } else if (byte >= 0xE0) {
    length = 3;
    value = byte & 0x0F;
  } else if (byte >= 0xC0) {
    length = 2;
    value = byte & 0x1F;
  }
  if (i + static_cast<std::size_t>(length) > text.size()) length = 1;
  for (int k = 1; k < length; ++k) {
    value =
        (value << 6) | (static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]) & 0x3F);
  }
  i += static_cast<std::size_t>(length);
  return length == 1 ? byte : value;
}

bool is_wide(char32_t code) {
  return (code >= 0x1F300 && code <= 0x1FAFF) || (code >= 0x2600 && code <= 0x27BF) ||
         (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
         (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
         (code >= 0xFF00 && code <= 0xFF60);
}

std::string pad(const std::string& cell, std::size_t width, CellAlign align) {
  const std::size_t used = terminal_width(cell);
  const std::size_t space = width > used ? width - used : 0;
  switch (align) {
    case CellAlign::kLeft:
      return cell + std::string(space, ' ');
    case CellAlign::kRight:
      return std::string(space, ' ') + cell;
    case CellAlign::kCenter: {
      const std::size_t left = space / 2;
      return std::string(left, ' ') + cell + std::string(space - left, ' ');
    }
  }
  return cell;
}

std::string rule(std::size_t width, CellAlign align) {
  const std::size_t dashes = std::max<std::size_t>(width, 3);
  switch (align) {
    case CellAlign::kLeft:
      return ":" + std::string(dashes - 1, '-');
    case CellAlign::kRight:
      return std::string(dashes - 1, '-') + ":";
    case CellAlign::kCenter:
      return ":" + std::string(dashes - 2, '-') + ":";
  }
  return std::string(dashes, '-');
}

}  // namespace

std::size_t terminal_width(const std::string& text) {
  std::size_t width = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= '@' && text[i] <= '~')) ++i;
      ++i;
      continue;
    }
    const char32_t code = next_code_point(text, i);
    if (code == 0xFE0F || code == 0x200D) continue;  // emoji variation selector, joiner
    width += is_wide(code) ? 2 : 1;
  }
  return width;
}

std::string render_text_table(const TextTable& table) {
  const std::size_t columns = table.headers.size();
  std::vector<std::size_t> width(columns, 3);
  for (std::size_t c = 0; c < columns; ++c) {
    width[c] = std::max(width[c], terminal_width(table.headers[c]));
    for (const auto& row : table.rows) {
      if (c < row.size()) width[c] = std::max(width[c], terminal_width(row[c]));
    }
  }
  auto align_of = [&](std::size_t c) {
    return c < table.align.size() ? table.align[c] : CellAlign::kLeft;
  };
  std::string out = "|";
  for (std::size_t c = 0; c < columns; ++c) {
    out += " " + pad(table.headers[c], width[c], align_of(c)) + " |";
  }
  out += "\n|";
  for (std::size_t c = 0; c < columns; ++c) out += rule(width[c] + 2, align_of(c)) + "|";
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (std::size_t c = 0; c < columns; ++c) {
      out += " " + pad(c < row.size() ? row[c] : "", width[c], align_of(c)) + " |";
    }
    out += "\n";
  }
  return out;
}

}  // namespace perfgate
