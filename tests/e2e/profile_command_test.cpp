// End-to-end: `perfgate profile` on probe reports written by each test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "model/json.hpp"
#include "support/cli_runner.hpp"
#include "support/probe_report_fixture.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;
using ::testing::StartsWith;

struct ProfileFixture {
  TempDir dir;
  ProfileFixture() { dir.write("probe.json", testing::kProbeReportText); }
};

TEST(ProfileCommand, PrintsTheMarkdownViewByDefault) {
  ProfileFixture f;
  const auto result = run_perfgate({"profile", "probe.json"}, f.dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, StartsWith("# Probe profile: frames\n"));
  EXPECT_THAT(result.out, HasSubstr("| _(residual)_ | | 20 ms | | 20.00% |\n"));
}

TEST(ProfileCommand, PrintsTheReportAsJsonAndWritesTheTraceBeside) {
  ProfileFixture f;
  const auto result = run_perfgate(
      {"profile", "probe.json", "--format", "json", "--trace", "trace.json"}, f.dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Json::parse(result.out), testing::probe_report_json());
  // Printed in the library's key order, not sorted: schema_version first, as in the file.
  EXPECT_EQ(nlohmann::ordered_json::parse(result.out).dump(),
            testing::ordered_probe_report_json().dump());
  const Json trace = Json::parse(read_text_file(f.dir / "trace.json"));
  EXPECT_EQ(trace["traceEvents"].size(), 6u);
}

TEST(ProfileCommand, WritesTheViewToTheOutputFile) {
  ProfileFixture f;
  const auto result = run_perfgate({"profile", "probe.json", "-o", "view.md"}, f.dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  const auto shown = run_perfgate({"profile", "probe.json"}, f.dir.path());
  EXPECT_EQ(read_text_file(f.dir / "view.md"), shown.out);
}

TEST(ProfileCommand, KeepsAnExistingOutputFileUnlessForced) {
  ProfileFixture f;
  f.dir.write("view.md", "keep me");
  const auto refused = run_perfgate({"profile", "probe.json", "-o", "view.md"}, f.dir.path());
  EXPECT_EQ(refused.exit_code, 64);
  EXPECT_EQ(refused.err,
            "perfgate: error: view.md: already exists. Pass --force to replace it, or choose "
            "another --output\n");
  EXPECT_EQ(read_text_file(f.dir / "view.md"), "keep me");
  const auto forced =
      run_perfgate({"profile", "probe.json", "-o", "view.md", "--force"}, f.dir.path());
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(read_text_file(f.dir / "view.md"), "keep me");
}

TEST(ProfileCommand, MergesSeveralReportsWithMerge) {
  ProfileFixture f;
  f.dir.write("second.json", testing::kProbeReportText);
  const auto result = run_perfgate(
      {"profile", "probe.json", "second.json", "--merge", "--format", "json"}, f.dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json merged = Json::parse(result.out);
  EXPECT_EQ(merged["runs"].size(), 4u);
  EXPECT_EQ(merged["sources"], Json({"probe.json", "second.json"}));
  EXPECT_EQ(merged["warnings"].back()["code"], "MERGED");
}

TEST(ProfileCommand, KeepsEachMergedProgramsTargetInTheViewAndTheTrace) {
  ProfileFixture f;
  Json second = testing::probe_report_json();
  second["target"] = {
      {"executable", "/opt/app/bin/upload"}, {"pid", 5151}, {"process_name", "upload"}};
  f.dir.write("second.json", second.dump());
  const auto view = run_perfgate(
      {"profile", "probe.json", "second.json", "--merge", "--trace", "trace.json"}, f.dir.path());
  ASSERT_EQ(view.exit_code, 0) << view.err;
  EXPECT_THAT(view.out, StartsWith("# Probe profile: frames, upload\n"));
  EXPECT_THAT(view.out, HasSubstr("| 3 | worker (upload, pid 5151) | 200 ms | 150 ms |\n"));
  const Json trace = Json::parse(read_text_file(f.dir / "trace.json"));
  std::set<long long> pids;
  for (const Json& event : trace["traceEvents"]) pids.insert(event["pid"].get<long long>());
  EXPECT_EQ(pids, (std::set<long long>{4242, 5151}));
  const auto json = run_perfgate(
      {"profile", "probe.json", "second.json", "--merge", "--format", "json"}, f.dir.path());
  const Json merged = Json::parse(json.out);
  EXPECT_EQ(merged["targets"][1]["pid"], 5151);
  EXPECT_EQ(merged["targets"][1]["source"], "second.json");
  EXPECT_EQ(merged["threads"][3]["target"], 1);
}

TEST(ProfileCommand, AsksForMergeWhenGivenSeveralFilesWithoutIt) {
  ProfileFixture f;
  const auto result = run_perfgate({"profile", "probe.json", "probe.json"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("add --merge"));
}

TEST(ProfileCommand, RefusesATraceExportOfAReportWithoutTraceAndWritesNothing) {
  ProfileFixture f;
  Json report = testing::probe_report_json();
  report["trace"] = nullptr;
  f.dir.write("untraced.json", report.dump());
  const auto result = run_perfgate(
      {"profile", "untraced.json", "--trace", "trace.json", "-o", "view.md"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("untraced.json: trace: no trace events"));
  EXPECT_THAT(result.err, HasSubstr("PERFGATE_PROBE_TRACE=1"));
  EXPECT_FALSE(std::filesystem::exists(f.dir / "trace.json"));
  EXPECT_FALSE(std::filesystem::exists(f.dir / "view.md"));
}

TEST(ProfileCommand, NamesTheFieldOfAMalformedReportWithExit65) {
  ProfileFixture f;
  Json report = testing::probe_report_json();
  report["runs"][1]["regions"][0]["calls"] = "one";
  f.dir.write("bad.json", report.dump());
  const auto result = run_perfgate({"profile", "bad.json"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err,
              HasSubstr("bad.json: runs[1].regions[0].calls: expected an integer, found a string"));
}

TEST(ProfileCommand, ReportsAMissingFileWithExit66) {
  ProfileFixture f;
  const auto result = run_perfgate({"profile", "nowhere.json"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("nowhere.json: no such file"));
}

TEST(ProfileCommand, ShowsExamplesInItsHelp) {
  ProfileFixture f;
  const auto result = run_perfgate({"profile", "--help"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.out, HasSubstr("perfgate profile a.json b.json --merge"));
  EXPECT_THAT(result.out, HasSubstr("--trace"));
  EXPECT_THAT(result.out, HasSubstr("Exit status: 0 view written; 64 bad flags"));
  EXPECT_THAT(result.out, HasSubstr("65 not a valid probe report"));
}

TEST(ProfileCommand, NamesTheFormatOfAGoogleBenchmarkFileAndPointsToDiff) {
  ProfileFixture f;
  f.dir.write("gbench.json",
              R"({"context": {"date": "2024-01-01"}, "benchmarks": [{"name": "BM_x", )"
              R"("run_type": "iteration", "real_time": NaN, "cpu_time": 1, "time_unit": "ns"}]})");
  const auto result = run_perfgate({"profile", "gbench.json"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("gbench.json: (top level): this is a Google Benchmark file, "
                                    "not a probe report. Try perfgate diff REF CMP"));
}

TEST(ProfileCommand, NamesAPerfgateRecordAndPointsToCompare) {
  ProfileFixture f;
  f.dir.write("record.json",
              R"({"result_schema_version": 1, "perfgate_version": "0.1.0", "metrics": {}})");
  const auto result = run_perfgate({"profile", "record.json"}, f.dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("record.json: (top level): this is a perfgate raw record, "
                                    "not a probe report. Compare records with perfgate compare"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
