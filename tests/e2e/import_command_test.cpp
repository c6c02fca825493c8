// End-to-end: import Google Benchmark results into a fresh store, seed their baseline,
// import again, catch a slower file; malformed input and dry runs store nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

/// A Google Benchmark --benchmark_out file: BM_memcpy/64 with three repetitions of
/// `times_ns` and a bytes_per_second counter, and BM_empty with one.
std::string gbench_json(const std::vector<double>& times_ns) {
  Json rows = Json::array();
  for (std::size_t i = 0; i < times_ns.size(); ++i) {
    rows.push_back({{"name", "BM_memcpy/64"},
                    {"family_index", 0},
                    {"per_family_instance_index", 0},
                    {"run_name", "BM_memcpy/64"},
                    {"run_type", "iteration"},
                    {"repetitions", times_ns.size()},
                    {"repetition_index", i},
                    {"threads", 1},
                    {"iterations", 1000},
                    {"real_time", times_ns[i]},
                    {"cpu_time", times_ns[i] - 1},
                    {"time_unit", "ns"},
                    {"bytes_per_second", 64e9 / times_ns[i]}});
  }
  rows.push_back({{"name", "BM_empty"},
                  {"family_index", 1},
                  {"per_family_instance_index", 0},
                  {"run_name", "BM_empty"},
                  {"run_type", "iteration"},
                  {"repetitions", 1},
                  {"repetition_index", 0},
                  {"threads", 1},
                  {"iterations", 1000000},
                  {"real_time", 2.0},
                  {"cpu_time", 2.0},
                  {"time_unit", "ns"}});
  const Json context = {{"date", "2026-11-30T11:37:04+00:00"},
                        {"host_name", "bench-host"},
                        {"executable", "./bench"},
                        {"num_cpus", 2},
                        {"mhz_per_cpu", 3000},
                        {"cpu_scaling_enabled", false},
                        {"caches", Json::array()},
                        {"load_avg", Json::array()},
                        {"library_build_type", "release"}};
  return Json{{"context", context}, {"benchmarks", rows}}.dump(2);
}

/// A project whose latency policy suits nanosecond benchmarks (5 %, any amount), judged by
/// seed 000's rule (compare_stat_test.cpp tests --method stat), and a store that does not
/// exist yet.
struct Project {
  TempDir dir;
  std::map<std::string, std::string> env{
      {"PERFGATE_STORE", "sqlite:" + (dir / "store.db").string()}};

  Project() {
    dir.write("perfgate.toml",
              "[policy]\nmethod = \"seed\"\n\n"
              "[policies.latency]\nthreshold_percent = 0.05\nthreshold_absolute = 0\n");
    dir.write("results/gbench.json", gbench_json({100, 110, 120}));
  }
  testing::CliResult perfgate(std::vector<std::string> args) {
    return run_perfgate(args, dir.path(), env);
  }
  testing::CliResult import_json(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"import",
                                     "results/gbench.json",
                                     "--benchmark-prefix",
                                     "cpu/",
                                     "--run-source",
                                     "scheduled_main",
                                     "--json",
                                     "--init"};
    args.insert(args.end(), extra.begin(), extra.end());
    return perfgate(args);
  }
  Json stored_records() {
    const auto report = perfgate({"report", "--format", "json"});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    return Json::parse(report.out)["records"];
  }
};

Json by_id(const testing::CliResult& result, const std::string& benchmark_id) {
  for (const Json& record : Json::parse(result.out)) {
    if (record["benchmark_id"] == benchmark_id) return record;
  }
  ADD_FAILURE() << "no record " << benchmark_id << " in " << result.out;
  return Json::object();
}

TEST(ImportCommand, StoresAGoogleBenchmarkFileAsRecordsOfNewCohorts) {
  Project p;
  const auto result = p.import_json();
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_EQ(Json::parse(result.out).size(), 2u);
  const Json memcpy = by_id(result, "cpu/BM_memcpy[64]");
  EXPECT_EQ(memcpy["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_EQ(memcpy["baseline_status"], "initialized_new_cohort");
  EXPECT_EQ(memcpy["baseline_eligible"], false);
  EXPECT_EQ(memcpy["workload_id"], "cpu/BM_memcpy");
  EXPECT_EQ(memcpy["variant_id"], "64");
  EXPECT_EQ(memcpy["benchmark_version"], 1);
  EXPECT_EQ(memcpy["run_source"], "scheduled_main");
  // One state of one file is one measurement: its key digests the file and the state.
  EXPECT_EQ(memcpy["raw_record_sha256"].get<std::string>().size(), 64u);
  EXPECT_DOUBLE_EQ(memcpy["metrics"]["latency"]["value"].get<double>(), 110e-9);
  EXPECT_EQ(memcpy["metrics"]["latency"]["unit"], "s");
  EXPECT_DOUBLE_EQ(memcpy["metrics"]["cpu_time"]["value"].get<double>(), 109e-9);
  EXPECT_EQ(memcpy["metrics"]["bytes_per_second"]["direction"], "higher");
  const Json empty = by_id(result, "cpu/BM_empty");
  EXPECT_EQ(empty["variant_id"], "default");
  EXPECT_EQ(empty["comparison_status"], "CALIBRATION_NEEDED");

  const Json stored = p.stored_records();
  ASSERT_EQ(stored.size(), 2u);
  for (const auto& record : stored) EXPECT_EQ(record["eligible"], false);

  // Without a seeded baseline a second import is still the first of its cohorts.
  const auto again = p.import_json();
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(by_id(again, "cpu/BM_memcpy[64]")["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_EQ(by_id(again, "cpu/BM_memcpy[64]")["recipe_fingerprint"], memcpy["recipe_fingerprint"]);
}

TEST(ImportCommand, PassesTheSameResultsOnceABaselineIsSeededAndFlagsASlowerFile) {
  Project p;
  ASSERT_EQ(p.import_json().exit_code, 0);
  const auto prepared = p.perfgate({"baseline", "prepare", "-o", "manifest.json"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.err;
  EXPECT_THAT(prepared.out, HasSubstr("2 record(s)"));
  const auto approved = p.perfgate({"baseline", "approve", "manifest.json"});
  ASSERT_EQ(approved.exit_code, 0) << approved.err;

  // A new measurement at the same speed (the same file again would be the same measurement,
  // which is never judged against itself).
  p.dir.write("results/gbench.json", gbench_json({101, 110, 119}));
  const auto same = p.import_json();
  ASSERT_EQ(same.exit_code, 0) << same.err;
  const Json memcpy = by_id(same, "cpu/BM_memcpy[64]");
  EXPECT_EQ(memcpy["comparison_status"], "PASS");
  EXPECT_EQ(memcpy["baseline_status"], "compared");
  EXPECT_EQ(memcpy["comparison_status_reason"],
            "Comparable baseline found with no gated regressions");
  EXPECT_EQ(memcpy["baseline_eligible"], true);

  // 110 ns -> 165 ns: 50 % slower, above the project's 5 % with any absolute amount.
  p.dir.write("results/gbench.json", gbench_json({150, 165, 180}));
  const auto slower = p.import_json();
  EXPECT_EQ(slower.exit_code, 1) << slower.err;
  const Json regressed = by_id(slower, "cpu/BM_memcpy[64]");
  EXPECT_EQ(regressed["comparison_status"], "REGRESSION");
  EXPECT_THAT(regressed["comparison_status_reason"].get<std::string>(), HasSubstr("latency +50%"));
  EXPECT_EQ(by_id(slower, "cpu/BM_empty")["comparison_status"], "PASS");
}

// As `run` does: outside CI the records name the commit of the checkout they were made in.
TEST(ImportCommand, RecordsTheLocalGitCommitAsRunDoes) {
  Project p;
  fs::remove_all(p.dir / ".git");
  const std::string git =
      "git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main";
  ASSERT_EQ(std::system(("cd " + p.dir.path().string() + " && " + git + " init -q && " + git +
                         " add perfgate.toml && " + git + " commit -qm first")
                            .c_str()),
            0);
  FILE* pipe = ::popen(("git -C " + p.dir.path().string() + " rev-parse HEAD").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char sha[64] = {};
  ASSERT_NE(std::fgets(sha, sizeof sha, pipe), nullptr);
  ::pclose(pipe);
  const auto result = p.import_json();
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json memcpy = by_id(result, "cpu/BM_memcpy[64]");
  EXPECT_EQ(memcpy["commit_sha"], std::string(sha, 40));
  EXPECT_EQ(memcpy["branch"], "main");
}

TEST(ImportCommand, PrintsTheTableAndWhatItStored) {
  Project p;
  const auto result =
      p.perfgate({"import", "results/gbench.json", "--run-source", "local", "--init"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("BM_memcpy[64]"));
  EXPECT_THAT(result.out, HasSubstr("CALIBRATION_NEEDED"));
  EXPECT_THAT(result.out, HasSubstr("stored 2 record(s) in sqlite:"));
}

TEST(ImportCommand, SaysWhenTheDefaultAbsoluteThresholdIsLargerThanTheValues) {
  Project p;
  p.dir.write("perfgate.toml", "[policy]\nmethod = \"seed\"\n");  // the built-in policies
  const auto result = p.import_json({"--dry-run"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("perfgate: note: latency of 2 record(s) is smaller than its "
                                    "policy's threshold_absolute (0.5)"));
}

TEST(ImportCommand, StoresNothingAndCreatesNoStoreOnADryRun) {
  Project p;
  const auto result = p.perfgate({"import", "results/gbench.json", "--dry-run", "--init"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("dry run: nothing stored"));
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));

  ASSERT_EQ(p.import_json().exit_code, 0);
  const auto judged = p.import_json({"--dry-run"});
  EXPECT_EQ(judged.exit_code, 0) << judged.err;
  EXPECT_EQ(by_id(judged, "cpu/BM_empty")["comparison_status"], "CALIBRATION_NEEDED");
  EXPECT_EQ(p.stored_records().size(), 2u);
}

TEST(ImportCommand, StoresNothingWhenOneFileIsMalformed) {
  Project p;
  p.dir.write("results/broken.json", "{\"benchmarks\": [");
  const auto result = p.perfgate({"import", "results/gbench.json", "results/broken.json"});
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("results/broken.json"));
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));
}

TEST(ImportCommand, ReportsAMissingFileAsMissingInput) {
  Project p;
  const auto result = p.perfgate({"import", "results/nowhere.json"});
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("results/nowhere.json"));
}

TEST(ImportCommand, RejectsBadFlagValuesAsUsageErrors) {
  Project p;
  const auto format = p.perfgate({"import", "results/gbench.json", "--format-in", "xml"});
  EXPECT_EQ(format.exit_code, 64);
  EXPECT_THAT(format.err, HasSubstr("--format-in 'xml': use one of nvbench, gbench, hyperfine"));
  EXPECT_EQ(p.perfgate({"import", "results/gbench.json", "--benchmark-version", "0"}).exit_code,
            64);
  const auto empty = p.perfgate({"import", "results/gbench.json", "--workload-id", ""});
  EXPECT_EQ(empty.exit_code, 64);
  EXPECT_THAT(empty.err, HasSubstr("--workload-id must not be empty"));
  EXPECT_EQ(p.perfgate({"import", "results/gbench.json", "--upload", "sometimes"}).exit_code, 64);
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));
}

TEST(ImportCommand, TakesIdentityFromTheMappingFileAndFlagsOverIt) {
  Project p;
  p.dir.write("map.toml", R"toml(
[[benchmark]]
match = "BM_memcpy*"
workload_id = "memcpy"
benchmark_version = 2
)toml");
  const auto result = p.import_json({"--mapping", "map.toml", "--benchmark-version", "3"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json memcpy = by_id(result, "cpu/BM_memcpy[64]");
  EXPECT_EQ(memcpy["workload_id"], "memcpy");
  EXPECT_EQ(memcpy["variant_id"], "64");
  EXPECT_EQ(memcpy["benchmark_version"], 3);
  EXPECT_EQ(by_id(result, "cpu/BM_empty")["workload_id"], "cpu/BM_empty");
}

TEST(ImportCommand, GivesEachBenchmarkThePoliciesOfItsMappingEntry) {
  Project p;
  p.dir.write("perfgate.toml", "[policy]\nmethod = \"seed\"\n");  // built in: 8 % and 0.5 s
  p.dir.write("map.toml", R"toml(
[[benchmark]]
match = "BM_memcpy*"
[benchmark.regression_thresholds.latency]
threshold_percent = 0.05
threshold_absolute = 0.000000002
)toml");
  ASSERT_EQ(p.import_json({"--mapping", "map.toml"}).exit_code, 0);
  // A 20 % slower BM_memcpy regresses under its own policy; BM_empty keeps the built-in
  // one, under which its nanoseconds never regress.
  p.dir.write("results/gbench.json", gbench_json({120, 132, 144}));
  ASSERT_EQ(p.perfgate({"baseline", "prepare", "-o", "m.json"}).exit_code, 0);
  ASSERT_EQ(p.perfgate({"baseline", "approve", "m.json"}).exit_code, 0);
  const auto result = p.import_json({"--mapping", "map.toml"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  const Json memcpy = by_id(result, "cpu/BM_memcpy[64]");
  EXPECT_EQ(memcpy["regression_thresholds"]["latency"]["threshold_percent"], 0.05);
  EXPECT_EQ(memcpy["regression_thresholds"]["latency"]["threshold_absolute"], 0.000000002);
  EXPECT_EQ(memcpy["comparison_status"], "REGRESSION");
  const Json empty = by_id(result, "cpu/BM_empty");
  EXPECT_EQ(empty["regression_thresholds"]["latency"]["threshold_absolute"], 0.5);
}

TEST(ImportCommand, ShowsControlCharactersOfImportedNamesVisiblyInTablesAndMarkdown) {
  Project p;
  std::string file = gbench_json({100, 110, 120});
  for (std::size_t at = file.find("BM_empty"); at != std::string::npos;
       at = file.find("BM_empty", at + 1)) {
    file.replace(at, 8, "BM_\\u001b[31mred\\u0007");
  }
  p.dir.write("results/gbench.json", file);
  const auto result = p.perfgate({"import", "results/gbench.json", "--init"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find('\x1b'), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find('\x07'), std::string::npos);
  EXPECT_THAT(result.out, HasSubstr("BM_\\x1b[31mred\\x07"));
  const auto report = p.perfgate({"report", "--format", "md"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.out.find('\x1b'), std::string::npos);
  EXPECT_THAT(report.out, HasSubstr("BM\\_\\x1b\\[31mred\\x07"));
}

TEST(ImportCommand, RejectsAMalformedMappingFileBeforeStoringAnything) {
  Project p;
  p.dir.write("map.toml", "[[benchmark]]\nmatch = \"BM_*\"\nworklod_id = \"w\"\n");
  const auto result = p.perfgate({"import", "results/gbench.json", "--mapping", "map.toml"});
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("map.toml: benchmark[0].worklod_id: unknown key 'worklod_id'. "
                                    "Did you mean 'workload_id'?"));
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));
}

// --- issue 10: history and repeated imports ---------------------------------------------

/// A record in the seed's legacy normalised layout (result_schema_version 2, flat metric
/// keys), written before run_source and baseline_eligible existed, in Tokyo time.
std::string legacy_normalized(const std::string& timestamp, double latency) {
  return Json{{"model_id", "wan-t2v-1.3b-2gpu"},
              {"result_schema_version", 2},
              {"workload_id", "wan-t2v"},
              {"variant_id", "1.3b-sp2"},
              {"benchmark_version", 3},
              {"timestamp", timestamp},
              {"commit_sha", "abc123"},
              {"gpu_type", "NVIDIA L40S"},
              {"latency", latency},
              {"memory", 10840.0},
              {"recipe_fingerprint", std::string(64, 'f')},
              {"hardware_profile_id", "hw-111111111111"},
              {"software_profile_id", "sw-222222222222"},
              {"environment_fingerprint", "env-333333333333"},
              {"baseline_status", "compared"},
              {"comparison_status", "PASS"},
              {"comparison_status_reason", "Comparable baseline found with no gated regressions"},
              {"success", true}}
      .dump(2);
}

TEST(ImportCommand, KeepsTheIdentityTimestampsAndProfilesOfLegacyNormalizedRecords) {
  Project p;
  p.dir.write("history/normalized_perf_1.json",
              legacy_normalized("2026-05-08T22:00:00+09:00", 28.4));
  p.dir.write("history/normalized_perf_2.json",
              legacy_normalized("2026-05-09T22:00:00+09:00", 28.6));
  const auto result = p.perfgate({"import", "history/normalized_perf_1.json",
                                  "history/normalized_perf_2.json", "--init", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json stored = p.stored_records();
  ASSERT_EQ(stored.size(), 2u);
  // Newest first, by instant; the offsets are normalised to UTC.
  EXPECT_EQ(stored[0]["timestamp"], "2026-05-09T13:00:00Z");
  EXPECT_EQ(stored[1]["timestamp"], "2026-05-08T13:00:00Z");
  for (const Json& record : stored) {
    EXPECT_EQ(record["benchmark_id"], "wan-t2v-1.3b-2gpu");
    EXPECT_EQ(record["workload_id"], "wan-t2v");
    EXPECT_EQ(record["variant_id"], "1.3b-sp2");
    EXPECT_EQ(record["benchmark_version"], 3);
    EXPECT_EQ(record["hardware_profile_id"], "hw-111111111111");
    EXPECT_EQ(record["software_profile_id"], "sw-222222222222");
    EXPECT_EQ(record["comparison_status"], "PASS");
    // Neither run_source nor baseline_eligible: a legacy main upload, eligible (seed 000).
    EXPECT_EQ(record["eligible"], true);
  }
  // The same history again is a no-op.
  const auto again = p.perfgate({"import", "history/normalized_perf_1.json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("already stored: 1 record(s)"));
  EXPECT_EQ(p.stored_records().size(), 2u);
}

TEST(ImportCommand, ImportsSeveralFilesOfOneBenchmarkInOneCall) {
  Project p;
  p.dir.write("results/gbench-2.json", gbench_json({200, 210, 220}));
  const auto result = p.perfgate({"import", "results/gbench.json", "results/gbench-2.json",
                                  "--init", "--run-source", "local"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("stored 4 record(s)"));
  EXPECT_EQ(p.stored_records().size(), 4u);
}

TEST(ImportCommand, StoresAFileGivenTwiceOrImportedAgainOnlyOnce) {
  Project p;
  const auto twice = p.perfgate(
      {"import", "results/gbench.json", "results/gbench.json", "--init", "--run-source", "local"});
  ASSERT_EQ(twice.exit_code, 0) << twice.err;
  EXPECT_THAT(twice.out, HasSubstr("stored 2 record(s)"));
  const auto again = p.perfgate({"import", "results/gbench.json", "--run-source", "local"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("already stored: 2 record(s)"));
  EXPECT_THAT(again.out, HasSubstr("nothing changed"));
  EXPECT_EQ(p.stored_records().size(), 2u);
}

TEST(ImportCommand, RefusesANamedStoreThatDoesNotExistUnlessInit) {
  Project p;
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--dry-run"}}) {
    std::vector<std::string> args = {"import", "results/gbench.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = p.perfgate(args);
    EXPECT_EQ(result.exit_code, 66);
    EXPECT_THAT(result.err, HasSubstr("store sqlite:"));
    EXPECT_THAT(result.err, HasSubstr("store.db does not exist"));
  }
  EXPECT_FALSE(fs::exists(p.dir / "store.db"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
