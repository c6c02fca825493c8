#include "support/fake_executor.hpp"

#include <gtest/gtest.h>

namespace perfgate {

TEST(FakeExecutor, AnswersFromItsScriptThenWithTheDefaultResult) {
  FakeExecutor executor;
  ProcessResult crash;
  crash.outcome = ProcessOutcome::kSignaled;
  crash.signal = 11;
  executor.script.push_back(crash);
  ProcessSpec spec;
  spec.argv = {"bench", "--fast"};

  EXPECT_EQ(executor.run(spec).reason(), "killed by signal 11 (SIGSEGV)");
  const ProcessResult later = executor.run(spec);
  EXPECT_TRUE(later.succeeded());
  EXPECT_EQ(later.wall_s, 0.1);
  EXPECT_EQ(later.user_s, 0.05);
  EXPECT_EQ(later.system_s, 0.01);
  EXPECT_EQ(later.peak_rss_mb, 10);
  ASSERT_EQ(executor.calls.size(), 2u);
  EXPECT_EQ(executor.calls[1].argv, spec.argv);
}

TEST(FakeExecutor, CallsOnRunBeforeAnswering) {
  FakeExecutor executor;
  std::vector<std::string> seen;
  executor.on_run = [&](const ProcessSpec& spec) { seen.push_back(spec.argv.front()); };
  ProcessSpec spec;
  spec.argv = {"bench"};
  executor.run(spec);
  EXPECT_EQ(seen, std::vector<std::string>{"bench"});
}

}  // namespace perfgate
