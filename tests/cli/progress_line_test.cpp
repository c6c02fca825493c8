#include "cli/progress_line.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;

// A file standing for standard error, and the clock the lines are drawn by.
struct Terminal {
  std::FILE* file = std::tmpfile();
  TimePoint now{};
  ~Terminal() {
    if (file != nullptr) std::fclose(file);
  }
  ProgressLine::Clock clock() {
    return [this] { return now; };
  }
  std::string text() const {
    std::fflush(file);
    std::rewind(file);
    std::string text;
    for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
    return text;
  }
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ProgressLine, RedrawsAtMostEveryTenthOfASecondAndCountsEveryRun) {
  Terminal terminal;
  ASSERT_NE(terminal.file, nullptr);
  BenchmarkState state;
  state.name = "sort";
  {
    // Runs of 3 ms: 34 runs in the first 100 ms, then one line per 34 runs.
    ProgressLine progress(terminal.file, 100, true, terminal.clock());
    for (int i = 0; i < 100; ++i) {
      progress.run_started(state, i, 100, false);
      terminal.now += milliseconds(3);
    }
  }
  const std::string text = terminal.text();
  // Drawn for runs 1, 35 and 69 (at 0, 102 and 204 ms), then erased once at the end.
  EXPECT_EQ(count(text, "\r\x1b[K"), 4u) << text;
  EXPECT_NE(text.find("] 1/100 sort · measured run 1 of 100"), std::string::npos) << text;
  EXPECT_NE(text.find("] 35/100 sort · measured run 35 of 100"), std::string::npos) << text;
  EXPECT_NE(text.find("] 69/100 sort · measured run 69 of 100"), std::string::npos) << text;
  EXPECT_EQ(text.find("] 2/100"), std::string::npos) << text;
}

TEST(ProgressLine, DrawsTheNextRunAtOnceAfterTheLineWasClearedAndNothingWhenDisabled) {
  Terminal terminal;
  ASSERT_NE(terminal.file, nullptr);
  BenchmarkState state;
  state.name = "a";
  {
    ProgressLine progress(terminal.file, 3, true, terminal.clock());
    progress.run_started(state, 0, 3, false);
    progress.clear();
    progress.counted_run_started(state, 0, 2);
  }
  {
    ProgressLine quiet(terminal.file, 3, false, terminal.clock());
    quiet.run_started(state, 0, 3, false);
  }
  EXPECT_EQ(terminal.text(),
            "\r\x1b[K[........................] 1/3 a · measured run 1 of 3\r\x1b[K"
            "\r\x1b[K[########................] 2/3 a · counted run 1 of 2\r\x1b[K");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
