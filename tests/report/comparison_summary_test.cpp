#include "report/comparison_summary.hpp"

#include <gtest/gtest.h>

#include "report/comparison_row.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

MetricComparison compared(const std::string& metric, std::optional<double> current,
                          std::optional<double> baseline, MetricPolicy policy,
                          bool exceeded = false) {
  MetricComparison c;
  c.metric = metric;
  c.current = current;
  c.baseline = baseline;
  c.baseline_count = baseline ? 5 : 0;
  c.policy = policy;
  c.threshold_exceeded = exceeded;
  c.regressed = exceeded && policy.gated;
  return c;
}

/// Latency regressed; throughput dropped past an ungated threshold; memory was not
/// measured this time; a component improved.
NormalizedRecord regressed_record() {
  NormalizedRecord r;
  r.benchmark_id = "video";
  r.comparison_status = kRegression;
  r.comparison_status_reason = "gated metrics regressed against the rolling baseline: latency";
  r.metrics["latency"] = {1.5, "s", Direction::kLowerIsBetter};
  r.metrics["throughput"] = {1.0, "frames/s", Direction::kHigherIsBetter};
  r.metrics["dit_time_s"] = {0.9, "s", Direction::kLowerIsBetter};
  r.comparisons = {compared("dit_time_s", 0.9, 1.02, {0.05, 0.25, true}),
                   compared("latency", 1.5, 1.0, {0.08, 0.25, true}, true),
                   compared("memory", std::nullopt, 10840, {0.05, 256, true}),
                   compared("throughput", 1.0, 1.2, {0.08, 0.05, false}, true)};
  return r;
}

/// A new cohort: nothing to compare with.
NormalizedRecord calibration_record() {
  NormalizedRecord r;
  r.benchmark_id = "fresh";
  r.comparison_status = kCalibrationNeeded;
  r.comparison_status_reason = "No baseline found for exact comparable identity";
  r.metrics["latency"] = {0.0312, "s", Direction::kLowerIsBetter};
  r.metrics["memory"] = {2048, "MB", Direction::kLowerIsBetter};
  r.comparisons = {compared("latency", 0.0312, std::nullopt, {0.08, 0.5, true}),
                   compared("memory", 2048, std::nullopt, {0.05, 256, true})};
  return r;
}

TEST(ComparisonSummary, TerminalShowsChangeThresholdAndVerdictOfEveryMetric) {
  const std::string expected =
      "video  REGRESSION  gated metrics regressed against the rolling baseline: latency\n"
      "  metric      current       baseline      change         threshold (worse by)        "
      "      verdict\n"
      "  latency     1.5 s         1 s           +50.0% worse   8% and 250 ms               "
      "      REGRESSED\n"
      "  throughput  1 frames/s    1.2 frames/s  -16.7% worse   8% and 0.05 frames/s (not "
      "gated)  exceeded (not gated)\n"
      "  memory      not measured  10.59 GiB     —              5% and 256 MB               "
      "      skipped\n"
      "  dit_time_s  0.9 s         1.02 s        -11.8% better  5% and 250 ms               "
      "      ok\n"
      "\n"
      "fresh  CALIBRATION_NEEDED  No baseline found for exact comparable identity\n"
      "  metric   current  baseline  change  threshold (worse by)  verdict\n"
      "  latency  31.2 ms  none      —       8% and 500 ms         skipped\n"
      "  memory   2 GiB    none      —       5% and 256 MB         skipped\n"
      "\n";
  EXPECT_EQ(render_comparison_table({regressed_record(), calibration_record()}, false), expected);
}

/// Under --method stat: latency's interval straddles 8%; a component's change is beyond
/// its 5% but under the 250 ms floor it was given.
NormalizedRecord inconclusive_record() {
  NormalizedRecord r;
  r.benchmark_id = "sort";
  r.comparison_status = kInconclusive;
  r.comparison_status_reason = "the change's interval straddles the threshold";
  r.metrics["latency"] = {0.00218, "s", Direction::kLowerIsBetter};
  r.metrics["decode"] = {0.03, "s", Direction::kLowerIsBetter};
  MetricComparison latency = compared("latency", 0.00218, 0.002, {0.08, 0, true});
  latency.method = CompareMethod::kStat;
  latency.percent_delta = 0.09;
  latency.interval = ChangeInterval{0.053, 0.128, 0.95};
  latency.inconclusive = true;
  MetricComparison decode = compared("decode", 0.03, 0.01, {0.05, 0.25, true});
  decode.method = CompareMethod::kStat;
  decode.percent_delta = 2.0;
  decode.interval = ChangeInterval{1.9, 2.1, 0.95};
  decode.not_gated = "under the 250 ms floor";
  decode.baseline_count = 1;
  r.comparisons = {decode, latency};
  return r;
}

TEST(ComparisonSummary, ShowsTheIntervalTheInconclusiveVerdictAndWhatAFloorHeldBack) {
  const std::string expected =
      "sort  INCONCLUSIVE  the change's interval straddles the threshold\n"
      "  metric   current  baseline  change                                                      "
      "                  threshold (worse by)  verdict\n"
      "  latency  2.18 ms  2 ms      +9.0% worse (95%: +5.3% to +12.8%)                          "
      "                  8% and 0 s            INCONCLUSIVE\n"
      "  decode   30 ms    10 ms     +200.0% worse (95%: +190.0% to +210.0%; 1 baseline record: "
      "runs' noise only)  5% and 250 ms         not gated: under the 250 ms floor\n"
      "\n";
  EXPECT_EQ(render_comparison_table({inconclusive_record()}, false), expected);
  EXPECT_EQ(not_gated_note({inconclusive_record()}),
            "not gated: 1 change(s) beyond the relative threshold held back by an absolute floor "
            "([policies.<metric>] threshold_absolute): sort decode +200.0% worse (95%: +190.0% "
            "to +210.0%; 1 baseline record: runs' noise only), under the 250 ms floor\n");
  EXPECT_EQ(not_gated_note({regressed_record()}), "");
  const std::string markdown =
      render_comparison_markdown({inconclusive_record()}, "", "2026-12-04T06:00:00Z");
  EXPECT_NE(markdown.find("| sort | **INCONCLUSIVE** | 2.18 ms vs 2 ms (+9.0% worse (95%: +5.3% "
                          "to +12.8%)) ❔ INCONCLUSIVE |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("\n### Not gated\n\nnot gated: 1 change(s)"), std::string::npos)
      << markdown;
}

TEST(ComparisonSummary, AnUngatedMetricWhoseIntervalStraddlesItsThresholdIsNotOk) {
  NormalizedRecord r = inconclusive_record();
  r.comparisons[1].policy.gated = false;  // latency: 95% interval +5.3% to +12.8% across 8%
  r.comparisons[1].inconclusive = false;
  const ComparisonRow row = comparison_row(r, "latency", metric_units({r}));
  EXPECT_EQ(row.verdict, "straddles the threshold (not gated)");
  r.comparisons[1].interval = ChangeInterval{0.01, 0.05, 0.95};  // within 8%
  EXPECT_EQ(comparison_row(r, "latency", metric_units({r})).verdict, "ok");
}

TEST(ComparisonSummary, FitsEightyColumnsByDroppingTheThresholdAndWrappingTheReason) {
  const std::string expected =
      "video  REGRESSION  gated metrics regressed against the rolling baseline: latency\n"
      "  metric      current       baseline      change         verdict\n"
      "  latency     1.5 s         1 s           +50.0% worse   REGRESSED\n"
      "  throughput  1 frames/s    1.2 frames/s  -16.7% worse   exceeded (not gated)\n"
      "  memory      not measured  10.59 GiB     —              skipped\n"
      "  dit_time_s  0.9 s         1.02 s        -11.8% better  ok\n"
      "\n";
  EXPECT_EQ(render_comparison_table({regressed_record()}, false, 80), expected);
  const std::string narrow = render_comparison_table({regressed_record()}, false, 50);
  EXPECT_EQ(narrow.substr(0, narrow.find("  metric")),
            "video  REGRESSION  gated metrics regressed against\n"
            "    the rolling baseline: latency\n");
}

TEST(ComparisonSummary, MarkdownShowsTheSameCellsAsTheTerminal) {
  const std::string expected =
      "## perfgate comparison for `0123456789ab`\n"
      "\n"
      "2 record(s): 1 REGRESSION, 1 CALIBRATION\\_NEEDED.\n"
      "\n"
      "- **video** latency: +50.0% worse, threshold 8% and 250 ms: **REGRESSED**\n"
      "\n"
      "<!-- perfgate: details -->\n"
      "\n"
      "Generated 2026-12-01T04:00:00Z. Each metric cell: current vs rolling baseline (change). "
      "A change is current − baseline, relative to the baseline, marked worse or better in the "
      "metric's direction; a metric regresses when it is worse by more than both parts of its "
      "threshold and is gated. A change with an interval (compare --method stat) is the "
      "estimated change of the typical run: REGRESSED when the whole interval is beyond the "
      "threshold, ok when it is within, INCONCLUSIVE when it straddles it.\n"
      "\n"
      "| benchmark | status | latency | throughput | memory | dit\\_time\\_s | reason |\n"
      "|---|---|---|---|---|---|---|\n"
      "| video | **REGRESSION** | 1.5 s vs 1 s (+50.0% worse) ❌ REGRESSED | 1 frames/s vs 1.2 "
      "frames/s (-16.7% worse) exceeded (not gated) | not measured vs 10.59 GiB | 0.9 s vs 1.02 s "
      "(-11.8% better) | gated metrics regressed against the rolling baseline: latency |\n"
      "| fresh | **CALIBRATION\\_NEEDED** | 31.2 ms | — | 2 GiB | — | No baseline found for "
      "exact comparable identity |\n"
      "\n"
      "### Metrics\n"
      "\n"
      "| benchmark | metric | current | baseline | change | threshold (worse by) | verdict |\n"
      "|---|---|---|---|---|---|---|\n"
      "| video | latency | 1.5 s | 1 s | +50.0% worse | 8% and 250 ms | REGRESSED |\n"
      "| video | throughput | 1 frames/s | 1.2 frames/s | -16.7% worse | 8% and 0.05 frames/s "
      "(not gated) | exceeded (not gated) |\n"
      "| video | memory | not measured | 10.59 GiB | — | 5% and 256 MB | skipped |\n"
      "| video | dit\\_time\\_s | 0.9 s | 1.02 s | -11.8% better | 5% and 250 ms | ok |\n"
      "| fresh | latency | 31.2 ms | none | — | 8% and 500 ms | skipped |\n"
      "| fresh | memory | 2 GiB | none | — | 5% and 256 MB | skipped |\n";
  EXPECT_EQ(render_comparison_markdown({regressed_record(), calibration_record()},
                                       "0123456789abcdef", "2026-12-01T04:00:00Z"),
            expected);
}

TEST(ComparisonSummary, MarkdownListsWhatTheMeasurementWarnedOf) {
  NormalizedRecord record = calibration_record();
  record.quality_metadata["measurement_warnings"] = {"probe: FORKED: the program forked 1 time(s)",
                                                     "probe: REGION_END_MISMATCH: a|b"};
  const std::string markdown = render_comparison_markdown({record}, "", "2026-12-01T04:00:00Z");
  EXPECT_EQ(markdown.substr(markdown.find("### Warnings")),
            "### Warnings\n\n"
            "- fresh: probe: FORKED: the program forked 1 time(s)\n"
            "- fresh: probe: REGION\\_END\\_MISMATCH: a\\|b\n");
  EXPECT_EQ(render_comparison_markdown({calibration_record()}, "", "x").find("### Warnings"),
            std::string::npos);
}

TEST(ComparisonSummary, MarkdownSaysCountsAreAProxyWhenARecordHasThem) {
  NormalizedRecord record = calibration_record();
  EXPECT_EQ(render_comparison_markdown({record}, "", "x").find("proxy"), std::string::npos);
  record.metrics["instructions"] = {4.2e7, "instructions", Direction::kLowerIsBetter};
  const std::string markdown = render_comparison_markdown({record}, "", "x");
  EXPECT_EQ(markdown.substr(markdown.rfind("\n\n") + 2),
            "Instruction counts are a proxy for the work: they miss I/O, waiting, contention, "
            "memory bandwidth and a faster instruction mix; latency stays the truth "
            "(docs/measurement.md, \"What counts miss\").\n");
}

TEST(ComparisonSummary, PaintsOnlyTheVerdictsThatNeedAttention) {
  const std::string colored = render_comparison_table({regressed_record()}, true);
  EXPECT_NE(colored.find("\x1b[31mREGRESSED\x1b[0m"), std::string::npos);
  EXPECT_NE(colored.find("\x1b[33mexceeded (not gated)\x1b[0m"), std::string::npos);
  EXPECT_EQ(colored.find("\x1b[32mok"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
