#include "report/text_table.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(TerminalWidth, CountsCodePointsIgnoresColoursAndDoublesEmoji) {
  EXPECT_EQ(terminal_width("SLOW"), 4u);
  EXPECT_EQ(terminal_width("\x1b[31mSLOW\x1b[0m"), 4u);
  EXPECT_EQ(terminal_width("\xF0\x9F\x94\xB4 SLOW"), 7u);  // 🔴 is two columns wide
  EXPECT_EQ(terminal_width("\xC2\xB5s"), 2u);              // µs
}

TEST(TextTable, PadsCellsToTheWidestAndMarksAlignment) {
  TextTable table;
  table.headers = {"T", "Ref", "Status"};
  table.align = {CellAlign::kCenter, CellAlign::kRight, CellAlign::kLeft};
  table.rows = {{"F32", "1.000 ms", "SAME"}, {"U8", "12.000 us", "\xF0\x9F\x94\xB4 SLOW"}};
  EXPECT_EQ(render_text_table(table),
            "|  T  |       Ref | Status  |\n"
            "|:---:|----------:|:--------|\n"
            "| F32 |  1.000 ms | SAME    |\n"
            "| U8  | 12.000 us | \xF0\x9F\x94\xB4 SLOW |\n");
}

TEST(TextTable, LaysOutATableOfThousandsOfRowsLineByLine) {
  // Past a few hundred rows the table is drawn in blocks on every core: each line must
  // still be its row alone, padded to the widths of the whole table, whatever its cells
  // hold (colours, emoji, µ, short rows), wherever the blocks end.
  TextTable table;
  table.headers = {"n", "Value", "Status"};
  table.align = {CellAlign::kCenter, CellAlign::kRight, CellAlign::kLeft};
  const std::vector<std::string> statuses = {"SAME", "\x1b[31mSLOW\x1b[0m", "\xF0\x9F\x94\xB4 SLOW",
                                             ""};
  for (int i = 0; i < 1000; ++i) {
    std::vector<std::string> row = {
        std::to_string(i * 37 % 1009),
        std::string(static_cast<std::size_t>(i % 7), '9') + " \xC2\xB5s",
        statuses[static_cast<std::size_t>(i) % statuses.size()]};
    if (i == 613) row.pop_back();  // a short row: its last cell is blank
    table.rows.push_back(row);
  }
  table.rows[777][1] = "123456789012 \xC2\xB5s";  // the widest value, late in the table
  const std::string text = render_text_table(table);
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  ASSERT_EQ(lines.size(), 1002u);
  EXPECT_EQ(lines[0], "|  n   |           Value | Status  |");
  EXPECT_EQ(lines[1], "|:----:|----------------:|:--------|");
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& row = table.rows[i];
    const std::string n = row[0];
    const std::size_t left = (4 - n.size()) / 2;
    std::string expected =
        "| " + std::string(left, ' ') + n + std::string(4 - n.size() - left, ' ');
    expected += " | " + std::string(15 - terminal_width(row[1]), ' ') + row[1] + " | ";
    const std::string status = row.size() > 2 ? row[2] : "";
    expected += status + std::string(7 - terminal_width(status), ' ') + " |";
    ASSERT_EQ(lines[i + 2], expected) << "row " << i;
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
