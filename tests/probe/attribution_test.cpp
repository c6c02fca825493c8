// Region times against a workload whose shape is known: spins of fixed length inside runs.
// Tolerances are absolute fractions of the run (±0.05), wide enough for a loaded machine.

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

using std::chrono::milliseconds;

class Attribution : public ProbeTest {};

// Each phase sleeps until a deadline counted from the run's start, so that a late wake-up
// does not shift the phases after it. Sleeping rather than spinning keeps the test accurate
// on a loaded machine: a waking sleeper gets a CPU quickly, a spinner waits for its turn.
void hundred_ms_frame() {
  probe::Run run;
  const auto start = std::chrono::steady_clock::now();
  {
    PERFGATE_REGION("decode");
    std::this_thread::sleep_until(start + milliseconds(50));
  }
  {
    PERFGATE_REGION("render");
    std::this_thread::sleep_until(start + milliseconds(80));
  }
  std::this_thread::sleep_until(start + milliseconds(100));
}

// The median of five runs, so that one run stretched by preemption cannot fail the test.
double median_of(const Json& runs, const std::function<double(const Json&)>& value) {
  std::vector<double> values;
  for (const Json& run : runs) values.push_back(value(run));
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

TEST_F(Attribution, GivesRegionsOf50And30MsInA100MsRunHalfAndAThirdAndTheRestToResidual) {
  constexpr int kRuns = 5;
  for (int i = 0; i < kRuns; ++i) hundred_ms_frame();
  const Json doc = report();
  const Json& runs = doc["runs"];
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kRuns));
  for (const Json& run : runs) {
    ASSERT_FALSE(run_row(run, "decode").is_null());
    ASSERT_FALSE(run_row(run, "render").is_null());
    EXPECT_EQ(run_row(run, "decode")["calls"], 1);
    EXPECT_EQ(run_row(run, "render")["calls"], 1);
    EXPECT_GE(run["timing"]["wall_time_us"].get<double>(), 100'000.0);
    EXPECT_NEAR(run_row(run, "decode")["wall_time_fraction"].get<double>() +
                    run_row(run, "render")["wall_time_fraction"].get<double>() +
                    run["residual"]["wall_time_fraction"].get<double>(),
                1.0, 1e-9);
  }
  const auto fraction_of = [](const char* region) {
    return [region](const Json& run) {
      return run_row(run, region)["wall_time_fraction"].get<double>();
    };
  };
  EXPECT_NEAR(median_of(runs, fraction_of("decode")), 0.50, 0.05);
  EXPECT_NEAR(median_of(runs, fraction_of("render")), 0.30, 0.05);
  EXPECT_NEAR(median_of(runs,
                        [](const Json& run) {
                          return run["residual"]["wall_time_fraction"].get<double>();
                        }),
              0.20, 0.05);
  EXPECT_NEAR(
      median_of(runs, [](const Json& run) { return run["timing"]["wall_time_us"].get<double>(); }),
      100'000.0, 5'000.0);
  // CPU time is the process's, not the wall clock's: a sleeping run uses little of it.
  EXPECT_LT(
      median_of(runs, [](const Json& run) { return run["timing"]["cpu_time_us"].get<double>(); }),
      50'000.0);
  EXPECT_EQ(runs[0]["run_index"], 0);
  EXPECT_EQ(runs[4]["run_index"], 4);
  // The first run is the implicit warmup: kept, marked, and left out of the key averages.
  EXPECT_EQ(runs[0]["warmup"], true);
  EXPECT_EQ(runs[1]["warmup"], false);
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["region_id"], "decode");
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["calls"], kRuns - 1);
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["runs"], kRuns - 1);
  EXPECT_EQ(doc["warnings"].size(), 0u);
}

TEST_F(Attribution, NestsRegionsByPathAndTakesChildTimeOutOfTheParentsSelfTime) {
  {
    probe::Run run;
    PERFGATE_REGION("frame");
    for (int i = 0; i < 3; ++i) {
      PERFGATE_REGION("decode");
      spin_for(milliseconds(2));
      PERFGATE_REGION("huffman");
      spin_for(milliseconds(1));
    }
  }
  const Json doc = report();
  ASSERT_EQ(doc["regions"].size(), 3u);
  EXPECT_EQ(doc["regions"][0]["id"], "frame");
  EXPECT_EQ(doc["regions"][0]["parent"], nullptr);
  EXPECT_EQ(doc["regions"][0]["depth"], 0);
  EXPECT_EQ(doc["regions"][1]["id"], "frame/decode");
  EXPECT_EQ(doc["regions"][1]["name"], "decode");
  EXPECT_EQ(doc["regions"][1]["parent"], "frame");
  EXPECT_EQ(doc["regions"][1]["depth"], 1);
  EXPECT_EQ(doc["regions"][2]["id"], "frame/decode/huffman");
  EXPECT_EQ(doc["regions"][2]["parent"], "frame/decode");
  EXPECT_EQ(doc["regions"][2]["depth"], 2);
  EXPECT_EQ(doc["regions"][2]["function"], "TestBody");

  const Json& run = doc["runs"][0];
  const Json frame = run_row(run, "frame");
  const Json decode = run_row(run, "frame/decode");
  const Json huffman = run_row(run, "frame/decode/huffman");
  EXPECT_EQ(frame["calls"], 1);
  EXPECT_EQ(decode["calls"], 3);
  EXPECT_EQ(huffman["calls"], 3);
  EXPECT_LT(decode["self_wall_time_us"].get<double>(), decode["wall_time_us"].get<double>());
  // Self time is what the children did not take, less what the probe itself spent on the
  // three calls of its child (measured when the report is written, and stated per run).
  const double cost_us = doc["config"]["region_cost_ns"].get<double>() / 1e3;
  EXPECT_GT(cost_us, 0.0);
  EXPECT_NEAR(
      decode["self_wall_time_us"].get<double>(),
      decode["wall_time_us"].get<double>() - huffman["wall_time_us"].get<double>() - 3 * cost_us,
      1e-6);
  EXPECT_EQ(run["probe"]["region_calls"], 7);
  EXPECT_NEAR(run["probe"]["cost_us"].get<double>(), 7 * cost_us, 1e-9);
  // Three spins of 1 ms and of 2 + 1 ms; preemption can only make them longer.
  EXPECT_GE(huffman["wall_time_us"].get<double>(), 3'000.0);
  EXPECT_GE(decode["wall_time_us"].get<double>(), 9'000.0);
  // Only the run's outermost region counts against the residual.
  EXPECT_NEAR(frame["wall_time_fraction"].get<double>() +
                  run["residual"]["wall_time_fraction"].get<double>(),
              1.0, 1e-9);
}

TEST_F(Attribution, CountsNothingWhenSwitchedOffAtRunTime) {
  set_enabled(false);
  {
    probe::Run run;
    PERFGATE_REGION("decode");
  }
  const Json doc = report();
  EXPECT_EQ(doc["runs"].size(), 0u);
  EXPECT_EQ(doc["regions"].size(), 0u);
  EXPECT_EQ(doc["config"]["enabled"], false);
}

TEST_F(Attribution, IgnoresARunInsideARunOnTheSameThread) {
  {
    probe::Run outer;
    {
      probe::Run inner;
      PERFGATE_REGION("decode");
    }
  }
  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), 1u);
  EXPECT_EQ(run_row(doc["runs"][0], "decode")["calls"], 1);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
