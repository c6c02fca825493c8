// End-to-end: `perfgate ab` on real processes (sleeps and small shell scripts).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include <chrono>
#include <thread>

#include "model/json.hpp"
#include "support/background_perfgate.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

Json read_json(const fs::path& path) {
  return Json::parse(read_text_file(path));
}

TEST(AbCommand, AHeadEightTimesAsSlowIsARegressionAndIsProfiled) {
  TempDir dir;
  // Eight times as slow: a loaded machine (a build beside the tests) delays a run by tens
  // of milliseconds, which made a head only 100 ms slower pass a pair now and then.
  const auto result = run_perfgate({"ab", "--base", "sleep 0.05", "--head", "sleep 0.4", "--budget",
                                    "duration=25%,0.02s", "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.out, HasSubstr("adhoc  REGRESSION\n  latency over budget (+25% and 20 ms) "
                                    "in 3 of 3 pairs"));
  EXPECT_THAT(result.err, HasSubstr("perfgate ab: adhoc head pair 3"));
  const Json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results["schema_version"], 1);
  EXPECT_EQ(results["complete"], true);
  EXPECT_EQ(results["verdict_exit_code"], 1);
  const Json& scenario = results["scenarios"][0];
  EXPECT_EQ(scenario["status"], "REGRESSION");
  EXPECT_EQ(scenario["runs"].size(), 8u);
  EXPECT_EQ(scenario["metrics"]["latency"]["pairs_over_budget"], 3);
  EXPECT_TRUE(scenario["profile"].is_object());
  EXPECT_TRUE(fs::exists(dir / "out/logs/adhoc/head-3.log"));
  const std::string report = read_text_file(dir / "out/report.md");
  EXPECT_THAT(report, HasSubstr("## adhoc: REGRESSION"));
  EXPECT_THAT(report, HasSubstr("| latency | "));
  EXPECT_THAT(report, HasSubstr("Profile"));
  EXPECT_EQ(read_json(dir / "out/checksums.json")["files"], Json::object());
}

// Issue 33, 9: one `ab` left 12 daemons behind. Each run's daemon is killed at its end
// and the scenario's warnings say so.
TEST(AbCommand, KillsTheDaemonsEachRunLeavesBehind) {
  TempDir dir;
  const std::string daemon = "( setsid sh -c 'echo $$ >> \"" + (dir / "daemons.pid").string() +
                             "\"; exec sleep 300' & ) ; sleep 0.05";
  const auto result =
      run_perfgate({"ab", "--base", daemon, "--head", daemon, "--out", "out"}, dir.path());
  // The same command on both sides: PASS, or INCONCLUSIVE (2) when the machine is busy
  // (ctest runs tests in parallel); the daemons are what this test is about.
  EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2) << result.exit_code << result.err;
  std::istringstream pids(read_text_file(dir / "daemons.pid"));
  int daemons = 0;
  for (pid_t pid = 0; pids >> pid; ++daemons) EXPECT_TRUE(testing::process_gone(pid)) << pid;
  EXPECT_GE(daemons, 8);  // a warmup and three measured runs of each side
  const Json scenario = read_json(dir / "out/results.json")["scenarios"][0];
  EXPECT_THAT(scenario["warnings"].dump(), HasSubstr("ESCAPED_PROCESSES: run "));
}

TEST(AbCommand, StatMethodDecidesAPairAtATimeAndSaysWithWhatInterval) {
  TempDir dir;
  const auto result =
      run_perfgate({"ab", "--method", "stat", "--base", "sleep 0.02", "--head", "sleep 0.06",
                    "--budget", "duration=25%,0.005s", "--out", "out"},
                   dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("adhoc  REGRESSION\n  latency +"));
  EXPECT_THAT(result.out, HasSubstr("over budget with 99% confidence"));
  const Json scenario = read_json(dir / "out/results.json")["scenarios"][0];
  EXPECT_EQ(scenario["rules"]["method"], "stat");
  EXPECT_EQ(scenario["rules"]["alpha"], 0.01);
  EXPECT_EQ(scenario["rules"]["max_pairs"], 60);
  EXPECT_GE(scenario["pairs_judged"].get<int>(), 6);  // nothing is decided before 6 pairs
  EXPECT_GT(scenario["metrics"]["latency"]["change"]["lower"].get<double>(), 0.25);
}

TEST(AbCommand, StatMethodPrintsThePassesIntervalOnTheTerminalToo) {
  TempDir dir;
  const auto result =
      run_perfgate({"ab", "--method", "stat", "--base", "sleep 0.02", "--head", "sleep 0.02",
                    "--budget", "duration=60%,0.001s", "--out", "out"},
                   dir.path());
  // Equal sides within a 60 % budget: a PASS, unless this machine is too busy to decide.
  ASSERT_THAT(result.exit_code, AnyOf(0, 2)) << result.out << result.err;
  if (result.exit_code != 0) GTEST_SKIP() << "INCONCLUSIVE on this machine: " << result.out;
  EXPECT_THAT(result.out, HasSubstr("adhoc  PASS\n  every metric is within budget with 99% "
                                    "confidence after "));
  EXPECT_THAT(result.out, ::testing::ContainsRegex("latency [+-][0-9.]+% \\[[+-][0-9.]+%, "
                                                   "[+-][0-9.]+%\\]"));
}

TEST(AbCommand, RefusesStatFlagsThatWouldNotKeepTheirErrorRate) {
  TempDir dir;
  auto result = run_perfgate(
      {"ab", "--method", "stat", "--alpha", "5", "--base", "true", "--head", "true", "--out", "o"},
      dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--alpha 5: the chance of a wrong verdict is a fraction"));
  result = run_perfgate({"ab", "--method", "stat", "--max-pairs", "3", "--base", "true", "--head",
                         "true", "--out", "o"},
                        dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--max-pairs 3: the statistical rule needs at least 6 pairs"));
  result = run_perfgate({"ab", "--alpha", "0.05", "--base", "true", "--head", "true", "--out", "o"},
                        dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("pass --method stat with them"));
  EXPECT_FALSE(fs::exists(dir / "o"));  // refused before the output folder exists
}

TEST(AbCommand, NamesTheThreePairProtocolPairsAndStillTakesItsFirstName) {
  TempDir dir;
  const auto help = run_perfgate({"ab", "--help"}, dir.path());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("TEXT:{pairs,stat}"));
  EXPECT_THAT(help.out, HasSubstr("the 3-pair protocol"));
  EXPECT_THAT(help.out, Not(HasSubstr("seed")));
  const auto result = run_perfgate(
      {"ab", "--method", "seed", "--base", "true", "--head", "true", "--out", "o"}, dir.path());
  EXPECT_NE(result.exit_code, 64) << result.err;  // PASS, or INCONCLUSIVE on a busy machine
  EXPECT_EQ(read_json(dir / "o/results.json")["scenarios"][0]["rules"]["method"], "pairs");
}

TEST(AbCommand, IdenticalSidesAreNeverARegression) {
  TempDir dir;
  const auto result = run_perfgate({"ab", "--base", "sleep 0.05", "--repeat-check", "--budget",
                                    "duration=25%,0.02s", "--out", "out"},
                                   dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.out << result.err;
  const Json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results["method"]["repeat_check"], true);
  EXPECT_EQ(results["scenarios"][0]["argv"]["base"], results["scenarios"][0]["argv"]["head"]);
}

TEST(AbCommand, AHeadWhoseDurationAlternatesWildlyIsInconclusive) {
  TempDir dir;
  const std::string counter = (dir / "count").string();
  const std::string head = "n=$(cat " + counter + " 2>/dev/null || echo 0); echo $((n+1)) > " +
                           counter +
                           "; if [ $((n % 2)) -eq 0 ]; then sleep 0.05; else sleep 0.4; fi";
  const auto result = run_perfgate({"ab", "--base", "sleep 0.2", "--head", head, "--budget",
                                    "duration=25%,0.02s", "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("adhoc  INCONCLUSIVE\n"));
  EXPECT_THAT(result.out, HasSubstr("but only 3 of 5 pairs were over budget"));
  EXPECT_THAT(result.out, HasSubstr("rerun on a quieter machine before relying on it"));
  EXPECT_THAT(read_text_file(dir / "out/report.md"),
              HasSubstr("- Neither a regression nor a pass: rerun on a quieter machine before "
                        "relying on it.\n"));
  EXPECT_EQ(read_json(dir / "out/results.json")["scenarios"][0]["runs"].size(), 12u);
}

TEST(AbCommand, AHeadThatFailsItsCorrectnessCheckIsAnErrorWithTheReason) {
  TempDir dir;
  dir.write("scenarios.toml", R"(
[scenarios.greeting]
command = "{side}"
expect_output = ['^hello']
)");
  const auto result = run_perfgate({"ab", "--base", "echo hello", "--head", "echo bye",
                                    "--scenario-file", "scenarios.toml", "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.out, HasSubstr("greeting  ERROR\n  the head warmup run is invalid evidence: "
                                    "output does not match expect_output '^hello'"));
  const Json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results["scenarios"][0]["status"], "ERROR");
  EXPECT_EQ(results["scenario_file"]["sha256"].get<std::string>().size(), 64u);
}

TEST(AbCommand, RunsScenarioCommandsInsideEachCheckoutWithAValidator) {
  TempDir dir;
  dir.write("base/version.txt", "v1\n");
  dir.write("head/version.txt", "v2\n");
  dir.write("scenarios.toml", R"(
[scenarios.version]
command = "cat version.txt > \"$PERFGATE_AB_OUTPUT_DIR/out.txt\""
validator = "grep -q '^v' \"$PERFGATE_AB_OUTPUT_DIR/out.txt\""
)");
  const auto result = run_perfgate({"ab", "--base-dir", "base", "--head-dir", "head",
                                    "--scenario-file", "scenarios.toml", "--out", "out"},
                                   dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.out << result.err;
  EXPECT_EQ(read_text_file(dir / "out/runs/version/head-1/out.txt"), "v2\n");
  EXPECT_EQ(read_text_file(dir / "out/runs/version/base-1/out.txt"), "v1\n");
}

TEST(AbCommand, RefusesAScenarioWithoutSideThatWouldCompareABuildWithItself) {
  TempDir dir;
  dir.write("scenarios.toml", "[scenarios.sort]\ncommand = [\"./build/sorter\"]\n");
  const auto result =
      run_perfgate({"ab", "--base", "./build-main/sorter", "--head", "./build-pr/sorter",
                    "--scenario-file", "scenarios.toml", "--out", "out"},
                   dir.path());
  EXPECT_EQ(result.exit_code, 65) << result.err;
  EXPECT_THAT(result.err, HasSubstr("scenarios.toml: scenarios.sort.command: runs the same "
                                    "command on both sides (./build/sorter), so ab would compare "
                                    "a build with itself. Put {side} where"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(AbCommand, RefusesAnOutputFolderThatAlreadyExists) {
  TempDir dir;
  fs::create_directories(dir / "out");
  const auto result =
      run_perfgate({"ab", "--base", "true", "--head", "true", "--out", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--out out: the folder already exists"));
  EXPECT_TRUE(fs::is_empty(dir / "out"));
}

TEST(AbCommand, RefusesBothACommandAndACheckoutPair) {
  TempDir dir;
  const auto result =
      run_perfgate({"ab", "--base", "true", "--head-dir", ".", "--out", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("give either --base and --head"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(AbCommand, AKilledRunLeavesAReadablePartialResultsFile) {
  TempDir dir;
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(dir.path().c_str()) != 0) ::_exit(126);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(PERFGATE_BINARY, PERFGATE_BINARY, "ab", "--base", "sleep 0.2", "--head", "sleep 0.2",
            "--out", "out", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const fs::path results = dir / "out/results.json";
  std::size_t runs = 0;
  for (int attempt = 0; attempt < 200 && runs < 2; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    if (!fs::exists(results)) continue;
    runs = read_json(results)["scenarios"][0]["runs"].size();
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_GE(runs, 2u);
  const Json partial = read_json(results);
  EXPECT_EQ(partial["complete"], false);
  EXPECT_EQ(partial["scenarios"][0]["status"], "RUNNING");
  EXPECT_LT(partial["scenarios"][0]["runs"].size(), 8u);
}

// A measured program that starts a child of its own, records both pids, and waits: what an
// interruption must kill.
constexpr const char* kLongRun =
    "sleep 300 & echo $! > \"$PWD/child.pid\"; echo $$ > \"$PWD/leader.pid\"; wait";

void expect_interrupted(int signal, int exit_code, const std::map<std::string, std::string>& env) {
  TempDir dir;
  testing::BackgroundPerfgate perfgate(
      {"ab", "--base", "true", "--head", kLongRun, "--out", "perf-out/"}, dir.path(), env);
  const pid_t leader = testing::wait_for_pid_file(dir / "leader.pid");
  const pid_t child = testing::wait_for_pid_file(dir / "child.pid");
  ASSERT_GT(leader, 0);
  ASSERT_GT(child, 0);
  perfgate.signal(signal);
  EXPECT_EQ(perfgate.wait(), exit_code) << read_text_file(dir / "perfgate.err");
  EXPECT_TRUE(testing::process_gone(leader));
  EXPECT_TRUE(testing::process_gone(child));

  const Json results = read_json(dir / "perf-out/results.json");
  EXPECT_EQ(results["complete"], false);
  const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_EQ(results["interrupted"]["signal"], name);
  EXPECT_EQ(results["interrupted"]["reason"],
            "interrupted by " + name +
                " during scenario adhoc; the runs it started were killed and these results are "
                "partial");
  EXPECT_EQ(results["scenarios"][0]["status"], "INTERRUPTED");
  EXPECT_EQ(results["scenarios"][0]["runs"].size(), 1u);  // the base warmup; not the killed run
  const std::string report = read_text_file(dir / "perf-out/report.md");
  EXPECT_THAT(report, HasSubstr("# perfgate ab: INTERRUPTED\n\n**Interrupted**: interrupted by " +
                                name + " during scenario adhoc"));
  EXPECT_THAT(report, HasSubstr("## adhoc: INTERRUPTED"));
  EXPECT_THAT(read_text_file(dir / "perfgate.err"),
              HasSubstr("perfgate ab: interrupted by " + name));
}

TEST(AbCommand, SigtermKillsTheRunsItStartedAndWritesAPartialReport) {
  expect_interrupted(SIGTERM, 143, {});
}

TEST(AbCommand, SigintKillsTheRunsEvenWhenPerfgateStartsThemItself) {
  // Without perfgate-spawner perfgate is the runs' parent: the other path to the same end.
  expect_interrupted(SIGINT, 130, {{"PERFGATE_SPAWNER", ""}});
}

// `perfgate ab ... | tee ab.log`, then Ctrl-C: the signal ends tee as well, and perfgate's
// next line to stdout meets a closed pipe. It must still write its partial report.
TEST(AbCommand, AClosedPipeOnStdoutDoesNotLoseThePartialReport) {
  TempDir dir;
  testing::BackgroundPerfgate perfgate(
      {"ab", "--base", "true", "--head", kLongRun, "--out", "perf-out/"}, dir.path(), {},
      /*stdout_pipe=*/true);
  const pid_t leader = testing::wait_for_pid_file(dir / "leader.pid");
  ASSERT_GT(leader, 0);
  perfgate.close_stdout_pipe();
  perfgate.signal(SIGINT);
  EXPECT_EQ(perfgate.wait(), 130) << read_text_file(dir / "perfgate.err");
  EXPECT_TRUE(testing::process_gone(leader));
  const Json results = read_json(dir / "perf-out/results.json");
  EXPECT_EQ(results["complete"], false);
  EXPECT_EQ(results["scenarios"][0]["status"], "INTERRUPTED");
  EXPECT_THAT(read_text_file(dir / "perf-out/report.md"),
              HasSubstr("# perfgate ab: INTERRUPTED\n"));
}

TEST(AbCommand, ATimedOutRunIsAnErrorThatNamesItsLimit) {
  TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--base", "true", "--head", "sleep 30", "--timeout", "1s", "--out", "out"},
      dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.out, HasSubstr("adhoc  ERROR\n  the head warmup run is invalid evidence: "
                                    "timed out after 1 s"));
  const Json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results["scenarios"][0]["timeout"], (Json{{"seconds", 1.0}, {"source", "--timeout"}}));
  EXPECT_THAT(read_text_file(dir / "out/report.md"),
              HasSubstr("- Time limit per run: 1 s (--timeout)\n"));
}

TEST(AbCommand, WithoutATimeoutTheReportStatesTheDerivedDefault) {
  TempDir dir;
  const auto result =
      run_perfgate({"ab", "--base", "true", "--head", "true", "--out", "out"}, dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.err;
  EXPECT_EQ(read_json(dir / "out/results.json")["scenarios"][0]["timeout"],
            (Json{{"seconds", 60.0}, {"source", "default"}}));
  EXPECT_THAT(read_text_file(dir / "out/report.md"),
              HasSubstr("- Time limit per run: 60 s (default: 10 times the slowest warmup, at "
                        "least 60 s; the base warmup has none)\n"));
}

TEST(AbCommand, RefusesATimeoutThatIsNotADurationAndLeavesNoFolder) {
  TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--base", "true", "--head", "true", "--timeout", "soon", "--out", "a/b/out"},
      dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--timeout: 'soon' is not a duration"));
  EXPECT_FALSE(fs::exists(dir / "a"));
}

TEST(AbCommand, AcceptsAnOutputFolderWrittenWithATrailingSlash) {
  TempDir dir;
  const auto result =
      run_perfgate({"ab", "--base", "true", "--head", "true", "--out", "perf-out/"}, dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.err;
  EXPECT_TRUE(fs::exists(dir / "perf-out/results.json"));
  EXPECT_THAT(result.out, HasSubstr("results: perf-out/results.json  report: perf-out/report.md"));
}

TEST(AbCommand, ARefusedCommandLeavesNoFolderBehind) {
  TempDir dir;
  dir.write("scenarios.toml", "[scenarios.quick]\ncommand = \"{side}\"\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--scenario", "quik"},
           {"--budget", "duration=5"},
           {"--suite", "full", "--scenario-file", "missing.toml"},
       }) {
    std::vector<std::string> command = {"ab",   "--base", "true",   "--head",
                                        "true", "--out",  "new/out"};
    if (args.front() == "--scenario")
      command.insert(command.end(), {"--scenario-file", "scenarios.toml"});
    command.insert(command.end(), args.begin(), args.end());
    const auto result = run_perfgate(command, dir.path());
    EXPECT_NE(result.exit_code, 0) << args.front();
    EXPECT_FALSE(fs::exists(dir / "new")) << args.front();
  }
}

TEST(AbCommand, AMistypedScenarioSuggestsTheNearestName) {
  TempDir dir;
  dir.write("scenarios.toml", "[scenarios.quick]\n[scenarios.slow]\n");
  const auto result = run_perfgate({"ab", "--base", "true", "--head", "true", "--scenario-file",
                                    "scenarios.toml", "--scenario", "quik", "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--scenario quik: scenarios.toml has no such scenario. Did "
                                    "you mean 'quick'?"));
}

TEST(AbCommand, ListsEveryErrorOfAScenarioTableAtOnce) {
  TempDir dir;
  dir.write("scenarios.toml", "[scenarios.quick]\ncomand = \"true\"\nexpect_exit = \"zero\"\n");
  const auto result = run_perfgate({"ab", "--base", "true", "--head", "true", "--scenario-file",
                                    "scenarios.toml", "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("scenarios.quick.comand: unknown key 'comand'. Did you mean "
                                    "'command'?"));
  EXPECT_THAT(result.err, HasSubstr("scenarios.quick.expect_exit: "));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(AbCommand, ExpectOutputMatchesOneLineOfMultiLineOutput) {
  TempDir dir;
  dir.write("scenarios.toml", R"(
[scenarios.answer]
command = "{side}"
expect_output = ['^result: 42$']
)");
  const auto result = run_perfgate(
      {"ab", "--base", "printf 'start\\nresult: 42\\nend\\n'", "--head",
       "printf 'start\\nresult: 42\\nend\\n'", "--scenario-file", "scenarios.toml", "--out", "out"},
      dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.out << result.err;
  EXPECT_THAT(result.out, Not(HasSubstr("does not match")));
}

TEST(AbCommand, AMissingProgramSaysNotFound) {
  TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--base", "true", "--head", "./no-such-program", "--out", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.out, HasSubstr("the head warmup run is invalid evidence: command not found "
                                    "(exit status 127 from the shell), expected 0"));
}

TEST(AbCommand, ACrashUnderTheShellNamesItsSignal) {
  TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--base", "true", "--head", "sh -c 'kill -SEGV $$'; exit $?", "--out", "out"},
      dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.out, HasSubstr("killed by SIGSEGV (exit status 139 from the shell), "
                                    "expected 0"));
}

TEST(AbCommand, WarnsWhenTheNoiseLimitIsFarWiderThanABudget) {
  TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--base", "true", "--head", "true", "--budget", "duration=5%,1ms", "--out", "out"},
      dir.path());
  const std::string warning =
      "the noise limit (30%) is more than twice the latency budget (+5% and 1 ms): a side "
      "may vary by up to 30% and still count as quiet, so real slowdowns below the noise limit "
      "can pass";
  EXPECT_THAT(result.err, HasSubstr("perfgate ab: warning: adhoc: " + warning));
  EXPECT_THAT(read_text_file(dir / "out/report.md"), HasSubstr("- Warning: " + warning));
}

TEST(AbCommand, JsonPrintsOnlyTheVerdictOnStdout) {
  TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--base", "true", "--head", "./no-such-program", "--json", "--out", "out"},
      dir.path());
  EXPECT_EQ(result.exit_code, 1);
  const Json verdict = Json::parse(result.out);
  EXPECT_EQ(verdict["schema_version"], 1);
  EXPECT_EQ(verdict["verdict"], "ERROR");
  EXPECT_EQ(verdict["exit_code"], 1);
  EXPECT_EQ(verdict["complete"], true);
  EXPECT_EQ(verdict["interrupted"], nullptr);
  EXPECT_EQ(verdict["results"], "out/results.json");
  EXPECT_EQ(verdict["report"], "out/report.md");
  EXPECT_EQ(verdict["scenarios"][0]["name"], "adhoc");
  EXPECT_EQ(verdict["scenarios"][0]["status"], "ERROR");
  EXPECT_THAT(verdict["scenarios"][0]["error"].get<std::string>(), HasSubstr("command not found"));
  EXPECT_THAT(result.err, HasSubstr("adhoc  ERROR"));
}

TEST(AbCommand, AppendsTheReportToTheGithubStepSummary) {
  TempDir dir;
  dir.write("summary.md", "earlier step\n");
  const auto result =
      run_perfgate({"ab", "--base", "true", "--head", "true", "--out", "out"}, dir.path(),
                   {{"GITHUB_STEP_SUMMARY", (dir / "summary.md").string()}});
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.err;
  EXPECT_EQ(read_text_file(dir / "summary.md"),
            "earlier step\n" + read_text_file(dir / "out/report.md") + "\n");
}

TEST(AbCommand, RecordsEachCheckoutsCommitAndWhetherItIsDirty) {
  TempDir dir;
  dir.write("base/app.txt", "v1\n");
  dir.write("head/app.txt", "v2\n");
  dir.write("scenarios.toml", "[scenarios.cat]\ncommand = \"cat app.txt\"\n");
  const std::string git =
      "git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main";
  const std::string setup = "cd base && " + git + " init -q && " + git + " add app.txt && " + git +
                            " commit -qm base && echo v3 > app.txt";
  ASSERT_EQ(std::system(("cd " + dir.path().string() + " && " + setup).c_str()), 0);
  const auto result = run_perfgate({"ab", "--base-dir", "base", "--head-dir", "head",
                                    "--scenario-file", "scenarios.toml", "--out", "out"},
                                   dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.err;
  const Json results = read_json(dir / "out/results.json");
  const std::string commit = results["git"]["base"]["commit"].get<std::string>();
  EXPECT_EQ(commit.size(), 40u);
  EXPECT_EQ(results["git"]["base"]["dirty"], true);
  EXPECT_FALSE(results["git"].contains("head"));  // not a git tree
  EXPECT_THAT(
      read_text_file(dir / "out/report.md"),
      HasSubstr("| Base commit | " + commit + " (dirty: tracked files differ from the commit) |"));
}

TEST(AbCommand, CopiesTheScenariosFileAndNamesChecksumsByAbsolutePath) {
  TempDir dir;
  dir.write("perf/data/input.bin", "data");
  dir.write("perf/scenarios.toml",
            "[scenarios.read]\ncommand = \"{side}\"\nfixtures = [\"data/input.bin\"]\n");
  const auto result = run_perfgate({"ab", "--base", "true", "--head", "true", "--scenario-file",
                                    "perf/scenarios.toml", "--out", "out"},
                                   dir.path());
  EXPECT_THAT(result.exit_code, AnyOf(0, 2)) << result.err;
  EXPECT_EQ(read_text_file(dir / "out/scenarios.toml"),
            read_text_file(dir / "perf/scenarios.toml"));
  EXPECT_EQ(read_json(dir / "out/results.json")["scenario_file"]["copy"], "scenarios.toml");
  const Json files = read_json(dir / "out/checksums.json")["files"];
  const std::string root = fs::canonical(dir.path()).string();
  EXPECT_TRUE(files.contains(root + "/perf/scenarios.toml")) << files.dump();
  EXPECT_EQ(files[root + "/perf/data/input.bin"],
            "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
