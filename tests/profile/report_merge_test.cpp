#include "profile/report_merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "profile/probe_report_reader.hpp"
#include "support/probe_report_fixture.hpp"

namespace perfgate::profile {
namespace PERFGATE_TEST_FILE {

ProbeReport fixture() {
  return read_probe_report(perfgate::testing::probe_report_json(), "fixture");
}

/// A second process: one run on its only thread, one region the first report lacks.
ProbeReport second_process() {
  ProbeReport report = fixture();
  report.created_at = "2026-11-30T15:00:00Z";
  report.target.pid = 5151;
  report.runs.resize(1);
  report.runs[0].thread_index = 0;
  report.runs[0].regions = {{"upload", 4, 10000.0, 10000.0, 0.1}};
  report.regions = {{"upload", "upload", std::nullopt, 0, "up.cpp", 3, "send"}};
  report.threads = {{0, "main"}};
  report.key_averages = {};
  report.trace = ProbeTrace{{{"upload", 0, 5.0, 10000.0}}, 2};
  report.warnings = {{"CLOCK_FALLBACK", "no invariant TSC"}};
  return report;
}

TEST(ReportMerge, RenumbersRunsAndKeepsTheThreadsOfEachProcessApart) {
  const ProbeReport merged = merge_reports({{"a.json", fixture()}, {"b.json", second_process()}});
  ASSERT_EQ(merged.runs.size(), 3u);
  EXPECT_EQ(merged.runs[2].run_index, 2);
  EXPECT_EQ(merged.runs[2].thread_index, 2);
  EXPECT_EQ(merged.runs[1].thread_index, 1);
  ASSERT_EQ(merged.threads.size(), 3u);
  EXPECT_EQ(merged.thread_name(2), "main (frames, pid 5151)");
  EXPECT_EQ(merged.trace->events.size(), 4u);
  EXPECT_EQ(merged.trace->events[3].thread_index, 2);
  EXPECT_EQ(merged.trace->dropped, 2);
}

TEST(ReportMerge, KeepsEachProgramsTargetAndPointsEachThreadAtIt) {
  ProbeReport second = second_process();
  second.target = {"/opt/app/bin/upload", 5151, "upload"};
  const ProbeReport merged = merge_reports({{"a.json", fixture()}, {"b.json", second}});
  ASSERT_EQ(merged.targets.size(), 2u);
  EXPECT_EQ(merged.targets[0].source, "a.json");
  EXPECT_EQ(merged.targets[0].target.pid, 4242);
  EXPECT_EQ(merged.targets[1].source, "b.json");
  EXPECT_EQ(merged.targets[1].target.process_name, "upload");
  EXPECT_EQ(merged.threads[0].target, std::optional<long long>(0));
  EXPECT_EQ(merged.threads[2].target, std::optional<long long>(1));
  EXPECT_EQ(merged.thread_name(0), "main (frames, pid 4242)");
  EXPECT_EQ(merged.thread_name(2), "main (upload, pid 5151)");
  EXPECT_EQ(merged.thread_target(2).pid, 5151);
  // Merging the merged report again keeps the programs and the threads' links to them.
  const ProbeReport again = merge_reports({{"ab.json", merged}, {"c.json", fixture()}});
  ASSERT_EQ(again.targets.size(), 3u);
  EXPECT_EQ(again.targets[1].source, "b.json");
  EXPECT_EQ(again.thread_name(2), "main (upload, pid 5151)");
  EXPECT_EQ(again.thread_name(3), "main (frames, pid 4242)");
}

TEST(ReportMerge, KeepsNoSummaryAndSaysWhenAnInputFoldedRunsTheMergeCannotSee) {
  ProbeReport folded = fixture();
  folded.summary->runs = 5000;
  folded.summary->measured_runs = 4999;
  const ProbeReport merged = merge_reports({{"a.json", fixture()}, {"b.json", folded}});
  EXPECT_FALSE(merged.summary.has_value());
  ASSERT_GE(merged.warnings.size(), 2u);
  const auto& warning = merged.warnings[merged.warnings.size() - 2];
  EXPECT_EQ(warning.code, "RUNS_FOLDED_NOT_MERGED");
  EXPECT_EQ(warning.message,
            "4998 run(s) the inputs folded past their detail cap are only in their own "
            "summaries; the merged report's summary across runs covers the listed runs");
}

TEST(ReportMerge, UnionsRegionsByIdAndTakesTargetAndConfigFromTheFirstReport) {
  const ProbeReport merged = merge_reports({{"a.json", fixture()}, {"b.json", second_process()}});
  std::vector<std::string> ids;
  for (const auto& region : merged.regions) ids.push_back(region.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"frame", "frame/decode", "render", "upload"}));
  EXPECT_EQ(merged.target.pid, 4242);
  EXPECT_EQ(merged.created_at, "2026-11-30T14:50:00Z");
  EXPECT_EQ(merged.sources, (std::vector<std::string>{"a.json", "b.json"}));
}

TEST(ReportMerge, RecomputesKeyAveragesFromTheMergedRuns) {
  const ProbeReport merged =
      merge_reports({{"a.json", fixture()}, {"b.json", fixture()}, {"c.json", second_process()}});
  ASSERT_EQ(merged.key_averages.total_time.size(), 4u);
  const KeyAverage& frame = merged.key_averages.total_time[0];
  EXPECT_EQ(frame.region_id, "frame");
  EXPECT_EQ(frame.calls, 4);
  EXPECT_EQ(frame.wall_time_us, 300000.0);
  EXPECT_EQ(frame.self_wall_time_us, 120000.0);
  EXPECT_EQ(frame.runs, 4);
  EXPECT_EQ(merged.key_averages.self_time[0].region_id, "render");
  EXPECT_EQ(merged.key_averages.self_time[3].region_id, "upload");
}

TEST(ReportMerge, ConcatenatesWarningsAndAddsOneMergedWarning) {
  const ProbeReport merged = merge_reports({{"a.json", fixture()}, {"b.json", second_process()}});
  ASSERT_EQ(merged.warnings.size(), 3u);
  EXPECT_EQ(merged.warnings[0].code, "REGION_OPEN_AT_EXIT");
  EXPECT_EQ(merged.warnings[1].code, "CLOCK_FALLBACK");
  EXPECT_EQ(merged.warnings[2].code, "MERGED");
  EXPECT_EQ(merged.warnings[2].message, "this report combines 2 reports: a.json, b.json");
}

TEST(ReportMerge, KeepsNoTraceWhenNoInputHasOne) {
  ProbeReport a = fixture();
  a.trace.reset();
  ProbeReport b = second_process();
  b.trace.reset();
  EXPECT_FALSE(merge_reports({{"a.json", a}, {"b.json", b}}).trace.has_value());
}

TEST(ReportMerge, ListsTheSourcesOfAnAlreadyMergedInput) {
  const ProbeReport first = merge_reports({{"a.json", fixture()}, {"b.json", second_process()}});
  const ProbeReport again = merge_reports({{"ab.json", first}, {"c.json", fixture()}});
  EXPECT_EQ(again.sources, (std::vector<std::string>{"a.json", "b.json", "c.json"}));
  EXPECT_EQ(again.runs.size(), 5u);
  EXPECT_EQ(again.runs[3].thread_index, 3);
  EXPECT_EQ(again.warnings.back().message,
            "this report combines 3 reports: a.json, b.json, c.json");
  EXPECT_EQ(std::count_if(again.warnings.begin(), again.warnings.end(),
                          [](const auto& warning) { return warning.code == "MERGED"; }),
            1);
}

TEST(ReportMerge, SaysTheMergedReportHasATraceWhenAnyInputHasOne) {
  ProbeReport a = fixture();
  a.trace.reset();
  a.config.trace = false;
  const ProbeReport merged = merge_reports({{"a.json", a}, {"b.json", second_process()}});
  EXPECT_TRUE(merged.trace.has_value());
  EXPECT_TRUE(merged.config.trace);
}

TEST(ReportMerge, WritesAMergedReportThatReadsBackUnchanged) {
  const ProbeReport merged = merge_reports({{"a.json", fixture()}, {"b.json", second_process()}});
  const Json document = to_json(merged);
  EXPECT_EQ(document["sources"], Json({"a.json", "b.json"}));
  EXPECT_EQ(Json(to_json(read_probe_report(document, "merged"))), document);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::profile
