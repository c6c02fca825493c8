#include "report/text_table.hpp"

#include <algorithm>

#include "model/parallel_for.hpp"

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

/// Appends `cell` (`used` columns wide) padded to `width` columns, without temporaries:
/// a diff's tables have tens of thousands of cells.
void append_padded(std::string& out, const std::string& cell, std::size_t used, std::size_t width,
                   CellAlign align) {
  const std::size_t space = width > used ? width - used : 0;
  const std::size_t left = align == CellAlign::kRight    ? space
                           : align == CellAlign::kCenter ? space / 2
                                                         : 0;
  out.append(left, ' ');
  out += cell;
  out.append(space - left, ' ');
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
  // Plain ASCII (almost every cell) is one column a byte.
  if (std::all_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x80 && byte != 0x1b;
      })) {
    return text.size();
  }
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
  const std::size_t rows = table.rows.size();
  // Large tables (a diff of thousands of states) in blocks of rows on every core: each
  // block measures its cells, then, once the widths are known, writes its lines.
  constexpr std::size_t kBlockRows = 256;
  const std::size_t blocks = (rows + kBlockRows - 1) / kBlockRows;
  // Each cell's width once: padding needs it again.
  std::vector<std::size_t> used(rows * columns, 0);
  std::vector<std::vector<std::size_t>> block_width(blocks, std::vector<std::size_t>(columns, 0));
  std::vector<std::size_t> block_bytes(blocks, 0);
  parallel_for_blocks(rows, kBlockRows, [&](std::size_t block, std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      const auto& row = table.rows[r];
      for (std::size_t c = 0; c < columns && c < row.size(); ++c) {
        const std::size_t cell = terminal_width(row[c]);
        used[r * columns + c] = cell;
        block_width[block][c] = std::max(block_width[block][c], cell);
        block_bytes[block] += row[c].size();
      }
    }
  });
  std::vector<std::size_t> width(columns, 3);
  for (std::size_t c = 0; c < columns; ++c) {
    width[c] = std::max(width[c], terminal_width(table.headers[c]));
    for (const auto& widths : block_width) width[c] = std::max(width[c], widths[c]);
  }
  auto align_of = [&](std::size_t c) {
    return c < table.align.size() ? table.align[c] : CellAlign::kLeft;
  };
  std::size_t line = 1;
  for (const std::size_t w : width) line += w + 3;
  std::string out;
  out += "|";
  for (std::size_t c = 0; c < columns; ++c) {
    out += ' ';
    append_padded(out, table.headers[c], terminal_width(table.headers[c]), width[c], align_of(c));
    out += " |";
  }
  out += "\n|";
  for (std::size_t c = 0; c < columns; ++c) out += rule(width[c] + 2, align_of(c)) + "|";
  out += "\n";
  std::vector<std::string> lines(blocks);
  parallel_for_blocks(rows, kBlockRows, [&](std::size_t block, std::size_t begin, std::size_t end) {
    // The block's exact size first (a cell's bytes beyond its columns: colours, UTF-8),
    // then every byte written in place: appending to a string checked its capacity on
    // every padding run and cell.
    std::size_t size = (end - begin) * (line + 1);  // + 1: the newline
    for (std::size_t r = begin; r < end; ++r) {
      const auto& row = table.rows[r];
      for (std::size_t c = 0; c < columns && c < row.size(); ++c) {
        const std::size_t cell = used[r * columns + c];
        size += row[c].size() + (width[c] > cell ? 0 : cell - width[c]) - std::min(cell, width[c]);
      }
    }
    std::string& text = lines[block];
    text.resize(size);
    char* at = text.data();
    for (std::size_t r = begin; r < end; ++r) {
      const auto& row = table.rows[r];
      *at++ = '|';
      for (std::size_t c = 0; c < columns; ++c) {
        const std::string_view cell = c < row.size() ? std::string_view(row[c]) : "";
        const std::size_t cell_width = used[r * columns + c];
        const std::size_t space = width[c] > cell_width ? width[c] - cell_width : 0;
        const CellAlign align = align_of(c);
        const std::size_t left = align == CellAlign::kRight    ? space
                                 : align == CellAlign::kCenter ? space / 2
                                                               : 0;
        *at++ = ' ';
        at = std::fill_n(at, left, ' ');
        at = std::copy(cell.begin(), cell.end(), at);
        at = std::fill_n(at, space - left, ' ');
        *at++ = ' ';
        *at++ = '|';
      }
      *at++ = '\n';
    }
  });
  std::size_t total = out.size();
  for (const auto& text : lines) total += text.size();
  out.reserve(total);
  for (const auto& text : lines) out += text;
  return out;
}

}  // namespace perfgate
