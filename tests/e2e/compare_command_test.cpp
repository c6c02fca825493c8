// End-to-end: run, compare, seed a baseline through prepare/approve, compare again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"
#include "support/run_folder.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

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
    // Seed 000's rule, whose absolute floor keeps a 10 ms program's timing noise from
    // failing these tests; compare_stat_test.cpp tests --method stat.
    dir.write("suite/perfgate.toml",
              "[policy]\nmethod = \"seed\"\n\n[baseline]\ntrusted_run_sources = [\"local\"]\n");
    dir.write("suite/sleepy.toml", R"toml(
benchmark_id = "sleepy"
config_schema_version = 2
workload_id = "sleepy"
variant_id = "file-delay"
benchmark_version = 1
command = "echo sleeping for $(cat delay) s; sleep $(cat delay)"
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
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto result = p.perfgate({"compare", "--init", "-r", "out", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json record = only_record(result);
  EXPECT_EQ(record["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_EQ(record["baseline_status"], "initialized_new_cohort");
  EXPECT_EQ(record["comparison_status_reason"], "No baseline found for exact comparable identity");
  EXPECT_EQ(record["baseline_eligible"], false);
  bool wrote_normalized = false, wrote_summary = false;
  // The reports go beside the records they judge, in the run's own folder.
  for (const auto& entry : fs::directory_iterator(testing::newest_run_folder(p.dir / "out"))) {
    const std::string name = entry.path().filename().string();
    wrote_normalized = wrote_normalized || name.rfind("normalized_perf_sleepy_", 0) == 0;
    wrote_summary =
        wrote_summary || (name.rfind("perf_", 0) == 0 && entry.path().extension() == ".md");
  }
  EXPECT_TRUE(wrote_normalized);
  EXPECT_TRUE(wrote_summary);
}

TEST(CompareCommand, ReportsChangePointsOnlyWhenAskedAndKeepsTheStatus) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto plain = p.perfgate({"compare", "--init", "--upload", "always", "-r", "out"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("change points"), std::string::npos);
  const auto asked = p.perfgate({"compare", "-r", "out", "--change-points"});
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_THAT(asked.out,
              HasSubstr("change points among the newest 10 records of each cohort: none\n"));
  std::string summaries;  // of both compares
  for (const auto& entry : fs::directory_iterator(testing::newest_run_folder(p.dir / "out"))) {
    if (entry.path().extension() == ".md") summaries += read_text_file(entry.path());
  }
  EXPECT_THAT(summaries, HasSubstr("## Change points\n\nNone among the newest records"));
  // With --json the records stay the only thing on stdout.
  const auto json = p.perfgate({"compare", "-r", "out", "--change-points", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(only_record(json)["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_THAT(json.err, HasSubstr("change points among the newest 10 records"));
}

TEST(CompareCommand, SeedsABaselineThroughPrepareAndApproveThenGatesARegression) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"}).exit_code, 0);

  const auto prepared = p.perfgate(
      {"baseline", "prepare", "-o", "manifest.json", "--project", "suite/perfgate.toml"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.err;
  EXPECT_THAT(prepared.out, HasSubstr("1 record(s)"));
  const auto approved =
      p.perfgate({"baseline", "approve", "manifest.json", "--project", "suite/perfgate.toml"});
  ASSERT_EQ(approved.exit_code, 0) << approved.err;
  EXPECT_THAT(approved.out, HasSubstr("approved 1 record(s)"));

  p.fresh_results();
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto same = p.perfgate({"compare", "--init", "-r", "out", "--json"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(only_record(same)["comparison_status"], "PASS");

  // 0.01 s -> 0.7 s: latency is worse by more than 8% and by more than 0.5 s.
  p.set_delay("0.7");
  p.fresh_results();
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto slower = p.perfgate({"compare", "--init", "-r", "out", "--json"});
  EXPECT_EQ(slower.exit_code, 1);
  const Json record = only_record(slower);
  EXPECT_EQ(record["comparison_status"], "REGRESSION");
  EXPECT_THAT(record["comparison_status_reason"].get<std::string>(),
              HasSubstr("gated metrics regressed against the rolling baseline: latency +"));
}

TEST(CompareCommand, ApproveRefusesAManifestWhoseStoreChangedSincePrepare) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"}).exit_code, 0);
  ASSERT_EQ(
      p.perfgate({"baseline", "prepare", "-o", "manifest.json", "--project", "suite/perfgate.toml"})
          .exit_code,
      0);
  p.fresh_results();
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "always"}).exit_code, 0);
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
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"}).exit_code, 0);
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
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto result = p.perfgate({"compare", "--init", "-r", "out", "--run-rc", "2", "--json"});
  EXPECT_EQ(result.exit_code, 1);
  const Json record = only_record(result);
  EXPECT_EQ(record["comparison_status"], "INFRA_ERROR");
  EXPECT_EQ(record["comparison_status_reason"],
            "test runner exited with status 2 with no attributable static-threshold breach");
}

TEST(CompareCommand, SaysSoWhenRecordsOfSeveralRunsLieStraightInTheResultsFolder) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ::sleep(1);  // a second run gets another timestamp
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  // Another runner (the seed's pytest plugin) writes every record into one folder.
  fs::create_directories(p.dir / "flat");
  for (const auto& run : fs::directory_iterator(p.dir / "out")) {
    for (const auto& file : fs::directory_iterator(run.path())) {
      if (file.path().extension() == ".json")
        fs::copy_file(file.path(), p.dir / "flat" / file.path().filename());
    }
  }
  const auto result = p.perfgate({"compare", "--init", "-r", "flat"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("holds raw records of 2 runs"));
}

TEST(CompareCommand, AppendsItsMarkdownSummaryToTheGithubStepSummary) {
  Project p;
  p.dir.write("step-summary.md", "earlier step\n");
  p.env["GITHUB_STEP_SUMMARY"] = (p.dir / "step-summary.md").string();
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out"}).exit_code, 0);
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
  const auto result = p.perfgate({"compare", "--init", "-r", "seed", "--json"});
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
  const auto result = p.perfgate({"compare", "--init", "-r", "out"});
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("no raw records (perf_*.json)"));
}

TEST(ReportCommand, WritesCsvWithOneColumnPerMetric) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "always"}).exit_code, 0);
  const auto result =
      p.perfgate({"report", "--format", "csv", "--since", "1d", "--benchmark", "slee*"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, ::testing::StartsWith(
                              "timestamp,benchmark_id,workload_id,variant_id,benchmark_version,"));
  EXPECT_THAT(result.out, HasSubstr(",cpu_time (s),latency (s),memory (MB)\r\n"));
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 2);
}

// --- issue 10: a gate a team can trust -------------------------------------------------

Json stored_records(Project& p) {
  const auto report = p.perfgate({"report", "--format", "json"});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  return Json::parse(report.out)["records"];
}

/// Seeds sleepy's cohort with one approved record at the current delay.
void seed_baseline(Project& p) {
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"}).exit_code, 0);
  ASSERT_EQ(
      p.perfgate({"baseline", "prepare", "-o", "seed.json", "--project", "suite/perfgate.toml"})
          .exit_code,
      0);
  ASSERT_EQ(p.perfgate({"baseline", "approve", "seed.json", "--project", "suite/perfgate.toml"})
                .exit_code,
            0);
  p.fresh_results();
}

TEST(CompareCommand, StoresTheSameMeasurementOnceWhenUploadedAgain) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"}).exit_code, 0);
  const auto again = p.perfgate({"compare", "-r", "out", "--upload", "always"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("already stored: 1 record(s) whose measurement is in sqlite:"));
  EXPECT_THAT(again.out, HasSubstr("(sleepy); not stored again; nothing changed"));
  EXPECT_EQ(stored_records(p).size(), 1u);
}

TEST(CompareCommand, NeverJudgesARecordAgainstAStoredCopyOfItself) {
  Project p;
  seed_baseline(p);
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  // PASS from a trusted source: stored eligible, so it would join its own baseline.
  const auto first = p.perfgate({"compare", "-r", "out", "--upload", "pass", "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(only_record(first)["baseline_eligible"], true);
  const auto second = p.perfgate({"compare", "-r", "out", "--upload", "always", "--json"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const Json record = only_record(second);
  for (const Json& comparison : record["comparisons"]) {
    EXPECT_EQ(comparison["baseline_count"], 1) << comparison.dump();
  }
  EXPECT_EQ(stored_records(p).size(), 2u);
}

TEST(CompareCommand, StoresOnlyTheNewRecordsOfABatchThatMixesStoredAndNewOnes) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "always"}).exit_code, 0);
  ::sleep(1);  // the second run gets its own timestamp and file
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto retry = p.perfgate({"compare", "-r", "out", "--all", "--upload", "always"});
  ASSERT_EQ(retry.exit_code, 0) << retry.err;
  EXPECT_THAT(retry.out, HasSubstr("stored 1 record(s) in sqlite:"));
  EXPECT_THAT(retry.out, HasSubstr("already stored: 1 record(s)"));
  EXPECT_EQ(stored_records(p).size(), 2u);
}

TEST(CompareCommand, RefusesANamedStoreThatDoesNotExistAndCreatesNothing) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  for (const char* upload : {"never", "pass"}) {
    const auto result = p.perfgate(
        {"compare", "-r", "out", "--store", "sqlite:typo/perfgate.db", "--upload", upload});
    EXPECT_EQ(result.exit_code, 66) << upload;
    EXPECT_THAT(result.err, HasSubstr("store sqlite:typo/perfgate.db does not exist"));
    EXPECT_THAT(result.err, HasSubstr("pass --init"));
  }
  p.env["PERFGATE_STORE"] = "dir:typo-store";
  EXPECT_EQ(p.perfgate({"compare", "-r", "out"}).exit_code, 66);
  EXPECT_FALSE(fs::exists(p.dir / "typo"));
  EXPECT_FALSE(fs::exists(p.dir / "typo-store"));
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));
}

TEST(CompareCommand, CreatesANamedStoreOnlyWithInitAndChangesNothingElseWithIt) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  // --init with upload never still writes nothing.
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));
  ASSERT_EQ(p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(p.dir / "store.db"));
  EXPECT_EQ(stored_records(p).size(), 1u);
  const auto again = p.perfgate({"compare", "--init", "-r", "out", "--upload", "pass"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(stored_records(p).size(), 1u);
}

TEST(CompareCommand, CreatesTheDefaultStoreOnFirstUploadButNotWithUploadNever) {
  Project p;
  p.env.erase("PERFGATE_STORE");
  p.dir.write("suite/perfgate.toml", "[baseline]\ntrusted_run_sources = [\"local\"]\n");
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto never = p.perfgate({"compare", "-r", "out"});
  ASSERT_EQ(never.exit_code, 0) << never.err;
  EXPECT_FALSE(fs::exists(p.dir / ".perfgate" / "perfgate.db"));
  const auto pass = p.perfgate({"compare", "-r", "out", "--upload", "pass"});
  ASSERT_EQ(pass.exit_code, 0) << pass.err;
  EXPECT_TRUE(fs::exists(p.dir / ".perfgate" / "perfgate.db"));
}

// A 10 ms program under the default absolute floors may double and pass: compare says so,
// as import does, instead of reading "ok" in silence.
TEST(CompareCommand, SaysWhenAMetricIsSmallerThanItsAbsoluteFloor) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto result = p.perfgate({"compare", "--init", "-r", "out"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("perfgate: note: latency of 1 record(s) is smaller than its "
                                    "policy's threshold_absolute ("));
  EXPECT_THAT(result.err, HasSubstr("Set [policies.latency] threshold_absolute in perfgate.toml"));
}

TEST(CompareCommand, JudgesStoresAndSummarisesTheOthersWhenOneRawRecordIsMalformed) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const fs::path run = fs::relative(testing::newest_run_folder(p.dir / "out"), p.dir.path());
  p.dir.write((run / "perf_broken_T.json").string(),
              "{\"result_schema_version\": 1, \"benchmark_id\": 7}");
  p.dir.write((run / "perf_truncated_T.json").string(), "{\"result_schema_version\": 1, ");
  const auto result =
      p.perfgate({"compare", "--init", "-r", "out", "--upload", "always", "--json"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const Json records = Json::parse(result.out);
  ASSERT_EQ(records.size(), 3u);
  std::map<std::string, Json> by_name;
  for (const Json& r : records) by_name[r["benchmark_id"].get<std::string>()] = r;
  ASSERT_EQ(by_name.count("perf_broken_T.json"), 1u) << result.out;
  EXPECT_EQ(by_name["perf_broken_T.json"]["comparison_status"], "INFRA_ERROR");
  EXPECT_THAT(by_name["perf_broken_T.json"]["comparison_status_reason"].get<std::string>(),
              HasSubstr("the raw record cannot be read: "));
  EXPECT_THAT(by_name["perf_broken_T.json"]["comparison_status_reason"].get<std::string>(),
              HasSubstr("perf_broken_T.json: benchmark_id: must be a string"));
  EXPECT_THAT(by_name["perf_truncated_T.json"]["comparison_status_reason"].get<std::string>(),
              HasSubstr("perf_truncated_T.json: not valid JSON"));
  EXPECT_EQ(by_name["sleepy"]["comparison_status"], "CALIBRATION_NEEDED");
  // The readable record is stored; the unreadable ones are not measurements.
  const Json stored = stored_records(p);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0]["benchmark_id"], "sleepy");
  // The Markdown summary lists all three.
  bool summarised = false;
  for (const auto& entry : fs::directory_iterator(p.dir / run)) {
    if (entry.path().extension() != ".md") continue;
    const std::string md = read_text_file(entry.path());
    summarised = md.find("perf\\_broken\\_T.json") != std::string::npos ||
                 md.find("perf_broken_T.json") != std::string::npos;
  }
  EXPECT_TRUE(summarised);
}

TEST(CompareCommand, ReadsTheSeedsCiVariablesAsAliases) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  p.env["PERF_UPLOAD_POLICY"] = "pass";
  p.env["PERF_REPORTS_DIR"] = (p.dir / "reports").string();
  const auto stored = p.perfgate({"compare", "--init", "-r", "out"});
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  EXPECT_THAT(stored.out, HasSubstr("stored 1 record(s)"));
  EXPECT_THAT(stored.out, HasSubstr("summary: " + (p.dir / "reports").string() + "/perf_"));
  p.env["PERF_UPLOAD_POLICY"] = "sometimes";
  const auto bad = p.perfgate({"compare", "-r", "out"});
  EXPECT_EQ(bad.exit_code, 64);
  EXPECT_THAT(bad.err, HasSubstr("PERF_UPLOAD_POLICY='sometimes': use never, pass or always"));
  p.env.erase("PERF_UPLOAD_POLICY");
  p.env["PERF_PYTEST_RC"] = "3";
  const auto failed = p.perfgate({"compare", "-r", "out", "--json"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_EQ(only_record(failed)["comparison_status_reason"],
            "test runner exited with status 3 with no attributable static-threshold breach");
}

TEST(CompareCommand, PrintsTheWorkerLogTailOfAScheduledRegressionAndCopiesItToTheReports) {
  Project p;
  seed_baseline(p);
  // 0.01 s -> 0.7 s: latency is worse by more than 8% and by more than 0.5 s.
  p.set_delay("0.7");
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const auto result = p.perfgate(
      {"compare", "-r", "out", "--run-source", "scheduled_main", "--reports-dir", "reports"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.err, HasSubstr("---- sleepy: last 200 lines of "));
  EXPECT_THAT(result.err, HasSubstr("sleeping for 0.7 s\n"));
  EXPECT_THAT(result.err, HasSubstr("---- end of worker log ----"));
  std::string copy;
  for (const auto& entry : fs::directory_iterator(p.dir / "reports")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("worker_sleepy_", 0) == 0 && entry.path().extension() == ".md")
      copy = read_text_file(entry.path());
  }
  EXPECT_THAT(copy, HasSubstr("sleeping for 0.7 s"));
  // A pull request's compare leaves the tail to the run step.
  const auto pr = p.perfgate({"compare", "-r", "out", "--run-source", "pr"});
  EXPECT_EQ(pr.exit_code, 1);
  EXPECT_THAT(pr.err, ::testing::Not(HasSubstr("last 200 lines")));
}

TEST(CompareCommand, CallsARawRecordWithANumberBeyondADoubleInvalidJsonNotAnInternalError) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const fs::path run = fs::relative(testing::newest_run_folder(p.dir / "out"), p.dir.path());
  p.dir.write((run / "perf_huge_T.json").string(), "{\"result_schema_version\": 1e400}");
  const auto result = p.perfgate({"compare", "--init", "-r", "out", "--json"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const Json records = Json::parse(result.out);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["benchmark_id"], "perf_huge_T.json");
  EXPECT_EQ(records[0]["comparison_status"], "INFRA_ERROR");
  EXPECT_THAT(records[0]["comparison_status_reason"].get<std::string>(),
              HasSubstr("perf_huge_T.json: not valid JSON"));
}

TEST(CompareCommand, NamesAnUnreadableRawRecordWhoseFileNameIsNotUtf8) {
  Project p;
  ASSERT_EQ(p.perfgate({"run", "suite", "--results-dir", "out"}).exit_code, 0);
  const fs::path run = fs::relative(testing::newest_run_folder(p.dir / "out"), p.dir.path());
  p.dir.write((run / "perf_\xff<script>\"q.json").string(), "{\"x\":");
  const auto result = p.perfgate({"compare", "--init", "-r", "out", "--json"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const Json records = Json::parse(result.out);
  ASSERT_EQ(records.size(), 2u);
  // Files are read in name order: the 0xff byte sorts after "sleepy".
  EXPECT_EQ(records[0]["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_EQ(records[1]["benchmark_id"], "perf_\xef\xbf\xbd<script>\"q.json");
  EXPECT_EQ(records[1]["comparison_status"], "INFRA_ERROR");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
