#include "measure/run_rounds.hpp"

#include <gtest/gtest.h>

#include "measure/recipe.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

BenchmarkConfig three_runs() {
  BenchmarkConfig config;
  config.benchmark_id = "sort";
  config.command.argv = {"/bin/true"};
  config.run.num_warmup_runs = 2;
  config.run.num_measurement_runs = 3;
  return config;
}

// A round's record: `warmups` warmup runs and one measured run of `latency` seconds.
RawRecord round_record(int warmups, double latency, bool success = true) {
  RawRecord record;
  record.identity.benchmark_id = "sort";
  record.num_warmup_runs = warmups;
  record.num_measurement_runs = 1;
  for (int i = 0; i < warmups; ++i) record.runs.push_back({i, true, true, "", 9.0, 0, 0, 0, {}});
  record.runs.push_back(
      {warmups, false, success, success ? "" : "exit status 1", latency, 0, 0, 0, {}});
  record.metrics["latency"] = {{"latency", "s", Direction::kLowerIsBetter}, {latency}, {}};
  record.metrics["latency"].summary = summarize(record.metrics["latency"].samples);
  record.success = success;
  if (!success) record.failure_reason = "measured run 1 of 1: exit status 1";
  record.machine_state = {{"load_1m_start", latency}};
  return record;
}

TEST(RunRounds, ARoundIsOneMeasuredRunWithTheWarmupsOnlyFirst) {
  const BenchmarkConfig config = three_runs();
  const BenchmarkState state{&config, "sort", {}, config.command, {}};
  BenchmarkConfig first_config;
  BenchmarkConfig later_config;
  const BenchmarkState first = round_of(state, true, first_config);
  const BenchmarkState later = round_of(state, false, later_config);
  EXPECT_EQ(first.config, &first_config);
  EXPECT_EQ(first.config->run.num_measurement_runs, 1);
  EXPECT_EQ(first.config->run.num_warmup_runs, 2);
  EXPECT_EQ(later.config->run.num_warmup_runs, 0);
  EXPECT_EQ(later.name, "sort");
}

TEST(RunRounds, MergedRoundsAreOneRecordOfAllTheRunsWithTheStatesOwnRecipe) {
  const BenchmarkConfig config = three_runs();
  const BenchmarkState state{&config, "sort", {}, config.command, {}};
  const RawRecord merged =
      merge_rounds({round_record(2, 1.0), round_record(0, 3.0), round_record(0, 2.0)}, state);
  EXPECT_TRUE(merged.success);
  EXPECT_EQ(merged.num_warmup_runs, 2);
  EXPECT_EQ(merged.num_measurement_runs, 3);
  ASSERT_EQ(merged.runs.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(merged.runs[i].index, i);
  EXPECT_EQ(merged.metrics.at("latency").samples, (std::vector<double>{1.0, 3.0, 2.0}));
  EXPECT_EQ(merged.metrics.at("latency").summary.median, 2.0);
  EXPECT_EQ(merged.metrics.at("latency").summary.count, 3u);
  // The recipe of three measured runs, not of a one-run round: the cohort is the state's.
  EXPECT_EQ(merged.recipe, build_recipe(state, {}));
  EXPECT_EQ(merged.recipe_fingerprint, fingerprint(build_recipe(state, {})));
  EXPECT_EQ(merged.machine_state, Json({{"load_1m_start", 1.0}}));
}

TEST(RunRounds, CountedRunsAreAllInTheFirstRoundAndItsCounterIsInTheMergedRecipe) {
  BenchmarkConfig config = three_runs();
  config.run.measure_counts = true;
  const BenchmarkState state{&config, "sort", {}, config.command, {}};
  BenchmarkConfig first_config;
  BenchmarkConfig later_config;
  EXPECT_TRUE(round_of(state, true, first_config).config->run.measure_counts);
  EXPECT_FALSE(round_of(state, false, later_config).config->run.measure_counts);

  const Json counter = {{"backend", "valgrind"}, {"version", "valgrind-3.19.0"}};
  RawRecord first = round_record(2, 1.0);
  first.recipe = build_recipe(round_of(state, true, first_config), {}, counter);
  first.metrics["instructions"] = {
      {"instructions", "instructions", Direction::kLowerIsBetter}, {5000, 5000}, {}};
  const RawRecord merged = merge_rounds({first, round_record(0, 3.0), round_record(0, 2.0)}, state);
  EXPECT_EQ(merged.recipe, build_recipe(state, {}, counter));
  EXPECT_EQ(merged.recipe["measure"]["counter"]["backend"], "valgrind");
  EXPECT_EQ(merged.metrics.at("instructions").samples, (std::vector<double>{5000, 5000}));
  EXPECT_EQ(merged.metrics.at("latency").samples, (std::vector<double>{1.0, 3.0, 2.0}));
}

TEST(RunRounds, AFailedRoundFailsTheRecordWithItsReason) {
  const BenchmarkConfig config = three_runs();
  const BenchmarkState state{&config, "sort", {}, config.command, {}};
  const RawRecord merged = merge_rounds({round_record(2, 1.0), round_record(0, 3.0, false)}, state);
  EXPECT_FALSE(merged.success);
  EXPECT_EQ(merged.failure_reason, "measured run 1 of 1: exit status 1");
  EXPECT_EQ(merged.num_measurement_runs, 2);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
