// Region times against a workload whose shape is known: spins of fixed length inside runs.
// Tolerances are absolute fractions of the run (±0.05), wide enough for a loaded machine.

#include <chrono>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace {

using std::chrono::milliseconds;

class Attribution : public ProbeTest {};

void hundred_ms_frame() {
  probe::Run run;
  {
    PERFGATE_REGION("decode");
    spin_for(milliseconds(50));
  }
  {
    PERFGATE_REGION("render");
    spin_for(milliseconds(30));
  }
  spin_for(milliseconds(20));
}

TEST_F(Attribution, GivesRegionsOf50And30MsInA100MsRunHalfAndAThirdAndTheRestToResidual) {
  hundred_ms_frame();
  hundred_ms_frame();
  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), 2u);
  for (const Json& run : doc["runs"]) {
    EXPECT_NEAR(run["timing"]["wall_time_us"].get<double>(), 100'000.0, 5'000.0);
    const Json decode = run_row(run, "decode");
    const Json render = run_row(run, "render");
    ASSERT_FALSE(decode.is_null());
    ASSERT_FALSE(render.is_null());
    EXPECT_EQ(decode["calls"], 1);
    EXPECT_EQ(render["calls"], 1);
    EXPECT_NEAR(decode["wall_time_fraction"].get<double>(), 0.50, 0.05);
    EXPECT_NEAR(render["wall_time_fraction"].get<double>(), 0.30, 0.05);
    EXPECT_NEAR(run["residual"]["wall_time_fraction"].get<double>(), 0.20, 0.05);
    EXPECT_NEAR(decode["wall_time_fraction"].get<double>() +
                    render["wall_time_fraction"].get<double>() +
                    run["residual"]["wall_time_fraction"].get<double>(),
                1.0, 1e-9);
    // The spinning makes the run use CPU for about as long as it takes.
    EXPECT_GT(run["timing"]["cpu_time_us"].get<double>(), 50'000.0);
  }
  EXPECT_EQ(doc["runs"][0]["run_index"], 0);
  EXPECT_EQ(doc["runs"][1]["run_index"], 1);
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["region_id"], "decode");
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["calls"], 2);
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["runs"], 2);
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
  EXPECT_NEAR(decode["self_wall_time_us"].get<double>(),
              decode["wall_time_us"].get<double>() - huffman["wall_time_us"].get<double>(), 1e-6);
  EXPECT_NEAR(huffman["wall_time_us"].get<double>(), 3'000.0, 1'000.0);
  EXPECT_NEAR(decode["wall_time_us"].get<double>(), 9'000.0, 2'000.0);
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

}  // namespace
}  // namespace perfgate::probe::testing
