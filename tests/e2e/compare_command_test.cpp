// End-to-end: run, compare, seed a baseline through prepare/approve, compare again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

/// A v2 benchmark whose duration is read from a file that is not part of its recipe, so a
/// test can make the "same" benchmark slower.
struct Project {
  TempDir dir;
  std::map<std::string, std::string> env{
      {"PERFGATE_STORE", "sqlite:" + (dir / "store.db").string()}};

  Project() {
    dir.write("suite/perfgate.toml", "[baseline]\ntrusted_run_sources = [\"local\"]\n");
    dir.write("suite/sleepy.toml", R"toml(
benchmark_id = "sleepy"
config_schema_version = 2
workload_id = "sleepy"
variant_id = "file-delay"
benchmark_version = 1
command = "sleep $(cat delay)"
[run_config]
num_warmup_runs = 0
num_measurement_runs = 3
)toml");
    set_delay("0.01");
  }
  void set_delay(const std::string& seconds) { dir.write("suite/delay", seconds + "\n"); }
  testing::CliResult perfgate(std::vector<std::string> args) {
    return run_perfgate(args, dir.path(), env);
  }
  void fresh_results() { fs::remove_all(dir / "out"); }
};

Json only_record(const testing::CliResult& result) {
  const Json records = Json::parse(result.out);
  EXPECT_EQ(records.size(), 1u) << result.out;
  return records.at(0);
}

TEST(CompareCommand, ReportsCalibrationNeededForANewCohortAndExitsZero) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  const auto result = p.perfgate({"compare", "-r", "out", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json record = only_record(result);
  EXPECT_EQ(record["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_EQ(record["baseline_status"], "initialized_new_cohort");
  EXPECT_EQ(record["comparison_status_reason"], "No baseline found for exact comparable identity");
  EXPECT_EQ(record["baseline_eligible"], false);
  bool wrote_normalized = false, wrote_summary = false;
  for (const auto& entry : fs::directory_iterator(p.dir / "out")) {
    const std::string name = entry.path().filename().string();
    wrote_normalized = wrote_normalized || name.rfind("normalized_perf_sleepy_", 0) == 0;
    wrote_summary =
        wrote_summary || (name.rfind("perf_", 0) == 0 && entry.path().extension() == ".md");
  }
  EXPECT_TRUE(wrote_normalized);
  EXPECT_TRUE(wrote_summary);
}

TEST(CompareCommand, SeedsABaselineThroughPrepareAndApproveThenGatesARegression) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "-r", "out", "--upload", "pass"}).exit_code, 0);

  const auto prepared = p.perfgate(
      {"baseline", "prepare", "-o", "manifest.json", "--project", "suite/perfgate.toml"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.err;
  EXPECT_THAT(prepared.out, HasSubstr("1 record(s)"));
  const auto approved =
      p.perfgate({"baseline", "approve", "manifest.json", "--project", "suite/perfgate.toml"});
  ASSERT_EQ(approved.exit_code, 0) << approved.err;
  EXPECT_THAT(approved.out, HasSubstr("approved 1 record(s)"));

  p.fresh_results();
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  const auto same = p.perfgate({"compare", "-r", "out", "--json"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(only_record(same)["comparison_status"], "PASS");

  // 0.01 s -> 0.7 s: latency is worse by more than 8% and by more than 0.5 s.
  p.set_delay("0.7");
  p.fresh_results();
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  const auto slower = p.perfgate({"compare", "-r", "out", "--json"});
  EXPECT_EQ(slower.exit_code, 1);
  const Json record = only_record(slower);
  EXPECT_EQ(record["comparison_status"], "REGRESSION");
  EXPECT_THAT(record["comparison_status_reason"].get<std::string>(),
              HasSubstr("gated metrics regressed against the rolling baseline: latency +"));
}

TEST(CompareCommand, ApproveRefusesAManifestWhoseStoreChangedSincePrepare) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "-r", "out", "--upload", "pass"}).exit_code, 0);
  ASSERT_EQ(
      p.perfgate({"baseline", "prepare", "-o", "manifest.json", "--project", "suite/perfgate.toml"})
          .exit_code,
      0);
  p.fresh_results();
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "-r", "out", "--upload", "always"}).exit_code, 0);
  const auto approved =
      p.perfgate({"baseline", "approve", "manifest.json", "--project", "suite/perfgate.toml"});
  EXPECT_EQ(approved.exit_code, 65);
  EXPECT_THAT(approved.err, HasSubstr("changed since prepare"));
  const auto report = p.perfgate({"report", "--format", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const Json stored = Json::parse(report.out);
  ASSERT_EQ(stored["records"].size(), 2u);
  for (const auto& record : stored["records"]) EXPECT_EQ(record["eligible"], false);
}

TEST(CompareCommand, ApproveRefusesAnEditedManifest) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "-r", "out", "--upload", "pass"}).exit_code, 0);
  ASSERT_EQ(
      p.perfgate({"baseline", "prepare", "-o", "manifest.json", "--project", "suite/perfgate.toml"})
          .exit_code,
      0);
  Json manifest = Json::parse(read_text_file(p.dir / "manifest.json"));
  manifest["records"][0]["run_source"] = "scheduled_main";
  p.dir.write("manifest.json", manifest.dump());
  const auto approved =
      p.perfgate({"baseline", "approve", "manifest.json", "--project", "suite/perfgate.toml"});
  EXPECT_EQ(approved.exit_code, 65);
  EXPECT_THAT(approved.err, HasSubstr("manifest_sha256 does not match"));
}

TEST(CompareCommand, AttributesANonZeroRunnerExitWithoutABreachToInfrastructure) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  const auto result = p.perfgate({"compare", "-r", "out", "--run-rc", "2", "--json"});
  EXPECT_EQ(result.exit_code, 1);
  const Json record = only_record(result);
  EXPECT_EQ(record["comparison_status"], "INFRA_ERROR");
  EXPECT_EQ(record["comparison_status_reason"],
            "test runner exited with status 2 with no attributable static-threshold breach");
}

TEST(CompareCommand, SaysSoWhenTheResultsFolderHoldsRecordsOfEarlierRuns) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ::sleep(1);  // a second run gets another timestamp
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  const auto result = p.perfgate({"compare", "-r", "out"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("holds raw records of 2 runs"));
}

TEST(CompareCommand, AppendsItsMarkdownSummaryToTheGithubStepSummary) {
  Project p;
  p.dir.write("step-summary.md", "earlier step\n");
  p.env["GITHUB_STEP_SUMMARY"] = (p.dir / "step-summary.md").string();
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "-r", "out"}).exit_code, 0);
  const std::string summary = read_text_file(p.dir / "step-summary.md");
  EXPECT_THAT(summary, ::testing::StartsWith("earlier step\n## perfgate comparison"));
  EXPECT_THAT(summary, HasSubstr("| sleepy | **CALIBRATION\\_NEEDED** |"));
}

TEST(ReportCommand, ReportsAStoreThatDoesNotExistAsMissingInputAndCreatesNothing) {
  Project p;
  const auto result = p.perfgate({"report", "--store", "sqlite:nowhere/perf.db"});
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("store sqlite:nowhere/perf.db does not exist"));
  EXPECT_FALSE(fs::exists(p.dir / "nowhere"));
}

TEST(CompareCommand, ReadsRawRecordsInTheSeedSuitesLayoutToo) {
  Project p;
  p.dir.write("seed/perf_video_20260508.json", R"({
    "benchmark_id": "video", "result_schema_version": 2, "device": "NVIDIA L40S",
    "avg_generation_time_s": 20.0, "individual_times_s": [19.0, 20.0, 21.0], "max_peak_memory_mb": 9000.0,
    "thresholds": {"max_generation_time_s": 30.0, "max_peak_memory_mb": 10000.0},
    "timestamp": "2026-05-08T22:00:00+00:00", "run_source": "pr", "dit_time_s": 8.5})");
  const auto result = p.perfgate({"compare", "-r", "seed", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json record = only_record(result);
  EXPECT_EQ(record["comparison_status"], "PASS");
  EXPECT_EQ(record["baseline_status"], "skipped_missing_identity");
  EXPECT_EQ(record["metrics"]["dit_time_s"]["value"], 8.5);
  EXPECT_EQ(record["metrics"]["latency"]["value"], 20.0);
}

TEST(CompareCommand, ReportsAnEmptyResultsFolderAsMissingInput) {
  Project p;
  fs::create_directories(p.dir / "out");
  const auto result = p.perfgate({"compare", "-r", "out"});
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("no raw records (perf_*.json)"));
}

TEST(CompareCommand, RejectsAMalformedRawRecordNamingTheFile) {
  Project p;
  p.dir.write("out/perf_broken_T.json", "{\"result_schema_version\": 1, \"benchmark_id\": 7}");
  const auto result = p.perfgate({"compare", "-r", "out"});
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("perf_broken_T.json"));
  EXPECT_THAT(result.err, HasSubstr("benchmark_id"));
}

TEST(ReportCommand, WritesCsvWithOneColumnPerMetric) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "-o", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "-r", "out", "--upload", "always"}).exit_code, 0);
  const auto result =
      p.perfgate({"report", "--format", "csv", "--since", "1d", "--benchmark", "slee*"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, ::testing::StartsWith(
                              "timestamp,benchmark_id,workload_id,variant_id,benchmark_version,"));
  EXPECT_THAT(result.out, HasSubstr(",cpu_time,latency,memory\r\n"));
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 2);
}

}  // namespace
}  // namespace perfgate
