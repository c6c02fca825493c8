// Every warning code of the probe report, each from the situation that causes it. The ones
// that need a real exit come from a child program (exit_program.cpp).

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "perfgate/probe.h"
#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace {

using Codes = std::vector<std::string>;

class ProbeWarnings : public ProbeTest {};

TEST_F(ProbeWarnings, CountRegionCallsOutsideAnyRunAndLeaveThemOutOfRuns) {
  for (int i = 0; i < 3; ++i) {
    PERFGATE_REGION("warmup");
  }
  { probe::Run run; }
  const Json doc = report();
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_OUTSIDE_RUN"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "region 'warmup' was called 3 time(s) on a thread with no open Run; its time is in "
            "no run");
  ASSERT_EQ(doc["runs"].size(), 1u);
  EXPECT_EQ(doc["runs"][0]["regions"].size(), 0u);
  EXPECT_EQ(doc["runs"][0]["residual"]["wall_time_fraction"], 1.0);
}

TEST_F(ProbeWarnings, NameARunAndARegionStillOpenWhenTheReportIsWritten) {
  perfgate_probe_run_begin();
  perfgate_probe_region_begin("load");
  const Json doc = report();
  perfgate_probe_region_end();
  perfgate_probe_run_end();
  EXPECT_EQ(warning_codes(doc), (Codes{"RUN_OPEN_AT_EXIT", "REGION_OPEN_AT_EXIT"}));
  EXPECT_EQ(doc["warnings"][1]["message"],
            "region 'load' on thread 0 was still open when the report was written; that call "
            "is not counted");
  EXPECT_EQ(doc["runs"].size(), 0u);
}

TEST_F(ProbeWarnings, SayWhenTheMonotonicClockStoodInForTheTsc) {
  detail::use_fallback_clock_for_testing();
  {
    probe::Run run;
    PERFGATE_REGION("decode");
  }
  const Json doc = report();
  EXPECT_EQ(warning_codes(doc), Codes{"CLOCK_FALLBACK"});
  EXPECT_EQ(doc["config"]["clock"], "steady_clock");
  EXPECT_EQ(doc["config"]["clock_hz"], nullptr);
  EXPECT_EQ(run_row(doc["runs"][0], "decode")["calls"], 1);
}

TEST_F(ProbeWarnings, CountTraceEventsBeyondTheBoundedBuffer) {
  set_trace(true);
  const std::size_t calls = detail::kThreadTraceEvents + 10;
  for (std::size_t i = 0; i < calls; ++i) {
    PERFGATE_REGION("tiny");
  }
  const Json doc = report();
  EXPECT_EQ(warning_codes(doc), (Codes{"REGION_OUTSIDE_RUN", "TRACE_EVENTS_DROPPED"}));
  EXPECT_EQ(doc["trace"]["dropped"], 10);
  EXPECT_EQ(doc["trace"]["events"].size(), detail::kThreadTraceEvents);
  EXPECT_EQ(doc["config"]["trace"], true);
}

std::filesystem::path unique_temp_dir() {
  std::random_device random;
  auto dir = std::filesystem::temp_directory_path() /
             ("perfgate-test-probe-" + std::to_string(random()) + std::to_string(random()));
  std::filesystem::create_directories(dir);
  return dir;
}

Json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

TEST(ProbeAtExit, ReportsEndedThreadsAndWarnsAboutRunningThreadsAndOpenScopes) {
  const auto dir = unique_temp_dir();
  const auto out = dir / "probe.json";
  const std::string command =
      "PERFGATE_PROBE_OUT='" + out.string() + "' '" + PERFGATE_PROBE_EXIT_PROGRAM + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Json doc = read_json(out);
  std::filesystem::remove_all(dir);

  EXPECT_EQ(warning_codes(doc), (Codes{"THREAD_NOT_FLUSHED", "RUN_OPEN_AT_EXIT",
                                       "REGION_OPEN_AT_EXIT", "REGION_OUTSIDE_RUN"}));
  EXPECT_EQ(doc["warnings"][0]["message"],
            "thread 1 ('sleeper') was still running when the report was written at exit: what "
            "it recorded after its last finished run is missing");
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["regions"][0]["region_id"], "finished_thread_work");
  EXPECT_EQ(doc["runs"][1]["regions"][0]["region_id"], "sleeper_work");
  ASSERT_EQ(doc["threads"].size(), 3u);
  EXPECT_EQ(doc["threads"][2]["name"], "main");
  EXPECT_EQ(doc["target"]["process_name"], "perfgate_probe_exit_program");
}

TEST(ProbeAtExit, WritesNoRunsWhenSwitchedOffByTheEnvironment) {
  const auto dir = unique_temp_dir();
  const auto out = dir / "probe.json";
  const std::string command =
      "PERFGATE_PROBE=0 '" + std::string(PERFGATE_PROBE_C_PROGRAM) + "' '" + out.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Json doc = read_json(out);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(doc["config"]["enabled"], false);
  EXPECT_EQ(doc["runs"].size(), 0u);
  EXPECT_EQ(doc["regions"].size(), 0u);
}

TEST(ProbeCHeader, GivesACProgramRunsNestedRegionsAndTheirCallSites) {
  const auto dir = unique_temp_dir();
  const auto out = dir / "probe.json";
  const std::string command =
      "'" + std::string(PERFGATE_PROBE_C_PROGRAM) + "' '" + out.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Json doc = read_json(out);
  std::filesystem::remove_all(dir);

  ASSERT_EQ(doc["runs"].size(), 2u);
  for (const Json& run : doc["runs"]) {
    EXPECT_EQ(run_row(run, "parse")["calls"], 1);
    EXPECT_EQ(run_row(run, "parse/tokens")["calls"], 1);
    // The program spins for 4 ms per run; preemption can only make a run longer.
    EXPECT_GE(run["timing"]["wall_time_us"].get<double>(), 4'000.0);
  }
  ASSERT_EQ(doc["regions"].size(), 2u);
  EXPECT_EQ(doc["regions"][0]["function"], "main");
  EXPECT_EQ(doc["regions"][0]["line"], 23);
  EXPECT_EQ(doc["regions"][1]["parent"], "parse");
  EXPECT_EQ(doc["regions"][1]["file"], "");
  EXPECT_EQ(doc["warnings"].size(), 0u);
}

}  // namespace
}  // namespace perfgate::probe::testing
