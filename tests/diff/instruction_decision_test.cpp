// perfgate records' instruction counts decided beside their latency (issue 36): a
// deterministic program's counts repeat exactly, so 1% more work is SLOW and the same
// program SAME, from two counted runs a side.
#include <gtest/gtest.h>

#include "diff/diff_fixtures.hpp"
#include "diff/diff_run.hpp"
#include "ingest/timing_summary.hpp"
#include "model/metric.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

ingest::ResultState counted(std::vector<double> instructions, std::vector<double> latency = {}) {
  ingest::ResultState state;
  state.benchmark = "sort";
  state.timing_name = "latency";
  state.samples = std::move(latency);
  state.summary = ingest::summarize_timing(state.samples);
  state.extra_metrics.push_back(ingest::ExtraMetric{
      "instructions", "instructions", Direction::kLowerIsBetter, std::move(instructions)});
  return state;
}

DecidedPair decide(const ingest::ResultState& reference, const ingest::ResultState& compare) {
  std::vector<std::string> warnings;
  const MatchedState match{&reference, &compare, 0, 1};
  return decide_pair(match, false, testing::default_thresholds(), warnings);
}

TEST(InstructionDecision, CallsOnePercentMoreWorkSlowAndTheSameProgramSame) {
  const auto base = counted({42954456, 42954456});
  const DecidedPair more = decide(base, counted({43383999, 43383999}));
  ASSERT_TRUE(more.instructions);
  EXPECT_EQ(more.instructions->status, DiffStatus::kSlow) << more.instructions->reason.message;
  EXPECT_NEAR(*more.instructions->relative_difference, 43383999.0 / 42954456.0 - 1, 1e-12);
  const DecidedPair fewer = decide(base, counted({42525000, 42525000}));
  EXPECT_EQ(fewer.instructions->status, DiffStatus::kFast) << fewer.instructions->reason.message;
  // A handful of instructions (the environment's size) is no change.
  const DecidedPair same = decide(base, counted({42954461, 42954458}));
  EXPECT_EQ(same.instructions->status, DiffStatus::kSame) << same.instructions->reason.message;
  EXPECT_EQ(same.instructions->reason.code, "same_count");
  // 0.05% more is beyond the counts' resolution, and short of a clear gap: AMBG.
  const DecidedPair small = decide(base, counted({42975933, 42975933}));
  EXPECT_EQ(small.instructions->status, DiffStatus::kAmbiguous)
      << small.instructions->reason.message;
}

TEST(InstructionDecision, ComparesCountsWithoutLatencyAndNothingWhereASideHasNone) {
  // Records of `measure = ["instructions"]` have no latency: the timing is unknown, the
  // counts are decided.
  const DecidedPair pair = decide(counted({1000, 1000}), counted({1000, 1000}));
  EXPECT_EQ(pair.timing.status, DiffStatus::kUnknown);
  ASSERT_TRUE(pair.instructions);
  EXPECT_EQ(pair.instructions->status, DiffStatus::kSame);
  ingest::ResultState timed;
  timed.benchmark = "sort";
  timed.samples = {0.1, 0.1};
  timed.summary = ingest::summarize_timing(timed.samples);
  EXPECT_FALSE(decide(counted({1000, 1000}), timed).instructions);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
