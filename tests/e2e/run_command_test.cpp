// End-to-end: the real perfgate binary on small suites written by each test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"
#include "support/run_folder.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

/// The raw records of the newest run in the results folder `results`.
std::vector<fs::path> records_in(const fs::path& results) {
  std::vector<fs::path> out;
  const fs::path dir = testing::newest_run_folder(results);
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Json read_json(const fs::path& path) {
  return Json::parse(read_text_file(path));
}

TEST(RunCommand, WritesOneRawRecordPerParameterStateAndExitsZero) {
  TempDir dir;
  dir.write("suite/echo.toml", R"(
benchmark_id = "echo"
command = ["/bin/echo", "size {n}"]
[parameters]
n = [10, 20]
[run_config]
num_warmup_runs = 1
num_measurement_runs = 2
)");
  const auto result = run_perfgate({"run", "suite", "--results-dir", "out"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto records = records_in(dir / "out");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_THAT(records[0].filename().string(), ::testing::StartsWith("perf_echo_n_10__"));
  EXPECT_THAT(records[1].filename().string(), ::testing::StartsWith("perf_echo_n_20__"));
  const Json record = read_json(records[0]);
  EXPECT_EQ(record["result_schema_version"], 1);
  EXPECT_EQ(record["benchmark_id"], "echo[n=10]");
  EXPECT_EQ(record["parameters"]["n"], "10");
  EXPECT_EQ(record["recipe"]["command"], Json({"/bin/echo", "size 10"}));
  EXPECT_EQ(record["success"], true);
  EXPECT_EQ(record["runs"].size(), 3u);
  EXPECT_EQ(record["runs"][0]["warmup"], true);
  EXPECT_EQ(record["metrics"]["latency"]["samples"].size(), 2u);
  EXPECT_EQ(record["metrics"]["latency"]["summary"]["count"], 2);
  EXPECT_EQ(record["recipe_fingerprint"].get<std::string>().size(), 64u);
  EXPECT_THAT(record["hardware_profile_id"].get<std::string>(), ::testing::StartsWith("hw-"));
  EXPECT_THAT(record["software_profile_id"].get<std::string>(), ::testing::StartsWith("sw-"));
  EXPECT_THAT(record["environment_fingerprint"].get<std::string>(), ::testing::StartsWith("env-"));
  EXPECT_THAT(read_text_file(record["worker_log_path"].get<std::string>()), HasSubstr("size 10\n"));
  EXPECT_THAT(result.out, HasSubstr("echo[n=10]  PASS"));
  EXPECT_THAT(result.out, HasSubstr("2 benchmarks: 2 passed, 0 regressed, 0 failed, 0 skipped"));
}

TEST(RunCommand, ExitsOneAndPrintsTheLast200LinesOfTheWorkerLogWhenTheCommandFails) {
  TempDir dir;
  dir.write("fail.toml", R"(
benchmark_id = "fails"
command = "i=1; while [ $i -le 300 ]; do echo line $i; i=$((i+1)); done; exit 3"
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
)");
  const auto result = run_perfgate({"run", "fail.toml", "--results-dir", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("fails failed: measured run 1 of 2: exit status 3"));
  EXPECT_THAT(result.err, HasSubstr("\nline 101\n"));
  EXPECT_THAT(result.err, HasSubstr("\nline 300\n"));
  EXPECT_THAT(result.err, Not(HasSubstr("line 100\n")));
  EXPECT_THAT(result.out, HasSubstr("fails  FAILED  measured run 1 of 2: exit status 3"));
  const auto records = records_in(dir / "out");
  ASSERT_EQ(records.size(), 1u);
  const Json record = read_json(records[0]);
  EXPECT_EQ(record["success"], false);
  EXPECT_EQ(record["runs"].size(), 1u) << "a failed run stops the benchmark";
  EXPECT_EQ(record["runs"][0]["failure"], "exit status 3");
}

TEST(RunCommand, ExitsOneWhenAStaticThresholdIsBreached) {
  TempDir dir;
  dir.write("slow.toml", R"(
benchmark_id = "slow"
command = ["/bin/sleep", "0.05"]
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
[thresholds.default]
max_latency_s = 0.001
max_memory_mb = 10000
)");
  const auto result = run_perfgate({"run", "slow.toml", "--results-dir", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.out, HasSubstr("slow  REGRESSION"));
  EXPECT_THAT(result.out, HasSubstr("BREACH"));
  const Json record = read_json(records_in(dir / "out").at(0));
  EXPECT_EQ(record["static_thresholds"]["status"], "REGRESSION");
  EXPECT_EQ(record["static_thresholds"]["selected_block"], "default");
  EXPECT_EQ(record["success"], true) << "a breach is a verdict, not a failed run";
}

TEST(RunCommand, RunsThatTookTwoLevelsAreAWarningInTheTableAndTheRecord) {
  // Every third run (the warmup is the first) sleeps 300 ms instead of 20 ms: of the nine
  // measured runs, three are slow, as runs that land on a slower CPU are. (60 ms, tried
  // first, left too small a gap beside the fast runs' scatter when ctest ran two sanitized
  // test programs at once: the gap must pass 6 times the larger side's MAD.)
  TempDir dir;
  dir.write("count", "0");
  const std::string counter = (dir / "count").string();
  dir.write("two.toml", "benchmark_id = \"two\"\ncommand = [\"/bin/sh\", \"-c\", \"n=$(cat " +
                            counter + "); echo $((n + 1)) > " + counter +
                            "; if [ $((n % 3)) -eq 0 ]; then sleep 0.3; else sleep 0.02; fi\"]" +
                            R"(
[run_config]
num_warmup_runs = 1
num_measurement_runs = 9
)");
  const auto result = run_perfgate({"run", "two.toml", "-r", "out"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("warning: TWO_LEVELS: the runs' latency took two levels: 6 "
                                    "run(s) near "));
  EXPECT_THAT(result.out, HasSubstr("pin perfgate with 'taskset -c N'"));
  const Json record = read_json(records_in(dir / "out").at(0));
  ASSERT_EQ(record["warnings"].size(), 1u);
  const std::string warning = record["warnings"][0];
  EXPECT_THAT(warning, HasSubstr("6 run(s) near "));
  EXPECT_THAT(warning, HasSubstr(" and 3 near "));
  EXPECT_EQ(read_text_file(dir / "count"), "10\n");
}

TEST(RunCommand, SkipsABenchmarkWhoseDeviceTypesMatchNoDeviceOfThisMachine) {
  TempDir dir;
  dir.write("gpu.toml", R"(
benchmark_id = "gpu-only"
command = ["/bin/true"]
[run_config]
device_types = ["NoSuchAccelerator 9000"]
[thresholds."NoSuchAccelerator 9000"]
max_latency_s = 1
max_memory_mb = 10
[thresholds.default]
max_latency_s = 10
max_memory_mb = 100
)");
  const auto result = run_perfgate({"run", "gpu.toml", "--results-dir", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("gpu-only  SKIPPED  device '"));
  EXPECT_TRUE(records_in(dir / "out").empty());
}

TEST(RunCommand, SkipsABenchmarkThatNeedsMoreGpusThanThisMachineHas) {
  TempDir dir;
  dir.write("g.toml",
            "benchmark_id = \"g\"\ncommand = [\"/bin/true\"]\n[run_config]\nrequired_gpus = 64\n");
  const auto result = run_perfgate({"run", "g.toml", "--results-dir", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(
      result.out,
      HasSubstr("g  SKIPPED  needs 64 GPU(s) (run_config.required_gpus), this machine has "));
}

TEST(RunCommand, PrintsTheRecordsAsJsonWithTheJsonFlag) {
  TempDir dir;
  dir.write("a.json", R"({"benchmark_id": "a", "command": ["/bin/true"],
                          "run_config": {"num_warmup_runs": 0, "num_measurement_runs": 3}})");
  const auto result = run_perfgate({"run", "a.json", "--results-dir", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json records = Json::parse(result.out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["benchmark_id"], "a");
  EXPECT_EQ(records[0]["metrics"]["cpu_time"]["samples"].size(), 3u);
}

TEST(RunCommand, RunsOnlyTheBenchmarksThatMatchTheFilter) {
  TempDir dir;
  dir.write("s/sort.toml", "benchmark_id = \"sort-small\"\ncommand = [\"/bin/true\"]\n");
  dir.write("s/hash.toml", "benchmark_id = \"hash\"\ncommand = [\"/bin/true\"]\n");
  const auto result = run_perfgate({"run", "--filter", "sort*", "s", "-r", "out"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto records = records_in(dir / "out");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(read_json(records[0])["benchmark_id"], "sort-small");
  EXPECT_THAT(result.out, Not(HasSubstr("hash")));
}

TEST(RunCommand, MatchesAStateNameWithBracketsLiterally) {
  TempDir dir;
  dir.write("p.toml",
            "benchmark_id = \"p\"\ncommand = [\"/bin/echo\", \"{n}\"]\n[parameters]\nn = [1, 2]\n");
  const auto result =
      run_perfgate({"run", "p.toml", "--filter", "p[n=2]", "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json records = Json::parse(result.out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["benchmark_id"], "p[n=2]");
}

TEST(RunCommand, ReportsAFilterThatMatchesNothingAsAUsageError) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto result = run_perfgate({"run", "a.toml", "--filter", "zzz*", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--filter"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunCommand, ValidatesTheWholeSuiteBeforeRunningAnything) {
  TempDir dir;
  dir.write("s/good.toml", "benchmark_id = \"good\"\ncommand = \"touch ran-good\"\n");
  dir.write("s/bad.toml", "benchmark_id = \"bad\"\ncomand = [\"/bin/true\"]\n");
  const auto result = run_perfgate({"run", "s", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("bad.toml"));
  EXPECT_THAT(result.err, HasSubstr("Did you mean 'command'?"));
  EXPECT_FALSE(fs::exists(dir / "s" / "ran-good"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunCommand, TurnsLinesOfTheMetricsFileIntoComponentMetrics) {
  TempDir dir;
  dir.write("m.toml", R"(
benchmark_id = "stages"
command = 'echo "{\"name\": \"decode\", \"value\": 0.25, \"unit\": \"s\"}" >> "$PERFGATE_METRICS_OUT"'
[run_config]
num_warmup_runs = 1
num_measurement_runs = 3
[component_metrics]
decode_time_s = "decode"
)");
  const auto result = run_perfgate({"run", "m.toml", "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json metric = Json::parse(result.out)[0]["metrics"]["decode_time_s"];
  EXPECT_EQ(metric["samples"], Json({0.25, 0.25, 0.25}));
  EXPECT_EQ(metric["unit"], "s");
}

std::string child_command(const std::string& mode) {
  return std::string("command = [\"") + PERFGATE_TEST_CHILD + "\", \"" + mode + "\"]\n";
}

TEST(RunCommand, TurnsTheTopLevelRegionsOfAProbeReportIntoComponentMetrics) {
  TempDir dir;
  dir.write("p.toml", "benchmark_id = \"probed\"\n" + child_command("probe") + R"(
[run_config]
num_warmup_runs = 1
num_measurement_runs = 2
)");
  const auto result = run_perfgate({"run", "p.toml", "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json metrics = Json::parse(result.out)[0]["metrics"];
  // decode took 20 ms and 30 ms in the report's two runs: 25 ms per iteration.
  EXPECT_EQ(metrics["decode"]["samples"], Json({0.025, 0.025}));
  EXPECT_EQ(metrics["decode"]["unit"], "s");
  EXPECT_FALSE(metrics.contains("decode/huffman"));
}

TEST(RunCommand, TakesAForkedChildsProbeReportAndCarriesTheProbesWarningsIntoTheRecord) {
  TempDir dir;
  dir.write("p.toml", std::string("benchmark_id = \"forks\"\ncommand = [\"") +
                          PERFGATE_PROBE_FORK_PROGRAM + R"("]
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
)");
  const auto result = run_perfgate({"run", "p.toml", "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json record = Json::parse(result.out)[0];
  // The child wrote probe-N.<pid>.json beside the parent's report: its region counts.
  EXPECT_EQ(record["metrics"]["child_work"]["samples"].size(), 2u);
  EXPECT_EQ(record["metrics"]["parent_work"]["samples"].size(), 2u);
  std::vector<std::string> codes;
  for (const Json& warning : record["warnings"]) {
    const std::string line = warning;
    codes.push_back(line.substr(0, line.find(':', 7)));
  }
  // Once each, however many runs said it.
  EXPECT_EQ(codes, (std::vector<std::string>{"probe: FORKED", "probe: FORKED_CHILD"}));
  EXPECT_THAT(record["warnings"][1].get<std::string>(), HasSubstr("(in a forked child's report)"));
  // And the table says them too.
  const auto table = run_perfgate({"run", "p.toml", "-r", "out"}, dir.path());
  EXPECT_THAT(table.out, HasSubstr("warning: probe: FORKED: the program forked"));
  // And the comparison's Markdown, and the normalised record.
  const auto compared = run_perfgate({"compare", "--init", "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_EQ(Json::parse(compared.out)[0]["quality_metadata"]["measurement_warnings"].size(), 2u);
  std::string markdown;
  for (const auto& entry : fs::directory_iterator(testing::newest_run_folder(dir / "out"))) {
    if (entry.path().extension() == ".md") markdown = read_text_file(entry.path());
  }
  EXPECT_THAT(markdown, HasSubstr("### Warnings\n\n- forks: probe: FORKED: the program forked"));
}

TEST(RunCommand, MapsNestedProbeRegionsThroughComponentMetrics) {
  TempDir dir;
  dir.write("p.toml", "benchmark_id = \"probed\"\n" + child_command("probe") + R"(
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
[component_metrics]
huffman_s = "decode/huffman"
)");
  const auto result = run_perfgate({"run", "p.toml", "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json metrics = Json::parse(result.out)[0]["metrics"];
  EXPECT_EQ(metrics["huffman_s"]["samples"], Json({0.005, 0.005}));
  EXPECT_FALSE(metrics.contains("decode"));
}

TEST(RunCommand, FailsTheRunOfAMalformedProbeReportAndKeepsItBesideTheWorkerLog) {
  TempDir dir;
  dir.write("p.toml", "benchmark_id = \"probed\"\n" + child_command("probe-bad") + R"(
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
)");
  const auto result = run_perfgate({"run", "p.toml", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("measured run 1 of 2: invalid probe report: "));
  EXPECT_THAT(
      result.err,
      HasSubstr("_measured_run_1_of_2.json: runs[0].timing: expected an object, found a string"));
  std::vector<fs::path> kept;
  for (const auto& entry :
       fs::directory_iterator(testing::newest_run_folder(dir / "out") / "worker_logs")) {
    if (entry.path().filename().string().rfind("probe_probed_", 0) == 0)
      kept.push_back(entry.path());
  }
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_THAT(read_text_file(kept[0]), HasSubstr(R"("timing": "fast")"));
}

TEST(RunCommand, RejectsAnUnknownFlagWithExit64) {
  TempDir dir;
  const auto result = run_perfgate({"run", "--no-such-flag"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
}

TEST(RunCommand, ReportsAMissingSuiteWithExit66) {
  TempDir dir;
  const auto result = run_perfgate({"run", "nowhere/", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("nowhere"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunCommand, StopsWithAnIoErrorBeforeRunningWhenTheResultsFolderCannotBeCreated) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = \"touch ran\"\n");
  dir.write("taken", "a file where the results folder should go");
  const auto result = run_perfgate({"run", "a.toml", "-r", "taken/results"}, dir.path());
  EXPECT_EQ(result.exit_code, 74);
  EXPECT_THAT(result.err, HasSubstr("taken/results: cannot create the folder"));
  EXPECT_FALSE(fs::exists(dir / "ran"));
}

TEST(RunCommand, WritesARecordForASuiteInAFolderWhoseNameIsNotUtf8) {
  TempDir dir;
  const std::string folder = "suite\xff";
  dir.write(folder + "/a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto result = run_perfgate({"run", folder, "-r", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json records = Json::parse(result.out);
  EXPECT_NE(records[0]["config_path"].get<std::string>().find("suite\xef\xbf\xbd"),
            std::string::npos)
      << "the bad byte is written as U+FFFD";
}

TEST(RunCommand, ShowsExamplesInItsHelp) {
  TempDir dir;
  const auto result = run_perfgate({"run", "--help"}, dir.path());
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.out, HasSubstr("perfgate run benchmarks/sort.toml --filter 'sort*'"));
}

TEST(RunCommand, StampsCiMetadataAndTheRunSourceFromTheEnvironment) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto result =
      run_perfgate({"run", "a.toml", "-r", "out", "--json"}, dir.path(),
                   {{"PERFGATE_COMMIT", "0123abc"}, {"PERFGATE_RUN_SOURCE", "scheduled_main"}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json record = Json::parse(result.out)[0];
  EXPECT_EQ(record["ci"]["commit"], "0123abc");
  EXPECT_EQ(record["run_source"], "scheduled_main");
}

TEST(RunCommand, PrintsTheWorkerLogTailWhenAStaticThresholdIsBreached) {
  TempDir dir;
  dir.write("slow.toml", R"(
benchmark_id = "slow"
command = "i=1; while [ $i -le 250 ]; do echo line $i; i=$((i+1)); done; sleep 0.05"
[run_config]
num_warmup_runs = 0
num_measurement_runs = 1
[thresholds.default]
max_latency_s = 0.001
max_memory_mb = 10000
)");
  const auto result = run_perfgate({"run", "slow.toml", "--results-dir", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err,
              HasSubstr("perfgate: slow breached its static thresholds: latency mean "));
  EXPECT_THAT(result.err, HasSubstr(" > limit 1 ms\n"));
  EXPECT_THAT(result.err, HasSubstr("---- slow: last 200 lines of "));
  EXPECT_THAT(result.err, HasSubstr("\nline 51\n"));
  EXPECT_THAT(result.err, HasSubstr("\nline 250\n---- end of worker log ----\n"));
  EXPECT_THAT(result.err, Not(HasSubstr("line 50\n")));
}

TEST(RunCommand, PrintsNoWorkerLogForABenchmarkThatPasses) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/echo\", \"hello\"]\n");
  const auto result = run_perfgate({"run", "a.toml", "-r", "out"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, Not(HasSubstr("worker log")));
}

TEST(RunCommand, AnImageUpgradeChangesTheSoftwareProfileIdButNotTheRecipeFingerprint) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto old_image =
      run_perfgate({"run", "a.toml", "-r", "out", "--json"}, dir.path(),
                   {{"PERFGATE_IMAGE_REF", "ghcr.io/acme/dev:py3.12-cuda12.4@sha256:aaaa"}});
  const auto new_image =
      run_perfgate({"run", "a.toml", "-r", "out", "--json"}, dir.path(),
                   {{"PERFGATE_IMAGE_REF", "ghcr.io/acme/dev:py3.12-cuda13.0@sha256:bbbb"}});
  ASSERT_EQ(old_image.exit_code, 0) << old_image.err;
  ASSERT_EQ(new_image.exit_code, 0) << new_image.err;
  const Json before = Json::parse(old_image.out)[0];
  const Json after = Json::parse(new_image.out)[0];
  EXPECT_EQ(after["recipe_fingerprint"], before["recipe_fingerprint"]);
  EXPECT_EQ(after["hardware_profile_id"], before["hardware_profile_id"]);
  EXPECT_NE(after["software_profile_id"], before["software_profile_id"]);
  EXPECT_EQ(after["software_profile"]["image"], "ghcr.io/acme/dev:py3.12-cuda13.0@sha256:bbbb");
  EXPECT_EQ(after["environment_metadata"]["image_ref"],
            "ghcr.io/acme/dev:py3.12-cuda13.0@sha256:bbbb");
}

TEST(RunCommand, NamesPackagesFromPerfgateTomlInTheSoftwareProfile) {
  TempDir dir;
  dir.write("perfgate.toml", R"(
[software_profile]
profile_version = "3"
packages_command = "printf 'kernels 0.3.2\n'"
[software_profile.package_versions]
firmware = "2.1"
)");
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto result = run_perfgate({"run", "a.toml", "-r", "out", "--json"}, dir.path(),
                                   {{"PERFGATE_PROFILE_VERSION", ""}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json software = Json::parse(result.out)[0]["software_profile"];
  EXPECT_EQ(software["profile_version"], "3");
  EXPECT_EQ(software["command_packages"], Json({{"kernels", "0.3.2"}}));
  EXPECT_EQ(software["package_versions"], Json({{"firmware", "2.1"}}));
}

TEST(RunCommand, StopsBeforeRunningWhenThePackagesCommandFails) {
  TempDir dir;
  dir.write("perfgate.toml", "[software_profile]\npackages_command = \"exit 4\"\n");
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto result = run_perfgate({"run", "a.toml", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("software_profile.packages_command: the command failed with "
                                    "exit status 4"));
  EXPECT_TRUE(records_in(dir / "out").empty());
}

TEST(RunCommand, TakesTheRunSourceFromTheSeedsPerfRunSource) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\n");
  const auto result =
      run_perfgate({"run", "a.toml", "-r", "out", "--json"}, dir.path(),
                   {{"PERF_RUN_SOURCE", "scheduled_main"}, {"PERFGATE_RUN_SOURCE", ""}});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Json::parse(result.out)[0]["run_source"], "scheduled_main");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
