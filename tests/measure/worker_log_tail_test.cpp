#include "measure/worker_log_tail.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace perfgate {
namespace {

TEST(WorkerLogTail, ReturnsExactlyTheLastLines) {
  TempDir dir;
  const auto file = dir.write("log", "a\nb\nc\nd\n");
  EXPECT_EQ(last_lines(file, 2), "c\nd\n");
  EXPECT_EQ(last_lines(file, 10), "a\nb\nc\nd\n");
}

TEST(WorkerLogTail, KeepsALastLineThatHasNoNewline) {
  TempDir dir;
  const auto file = dir.write("log", "a\nb\nc");
  EXPECT_EQ(last_lines(file, 2), "b\nc");
}

TEST(WorkerLogTail, ReadsAcrossChunkBoundariesOfALargeLog) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "line " + std::to_string(i) + "\n";
  const auto file = dir.write("log", text);
  const std::string tail = last_lines(file, 200);
  EXPECT_EQ(tail.substr(0, 11), "line 99800\n");
  EXPECT_EQ(std::count(tail.begin(), tail.end(), '\n'), 200);
}

TEST(WorkerLogTail, IsEmptyForAMissingLog) {
  EXPECT_EQ(last_lines("/nonexistent/perfgate.log", 5), "");
}

}  // namespace
}  // namespace perfgate
