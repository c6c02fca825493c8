#include "report/text_table.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

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

}  // namespace
}  // namespace perfgate
