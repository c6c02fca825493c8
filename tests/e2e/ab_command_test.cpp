// End-to-end: `perfgate ab` on real processes (sleeps and small shell scripts).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using testing::run_perfgate;

Json read_json(const fs::path& path) {
  return Json::parse(read_text_file(path));
}

TEST(AbCommand, AHeadTwiceAsSlowIsARegressionAndIsProfiled) {
  TempDir dir;
  const auto result = run_perfgate({"ab", "--base", "sleep 0.1", "--head", "sleep 0.2", "--budget",
                                    "duration=25%,0.02s", "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.out, HasSubstr("adhoc  REGRESSION\n  duration over budget (+25% and 0.02 s) "
                                    "in 3 of 3 pairs"));
  EXPECT_THAT(result.err, HasSubstr("perfgate ab: adhoc head pair 3"));
  const Json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results["schema_version"], 1);
  EXPECT_EQ(results["complete"], true);
  EXPECT_EQ(results["verdict_exit_code"], 1);
  const Json& scenario = results["scenarios"][0];
  EXPECT_EQ(scenario["status"], "REGRESSION");
  EXPECT_EQ(scenario["runs"].size(), 8u);
  EXPECT_EQ(scenario["metrics"]["duration"]["pairs_over_budget"], 3);
  EXPECT_TRUE(scenario["profile"].is_object());
  EXPECT_TRUE(fs::exists(dir / "out/logs/adhoc/head-3.log"));
  const std::string report = read_text_file(dir / "out/report.md");
  EXPECT_THAT(report, HasSubstr("## adhoc: REGRESSION"));
  EXPECT_THAT(report, HasSubstr("| duration | "));
  EXPECT_THAT(report, HasSubstr("Profile"));
  EXPECT_EQ(read_json(dir / "out/checksums.json")["files"], Json::object());
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

}  // namespace
}  // namespace perfgate
