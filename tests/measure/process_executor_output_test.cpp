// The real executor's worker log: what the child writes, bounded.
#include <gtest/gtest.h>

#include "measure/process_executor.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

// What the test child's "output" mode writes for bytes [begin, end).
std::string output_pattern(std::size_t begin, std::size_t end) {
  std::string bytes;
  bytes.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) bytes.push_back(static_cast<char>('a' + i % 23));
  return bytes;
}

ProcessSpec child_spec(std::vector<std::string> args) {
  ProcessSpec spec;
  spec.argv = {PERFGATE_TEST_CHILD};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  return spec;
}

TEST(ProcessExecutorOutput, WritesStdoutAndStderrToTheLog) {
  const TempDir dir;
  ProcessSpec spec = child_spec({"lines", "5"});
  spec.log_path = dir / "run.log";
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_TRUE(result.succeeded());
  EXPECT_EQ(read_text_file(dir / "run.log"), "line 1\nline 2\nline 3\nline 4\nline 5\n");
  EXPECT_EQ(result.output_bytes, 35u);
  EXPECT_EQ(result.dropped_bytes, 0u);

  spec.argv = {PERFGATE_TEST_CHILD, "unknown-mode"};
  EXPECT_EQ(ProcessExecutor().run(spec).exit_code, 64);
  EXPECT_EQ(read_text_file(dir / "run.log"),
            "line 1\nline 2\nline 3\nline 4\nline 5\ntest_child: unknown mode 'unknown-mode'\n");
}

TEST(ProcessExecutorOutput, KeepsTheHeadAndTailOfFiftyMegabytesWithinAOneMegabyteLimit) {
  const TempDir dir;
  const std::size_t total = 50u << 20;
  const std::size_t limit = 1u << 20;
  ProcessSpec spec = child_spec({"output", std::to_string(total)});
  spec.log_path = dir / "run.log";
  spec.log_limit_bytes = limit;
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_TRUE(result.succeeded()) << result.reason();
  EXPECT_EQ(result.output_bytes, total);
  EXPECT_EQ(result.dropped_bytes, total - limit);

  const std::string log = read_text_file(dir / "run.log");
  EXPECT_LE(log.size(), limit + 100);
  const std::string expected =
      output_pattern(0, limit / 2) + "\n[perfgate: " + std::to_string(total - limit) +
      " bytes of output dropped]\n" + output_pattern(total - limit / 2, total);
  EXPECT_TRUE(log == expected) << "the log differs from the expected head, marker and tail";
}

TEST(ProcessExecutorOutput, DiscardsOutputWhenNoLogIsGiven) {
  const ProcessResult result = ProcessExecutor().run(child_spec({"output", "100000"}));
  EXPECT_TRUE(result.succeeded());
  EXPECT_EQ(result.output_bytes, 0u);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
