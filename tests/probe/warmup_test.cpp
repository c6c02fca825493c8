// Warmup runs: exactly the first warmup_runs runs of each thread when a count is set, else
// the implicit first one when runs follow it, stay in runs[] marked `warmup` and stay out of
// the key averages.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeWarmup : public ProbeTest {};

void frame() {
  probe::Run run;
  PERFGATE_REGION("step");
}

std::vector<bool> warmup_flags(const Json& doc) {
  std::vector<bool> flags;
  for (const Json& run : doc["runs"]) flags.push_back(run["warmup"].get<bool>());
  return flags;
}

TEST_F(ProbeWarmup, CountsASingleRunAsMeasured) {
  frame();
  const Json doc = report();
  EXPECT_EQ(warmup_flags(doc), (std::vector<bool>{false}));
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["runs"], 1);
  EXPECT_TRUE(doc["config"]["warmup_runs"].is_null());
}

TEST_F(ProbeWarmup, MarksTheFirstRunAsTheImplicitWarmupWhenNoCountIsSet) {
  for (int i = 0; i < 3; ++i) frame();
  const Json doc = report();
  EXPECT_EQ(warmup_flags(doc), (std::vector<bool>{true, false, false}));
  EXPECT_TRUE(doc["config"]["warmup_runs"].is_null());
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["runs"], 2);
}

TEST_F(ProbeWarmup, MarksExactlyTheWarmupsSetAndAveragesTheRest) {
  set_warmup_runs(2);
  for (int i = 0; i < 5; ++i) frame();
  const Json doc = report();
  EXPECT_EQ(warmup_flags(doc), (std::vector<bool>{true, true, false, false, false}));
  EXPECT_EQ(doc["config"]["warmup_runs"], 2);
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["calls"], 3);
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["runs"], 3);
  EXPECT_EQ(warning_codes(doc), std::vector<std::string>{});
}

TEST_F(ProbeWarmup, MarksOneWarmupWhenOneIsSet) {
  set_warmup_runs(1);
  for (int i = 0; i < 3; ++i) frame();
  EXPECT_EQ(warmup_flags(report()), (std::vector<bool>{true, false, false}));
}

TEST_F(ProbeWarmup, MarksNoWarmupWhenZeroIsSet) {
  set_warmup_runs(0);
  for (int i = 0; i < 3; ++i) frame();
  const Json doc = report();
  EXPECT_EQ(warmup_flags(doc), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(doc["config"]["warmup_runs"], 0);
}

TEST_F(ProbeWarmup, WarnsWhenEveryRunOfAThreadIsAWarmup) {
  set_warmup_runs(2);
  for (int i = 0; i < 2; ++i) frame();
  const Json doc = report();
  EXPECT_EQ(warmup_flags(doc), (std::vector<bool>{true, true}));
  EXPECT_EQ(doc["key_averages"]["total_time"].size(), 0u);
  EXPECT_EQ(warning_codes(doc), std::vector<std::string>{"NO_MEASURED_RUNS"});
}

TEST_F(ProbeWarmup, CountsWarmupsPerThread) {
  for (int i = 0; i < 3; ++i) frame();  // this thread: 1 implicit warmup, 2 measured
  std::thread([] {
    for (int i = 0; i < 2; ++i) frame();  // another: 1 implicit warmup, 1 measured
  }).join();
  const Json doc = report();
  EXPECT_EQ(warmup_flags(doc), (std::vector<bool>{true, false, false, true, false}));
  EXPECT_EQ(doc["key_averages"]["total_time"][0]["runs"], 3);
}

TEST(ProbeWarmupEnvironment, RefusesACountItCannotReadOnStderrAndInTheReport) {
  std::random_device random;
  const auto dir =
      std::filesystem::temp_directory_path() / ("perfgate-test-warmup-" + std::to_string(random()));
  std::filesystem::create_directories(dir);
  const auto out = dir / "probe.json";
  const auto err = dir / "stderr.txt";
  const std::string command = "PERFGATE_PROBE_WARMUP_RUNS=3x PERFGATE_PROBE_OUT='" + out.string() +
                              "' '" + PERFGATE_PROBE_EXIT_PROGRAM + "' 2>'" + err.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream in(out);
  const Json doc = Json::parse(in);
  std::ifstream err_in(err);
  const std::string err_text((std::istreambuf_iterator<char>(err_in)),
                             std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  EXPECT_EQ(err_text,
            "perfgate-probe: PERFGATE_PROBE_WARMUP_RUNS=3x is not a count from 0 to 1000000; it "
            "is left unset (the first run of each thread is a warmup when runs follow it)\n");
  EXPECT_TRUE(doc["config"]["warmup_runs"].is_null());
  bool found = false;
  for (const Json& warning : doc["warnings"]) {
    if (warning["code"] == "WARMUP_RUNS_REFUSED") {
      found = true;
      EXPECT_EQ(warning["message"],
                "PERFGATE_PROBE_WARMUP_RUNS=3x is not a count from 0 to 1000000; it was left "
                "unset");
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
