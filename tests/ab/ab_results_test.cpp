#include "ab/ab_results.hpp"

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ab/sequential_verdict.hpp"
#include "report/ab_markdown.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using S = ScenarioStatus;

AbRunSample sample(AbSide side, std::size_t pair, double duration) {
  AbRunSample run;
  run.side = side;
  run.pair = pair;
  run.duration_s = duration;
  run.cpu_s = 0.5;
  run.rss_bytes = 1024 * 1024;
  run.outcome = "ok";
  run.log_path = "logs/s/x.log";
  return run;
}

AbScenarioResult regressed() {
  AbScenarioResult result;
  result.name = "s";
  result.argv = {std::vector<std::string>{"./old"}, std::vector<std::string>{"./new"}};
  result.runs.push_back(sample(AbSide::kBase, 0, 9));
  result.runs.push_back(sample(AbSide::kHead, 0, 9));
  for (std::size_t pair = 1; pair <= 3; ++pair) {
    result.runs.push_back(sample(AbSide::kBase, pair, 10));
    result.runs.push_back(sample(AbSide::kHead, pair, 20));
  }
  result.verdict = judge_pairs(result.measured(), result.rules);
  result.profile = CandidateProfile{"perf", "out/profile/s.perf.data", "profiled run ended: ok"};
  result.finished = true;
  return result;
}

TEST(AbResults, TheWorstScenarioDecidesTheExitCode) {
  EXPECT_EQ(ab_exit_code({S::kPass, S::kPass}), 0);
  EXPECT_EQ(ab_exit_code({S::kPass, S::kInconclusive}), 2);
  EXPECT_EQ(ab_exit_code({S::kInconclusive, S::kRegression}), 1);
  EXPECT_EQ(ab_exit_code({S::kError, S::kPass}), 1);
  EXPECT_EQ(ab_exit_code({}), 0);
}

TEST(AbResults, MeasuredSamplesLeaveOutTheWarmupsAndFollowThePairs) {
  const PairedRuns runs = regressed().measured();
  EXPECT_THAT(runs[AbMetric::kDuration].base, ::testing::ElementsAre(10, 10, 10));
  EXPECT_THAT(runs[AbMetric::kDuration].head, ::testing::ElementsAre(20, 20, 20));
}

TEST(AbResults, AnUnfinishedScenarioIsRunningAndThePartialReportSaysSo) {
  AbScenarioResult running = regressed();
  running.finished = false;
  EXPECT_EQ(running.status(), S::kRunning);
  AbReport report;
  report.scenarios.push_back(running);
  const Json json = to_json(report);
  EXPECT_EQ(json["complete"], false);
  EXPECT_FALSE(json.contains("verdict_exit_code"));
  EXPECT_EQ(json["scenarios"][0]["status"], "RUNNING");
  EXPECT_EQ(json["scenario_file"], nullptr);
}

TEST(AbResults, JsonCarriesSamplesEvidenceAndTheProfile) {
  AbReport report;
  report.scenarios.push_back(regressed());
  report.complete = true;
  const Json json = to_json(report);
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_EQ(json["verdict_exit_code"], 1);
  const Json& scenario = json["scenarios"][0];
  EXPECT_EQ(scenario["status"], "REGRESSION");
  EXPECT_EQ(scenario["runs"].size(), 8u);
  EXPECT_EQ(scenario["runs"][0], Json::parse(R"({"side": "base", "pair": 0, "warmup": true,
      "sequence": 0, "duration_s": 9.0, "cpu_s": 0.5, "rss_bytes": 1048576.0, "outcome": "ok",
      "failed_checks": [], "log": "logs/s/x.log"})"));
  EXPECT_EQ(scenario["pairs_judged"], 3);
  EXPECT_EQ(scenario["metrics"]["latency"]["pair_over_budget"], Json({true, true, true}));
  EXPECT_EQ(scenario["metrics"]["latency"]["head_median"], 20.0);
  EXPECT_EQ(scenario["metrics"]["cpu_time"]["base_noise"]["discarded_pair"], nullptr);
  EXPECT_EQ(scenario["rules"]["budgets"]["latency"],
            Json::parse(R"({"relative": 0.25, "absolute": 1.0, "unit": "s"})"));
  EXPECT_EQ(scenario["profile"]["path"], "out/profile/s.perf.data");
  EXPECT_EQ(scenario["error"], nullptr);
}

TEST(AbResults, AScenarioInterruptedInItsCountedRoundsIsInterruptedNotNotRun) {
  AbScenarioResult counted;
  counted.name = "counts";
  counted.timed = false;
  counted.interrupted = true;
  EXPECT_EQ(counted.status(), ScenarioStatus::kNotRun);
  counted.counts.emplace();  // its counted rounds began, no run of them finished
  EXPECT_EQ(counted.status(), ScenarioStatus::kInterrupted);
}

TEST(AbMarkdown, AnInterruptedReportSaysSoFirstAndMarksItsScenarios) {
  AbReport report;
  report.scenarios.push_back(regressed());
  report.scenarios[0].finished = false;
  report.scenarios[0].interrupted = true;
  report.scenarios.emplace_back();
  report.scenarios[1].name = "later";
  report.scenarios[1].interrupted = true;
  report.interrupted_signal = SIGTERM;
  report.interrupted_reason = "interrupted by SIGTERM during scenario s";
  const std::string markdown = render_ab_markdown(report);
  EXPECT_THAT(markdown, ::testing::StartsWith("# perfgate ab: INTERRUPTED\n\n**Interrupted**: "
                                              "interrupted by SIGTERM during scenario s. Scenarios "
                                              "marked INTERRUPTED or NOT RUN have no verdict.\n"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("## s: INTERRUPTED\n"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("## later: NOT RUN\n"));
  const Json json = to_json(report);
  EXPECT_EQ(json["complete"], false);
  EXPECT_EQ(json["interrupted"],
            (Json{{"signal", "SIGTERM"}, {"reason", "interrupted by SIGTERM during scenario s"}}));
  EXPECT_FALSE(json.contains("verdict_exit_code"));
}

TEST(AbMarkdown, ShowsTheVerdictReasonsComparisonTableAndProfile) {
  AbReport report;
  report.scenarios.push_back(regressed());
  report.complete = true;
  const std::string markdown = render_ab_markdown(report);
  EXPECT_THAT(markdown, ::testing::StartsWith("# perfgate ab: REGRESSION\n"));
  EXPECT_THAT(markdown, ::testing::HasSubstr(
                            "## s: REGRESSION\n\n- latency over budget (+25% and 1 s) in 3 of 3 "
                            "pairs: base median 10 s, head median 20 s (+100.0%)\n- Noise limit: "
                            "30% of the median\n- Time limit per run: none\n\n"));
  EXPECT_THAT(markdown,
              ::testing::HasSubstr("| latency | 10 s | 20 s | +10 s (+100.0%) | +25% and 1 s | 3 "
                                   "of 3 | +10 s (over), +10 s (over), +10 s (over) |\n"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("| cpu_time | 500 ms | 500 ms | +0 s (+0.0%) "
                                             "| +20% and 500 ms | 0 of 3 |"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("Profile (perf, excluded from the comparison): "
                                             "`out/profile/s.perf.data`; profiled run ended: ok"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("| Complete | yes |"));
}

TEST(AbMarkdown, FoldsManyPairsIntoATableOfTheirOwnAndShowsSmallMemoryInKilobytes) {
  AbScenarioResult scenario;
  scenario.name = "many";
  scenario.rules.method = AbMethod::kStat;
  for (std::size_t pair = 0; pair < 12; ++pair) {
    AbRunSample base = sample(AbSide::kBase, pair, 1.0);
    AbRunSample head = sample(AbSide::kHead, pair, 1.0);
    head.rss_bytes = base.rss_bytes + 4096;  // 4 KiB more in every pair
    scenario.runs.push_back(base);
    scenario.runs.push_back(head);
  }
  scenario.verdict = judge_sequential(scenario.measured(), scenario.rules, /*final_look=*/true);
  scenario.finished = true;
  AbReport report;
  report.scenarios.push_back(scenario);
  report.complete = true;
  const std::string markdown = render_ab_markdown(report);
  // Pair 0 is the warmup: 11 measured pairs. The comparison table keeps six columns; the
  // pairs are a row each, folded away.
  EXPECT_THAT(markdown, ::testing::HasSubstr("| Metric | Base median | Head median | Delta | "
                                             "Budget | Pairs over budget |\n|---|---|---|---|---|"
                                             "---|\n"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("<details><summary>Per pair: head - base (11 pairs)"
                                             "</summary>\n\n| Pair | latency | cpu_time | memory "
                                             "|\n|---:|---:|---:|---:|\n| 1 | +0 s | +0 s | +4 KB "
                                             "|\n"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("| 11 | +0 s | +0 s | +4 KB |\n\n</details>"));
  EXPECT_THAT(markdown, ::testing::Not(::testing::HasSubstr("0.003906")));
}

TEST(AbMarkdown, WritesAMemoryDifferenceBelowAMegabyteInKilobytesOrBytes) {
  EXPECT_EQ(format_metric_value(AbMetric::kRss, 4096), "4 KB");
  EXPECT_EQ(format_metric_value(AbMetric::kRss, 512), "512 B");
  EXPECT_EQ(format_metric_value(AbMetric::kRss, 3.5 * 1024 * 1024), "3.5 MB");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
