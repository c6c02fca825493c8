#include "report/results_table.hpp"

#include <gtest/gtest.h>

#include "stats/summary.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

MetricSeries series(Metric metric, std::vector<double> samples) {
  MetricSeries s{std::move(metric), std::move(samples), {}};
  s.summary = summarize(s.samples);
  return s;
}

BenchmarkOutcome measured_outcome() {
  BenchmarkOutcome outcome;
  outcome.name = "sort[n=10]";
  RawRecord& r = outcome.record;
  r.num_measurement_runs = 2;
  r.runs = {{0, true, true, "", 0.1, 0, 0, 1, {}},
            {1, false, true, "", 0.1, 0, 0, 1, {}},
            {2, false, true, "", 0.3, 0, 0, 1, {}}};
  r.metrics.emplace("latency", series(*standard_metric("latency"), {0.1, 0.3}));
  r.metrics.emplace("memory", series(*standard_metric("memory"), {12, 14}));
  r.metrics.emplace("decode",
                    series(Metric{"decode", "s", Direction::kLowerIsBetter}, {0.002, 0.002}));
  r.static_verdict.selected_block = "default";
  r.static_verdict.checks = {{"latency", "mean", 0.2, 0.15, false, true},
                             {"memory", "max", 14, 100, false, false}};
  outcome.record_path = "out/perf_sort_n_10__T.json";
  return outcome;
}

TEST(ResultsTable, RendersOneRowPerMetricWithThresholdAndVerdict) {
  BenchmarkOutcome skipped;
  skipped.kind = BenchmarkOutcome::Kind::kSkipped;
  skipped.name = "gpu";
  skipped.skip_reason = "device 'cpu' matches none of run_config.device_types";
  const std::string expected =
      "sort[n=10]  REGRESSION  (2 of 2 measured runs, thresholds: default)\n"
      "  metric   mean ± stdev       median  min … max        threshold       verdict\n"
      "  latency  200 ms ± 141.4 ms  200 ms  100 ms … 300 ms  ≤ 150 ms        BREACH\n"
      "  memory   13 MB ± 1.414 MB   13 MB   12 MB … 14 MB    ≤ 100 MB (max)  ok\n"
      "  decode   2 ms ± 0 ms        2 ms    2 ms … 2 ms      —               —\n"
      "  record: out/perf_sort_n_10__T.json\n"
      "\n"
      "gpu  SKIPPED  device 'cpu' matches none of run_config.device_types\n"
      "\n"
      "2 benchmarks: 0 passed, 1 regressed, 0 failed, 1 skipped\n";
  EXPECT_EQ(render_results_table({measured_outcome(), skipped}, TableStyle{false}), expected);
}

TEST(ResultsTable, ShowsEveryFigureOfAMetricInOneUnit) {
  BenchmarkOutcome outcome = measured_outcome();
  RawRecord& r = outcome.record;
  r.metrics.erase("memory");
  r.metrics.erase("decode");
  r.metrics.at("latency") = series(*standard_metric("latency"), {0.98, 1.02});
  r.static_verdict.checks = {{"latency", "mean", 1.0, 0.5, false, true}};
  const std::string text = render_results_table({outcome}, TableStyle{false});
  EXPECT_NE(text.find("  latency  1 s ± 0.02828 s  1 s     0.98 s … 1.02 s  ≤ 0.5 s    BREACH\n"),
            std::string::npos)
      << text;
}

// The table above is 78 columns wide: at 78 it keeps its six, one less drops the median
// (70 columns left), and a width those still overflow drops min … max too.
TEST(ResultsTable, DropsTheMedianThenMinMaxToFitTheTerminal) {
  const auto rows_at = [](std::size_t width) {
    const std::string block = render_outcome_block(measured_outcome(), TableStyle{false, width});
    const std::size_t start = block.find('\n') + 1;
    return block.substr(start, block.find("  record:") - start);
  };
  EXPECT_EQ(rows_at(78), rows_at(0));
  EXPECT_EQ(rows_at(77),
            "  metric   mean ± stdev       min … max        threshold       verdict\n"
            "  latency  200 ms ± 141.4 ms  100 ms … 300 ms  ≤ 150 ms        BREACH\n"
            "  memory   13 MB ± 1.414 MB   12 MB … 14 MB    ≤ 100 MB (max)  ok\n"
            "  decode   2 ms ± 0 ms        2 ms … 2 ms      —               —\n");
  EXPECT_EQ(rows_at(70), rows_at(77));
  EXPECT_EQ(rows_at(69),
            "  metric   mean ± stdev       threshold       verdict\n"
            "  latency  200 ms ± 141.4 ms  ≤ 150 ms        BREACH\n"
            "  memory   13 MB ± 1.414 MB   ≤ 100 MB (max)  ok\n"
            "  decode   2 ms ± 0 ms        —               —\n");
  EXPECT_EQ(rows_at(20), rows_at(69));  // nothing narrower: the rest must stay
}

TEST(ResultsTable, ShowsTheFailureReasonOfAFailedBenchmark) {
  BenchmarkOutcome outcome = measured_outcome();
  outcome.record.success = false;
  outcome.record.failure_reason = "measured run 2: exit status 3";
  const std::string text = render_results_table({outcome}, TableStyle{false});
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "sort[n=10]  FAILED  measured run 2: exit status 3  (2 of 2 measured runs, thresholds: "
            "default)");
  EXPECT_NE(text.find("0 passed, 0 regressed, 1 failed, 0 skipped"), std::string::npos);
}

TEST(ResultsTable, PaintsStatusesOnlyWhenColourIsOn) {
  const std::string plain = render_results_table({measured_outcome()}, TableStyle{false});
  const std::string colored = render_results_table({measured_outcome()}, TableStyle{true});
  EXPECT_EQ(plain.find("\x1b["), std::string::npos);
  EXPECT_NE(colored.find("\x1b[31mREGRESSION\x1b[0m"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
