// Every warning code of the probe report, each from the situation that causes it. The ones
// that need a real exit come from a child program (exit_program.cpp).

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "perfgate/probe.h"
#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

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

TEST_F(ProbeWarnings, CountsTraceEventsBeyondTheCapAndKeepsNoneOfAThreadsBufferBack) {
  // More events than a thread buffers between hand-overs: none is lost below the cap.
  set_trace(true);
  const std::size_t calls = detail::kThreadTraceEvents + 10;
  for (std::size_t i = 0; i < calls; ++i) {
    PERFGATE_REGION("tiny");
  }
  Json doc = report();
  EXPECT_EQ(warning_codes(doc), (Codes{"REGION_OUTSIDE_RUN"}));
  EXPECT_EQ(doc["trace"]["dropped"], 0);
  EXPECT_EQ(doc["trace"]["events"].size(), calls);
  EXPECT_EQ(doc["config"]["trace"], true);
  // Past the report's cap, events are counted as dropped.
  detail::reset_for_testing();
  set_trace(true);
  detail::set_trace_cap_for_testing(100);
  for (int i = 0; i < 130; ++i) {
    PERFGATE_REGION("tiny");
  }
  doc = report();
  EXPECT_EQ(warning_codes(doc), (Codes{"REGION_OUTSIDE_RUN", "TRACE_EVENTS_DROPPED"}));
  EXPECT_EQ(doc["trace"]["dropped"], 30);
  EXPECT_EQ(doc["trace"]["events"].size(), 100u);
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
  ASSERT_EQ(doc["threads"].size(), 4u);
  EXPECT_EQ(doc["threads"][2]["name"], "idle");  // running, holding nothing: no warning
  EXPECT_EQ(doc["threads"][3]["name"], "main");
  EXPECT_EQ(doc["target"]["process_name"], "perfgate_probe_exit_program");
}

TEST(ProbeAtExit, WritesTheReportAfterAtexitHandlersAndStaticDestructors) {
  const auto dir = unique_temp_dir();
  const auto out = dir / "probe.json";
  const std::string command = "PERFGATE_PROBE_OUT='" + out.string() + "' '" +
                              PERFGATE_PROBE_EXIT_PROGRAM + "' exit-handlers";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Json doc = read_json(out);
  std::filesystem::remove_all(dir);
  // In the order they ended: main's, then the handler registered last, then the static.
  ASSERT_EQ(doc["runs"].size(), 3u);
  EXPECT_EQ(doc["runs"][0]["regions"][0]["region_id"], "in_main");
  EXPECT_EQ(doc["runs"][1]["regions"][0]["region_id"], "in_atexit_handler");
  EXPECT_EQ(doc["runs"][2]["regions"][0]["region_id"], "in_static_destructor");
  EXPECT_EQ(warning_codes(doc), Codes{});
}

TEST(ProbeAtExit, NamesTheExecutableByThePathItWasStartedByOrItsFile) {
  const std::filesystem::path program = PERFGATE_PROBE_EXIT_PROGRAM;
  const auto dir = unique_temp_dir();
  const auto out = dir / "probe.json";
  // Started by its absolute path through a symbolic link: that path, not the link's target.
  const auto link = dir / "linked_program";
  std::filesystem::create_symlink(program, link);
  ASSERT_EQ(std::system(
                ("PERFGATE_PROBE_OUT='" + out.string() + "' '" + link.string() + "' exit-handlers")
                    .c_str()),
            0);
  const Json by_link = read_json(out);
  // Started by a relative path: the file itself, absolute.
  ASSERT_EQ(std::system(("cd '" + program.parent_path().string() + "' && PERFGATE_PROBE_OUT='" +
                         out.string() + "' ./" + program.filename().string() + " exit-handlers")
                            .c_str()),
            0);
  const Json relative = read_json(out);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(by_link["target"]["executable"], link.string());
  EXPECT_EQ(by_link["target"]["process_name"], "linked_program");
  EXPECT_EQ(relative["target"]["executable"], std::filesystem::canonical(program).string());
  EXPECT_EQ(relative["target"]["process_name"], "perfgate_probe_exit_program");
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
  EXPECT_EQ(doc["config"]["disabled_by"], "PERFGATE_PROBE=0");
  EXPECT_EQ(doc["runs"].size(), 0u);
  EXPECT_EQ(doc["regions"].size(), 0u);
}

/// Runs `command` through the shell and returns what it wrote on stderr.
std::string stderr_of(const std::string& command, const std::filesystem::path& dir) {
  const auto err = dir / "stderr.txt";
  EXPECT_EQ(std::system((command + " 2>'" + err.string() + "'").c_str()), 0);
  std::ifstream in(err);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ProbeAtExit, SaysOnOneLineWhenTheReportCannotBeWritten) {
  const auto dir = unique_temp_dir();
  const std::string out = (dir / "missing-folder" / "probe.json").string();
  const std::string err =
      stderr_of("PERFGATE_PROBE_OUT='" + out + "' '" + PERFGATE_PROBE_EXIT_PROGRAM + "'", dir);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(err, "perfgate-probe: cannot write the report to " + out +
                     " (PERFGATE_PROBE_OUT): No such file or directory\n");
}

TEST(ProbeAtExit, GivesAForkedChildItsOwnReportAndKeepsTheParentsRunsInTheParents) {
  const auto dir = unique_temp_dir();
  const auto out = dir / "probe.json";
  const std::string err = stderr_of(
      "PERFGATE_PROBE_OUT='" + out.string() + "' '" + PERFGATE_PROBE_FORK_PROGRAM + "'", dir);
  EXPECT_EQ(err, "");
  std::vector<std::filesystem::path> children;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("probe.") && name != "probe.json") children.push_back(entry.path());
  }
  ASSERT_EQ(children.size(), 1u);
  const Json parent = read_json(out);
  const Json child = read_json(children[0]);
  std::filesystem::remove_all(dir);

  const std::string child_pid = std::to_string(child["target"]["pid"].get<std::int64_t>());
  EXPECT_EQ(children[0].filename(), "probe." + child_pid + ".json");
  // The parent: its three runs (the one open across the fork included), nothing of the child.
  ASSERT_EQ(parent["runs"].size(), 3u);
  EXPECT_EQ(parent["runs"][0]["regions"][0]["region_id"], "before_fork");
  EXPECT_EQ(parent["runs"][1]["regions"][0]["region_id"], "forking");
  EXPECT_EQ(parent["runs"][2]["regions"][0]["region_id"], "parent_work");
  EXPECT_EQ(warning_codes(parent), Codes{"FORKED"});
  // The child: its own run only; the runs before the fork and the one open across it are
  // the parent's.
  ASSERT_EQ(child["runs"].size(), 1u);
  EXPECT_EQ(child["runs"][0]["regions"][0]["region_id"], "child_work");
  EXPECT_EQ(warning_codes(child), Codes{"FORKED_CHILD"});
  EXPECT_EQ(child["warnings"][0]["message"],
            "this report is of process " + child_pid + ", forked from process " +
                std::to_string(parent["target"]["pid"].get<std::int64_t>()) +
                ": what was recorded before the fork is in the parent's report; the run open "
                "at the fork is the parent's, so the child's calls inside it are not counted "
                "here");
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

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
