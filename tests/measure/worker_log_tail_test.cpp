#include "measure/worker_log_tail.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

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

TEST(WorkerLogTail, PrintsTheTailBetweenMarkersNamingTheBenchmarkAndTheLog) {
  TempDir dir;
  const auto file = dir.write("worker.log", "one\ntwo\nthree");
  std::ostringstream out;
  print_worker_log_tail(out, "decode[n=1]", file, 2);
  EXPECT_EQ(out.str(), "---- decode[n=1]: last 2 lines of " + file.string() +
                           " ----\ntwo\nthree\n---- end of worker log ----\n");
}

TEST(WorkerLogTail, SaysSoWhenTheLogIsEmptyOrCannotBeRead) {
  TempDir dir;
  const auto empty = dir.write("empty.log", "");
  std::ostringstream out;
  print_worker_log_tail(out, "decode", empty, 200);
  print_worker_log_tail(out, "decode", "/nonexistent/worker.log", 200);
  EXPECT_EQ(out.str(), "---- decode: worker log " + empty.string() +
                           " is empty ----\n"
                           "---- decode: worker log /nonexistent/worker.log cannot be read ----\n");
}

TEST(WorkerLogTail, PrintsNothingForARecordWithoutAWorkerLog) {
  std::ostringstream out;
  print_worker_log_tail(out, "decode", "", kWorkerLogTailLines);
  EXPECT_EQ(out.str(), "");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
