#pragma once
// A table in GitHub's pipe layout, padded so it also reads well on a terminal. Cells may
// hold ANSI colour sequences and emoji; widths count what a terminal shows.
#include <cstddef>
#include <string>
#include <vector>

namespace perfgate {

enum class CellAlign { kLeft, kRight, kCenter };

struct TextTable {
  std::vector<std::string> headers;
  std::vector<CellAlign> align;  ///< one per column
  std::vector<std::vector<std::string>> rows;
};

/// Columns a terminal uses to show `text`: ANSI escape sequences take none, emoji and
/// other wide symbols two, every other code point one.
std::size_t terminal_width(const std::string& text);

/// "| a | b |" lines: header, the alignment row (":---:" etc.), then the rows.
std::string render_text_table(const TextTable& table);

}  // namespace perfgate
