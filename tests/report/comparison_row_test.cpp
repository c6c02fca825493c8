#include "report/comparison_row.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

MetricComparison comparison(std::optional<double> current, std::optional<double> baseline) {
  MetricComparison c;
  c.current = current;
  c.baseline = baseline;
  return c;
}

NormalizedRecord record_with(const std::string& metric, MetricValue value, double baseline,
                             MetricPolicy policy) {
  NormalizedRecord r;
  r.metrics[metric] = value;
  MetricComparison c = comparison(value.value, baseline);
  c.metric = metric;
  c.policy = policy;
  r.comparisons = {c};
  return r;
}

TEST(ComparisonRow, ChangeHasTheSignOfCurrentMinusBaselineForEveryDirection) {
  EXPECT_EQ(format_change(comparison(1.5, 1.0), Direction::kLowerIsBetter), "+50.0% worse");
  EXPECT_EQ(format_change(comparison(0.9, 1.0), Direction::kLowerIsBetter), "-10.0% better");
  EXPECT_EQ(format_change(comparison(1.0, 1.2), Direction::kHigherIsBetter), "-16.7% worse");
  EXPECT_EQ(format_change(comparison(1.2, 1.0), Direction::kHigherIsBetter), "+20.0% better");
  EXPECT_EQ(format_change(comparison(1.0, 1.0), Direction::kHigherIsBetter), "0.0%");
  EXPECT_EQ(format_change(comparison(1.0, 0.0), Direction::kLowerIsBetter), "n/a");
  EXPECT_EQ(format_change(comparison(std::nullopt, 1.0), Direction::kLowerIsBetter), "—");
}

TEST(ComparisonRow, ShowsCurrentAndBaselineInOneUnitAndTheThresholdInItsOwn) {
  const NormalizedRecord r =
      record_with("latency", {1.02, "s", Direction::kLowerIsBetter}, 0.98, {0.08, 0.5, true});
  const ComparisonRow row = comparison_row(r, "latency", metric_units({r}));
  EXPECT_EQ(row.current, "1.02 s");
  EXPECT_EQ(row.baseline, "0.98 s");
  EXPECT_EQ(row.threshold, "8% and 500 ms");
  EXPECT_EQ(row.verdict, "ok");
}

TEST(ComparisonRow, KeepsMegabytesBelow1024InMegabytes) {
  const NormalizedRecord r =
      record_with("memory", {515, "MB", Direction::kLowerIsBetter}, 500, {0.05, 256, true});
  const ComparisonRow row = comparison_row(r, "memory", metric_units({r}));
  EXPECT_EQ(row.current, "515 MB");
  EXPECT_EQ(row.baseline, "500 MB");
  EXPECT_EQ(row.change, "+3.0% worse");
  EXPECT_EQ(row.threshold, "5% and 256 MB");
}

TEST(ComparisonRow, ShowsMegabytesFrom1024InGibibytesBothSidesInOne) {
  const NormalizedRecord r =
      record_with("memory", {1030, "MB", Direction::kLowerIsBetter}, 1000, {0.05, 256, true});
  const ComparisonRow row = comparison_row(r, "memory", metric_units({r}));
  EXPECT_EQ(row.current, "1.006 GiB");
  EXPECT_EQ(row.baseline, "0.9766 GiB");
  EXPECT_EQ(row.change, "+3.0% worse");
  EXPECT_EQ(row.threshold, "5% and 256 MB");
}

TEST(ComparisonRow, ShowsTheBaselineOfAMetricTheRecordDidNotMeasure) {
  NormalizedRecord r;
  MetricComparison c = comparison(std::nullopt, 10840);
  c.metric = "memory";
  c.policy = {0.05, 256, true};
  r.comparisons = {c};
  const ComparisonRow row = comparison_row(r, "memory", metric_units({r}));
  EXPECT_EQ(row.current, "not measured");
  EXPECT_EQ(row.baseline, "10.59 GiB");
  EXPECT_EQ(row.change, "—");
  EXPECT_EQ(row.verdict, "skipped");
}

TEST(ComparisonRow, KeepsTheUnitOfAComponentTheRecordDidNotMeasureFromItsBaseline) {
  NormalizedRecord r;
  MetricComparison c = comparison(std::nullopt, 0.5);
  c.metric = "decode";  // a component: no standard unit, and this record lacks it
  c.policy = {0.08, 0.25, true};
  r.comparisons = {c};
  EXPECT_EQ(comparison_row(r, "decode", metric_units({r})).baseline, "0.5");
  const ComparisonRow row = comparison_row(r, "decode", metric_units({r}, {{"decode", "s"}}));
  EXPECT_EQ(row.current, "not measured");
  EXPECT_EQ(row.baseline, "500 ms");
  EXPECT_EQ(row.threshold, "8% and 250 ms");
}

TEST(ComparisonRow, ShowsAThroughputThresholdInItsOwnUnitNotTheRowsPrefix) {
  const NormalizedRecord r = record_with(
      "throughput", {2.364e6, "records/s", Direction::kHigherIsBetter}, 2.2e6, {0.08, 0.05, true});
  const ComparisonRow row = comparison_row(r, "throughput", metric_units({r}));
  EXPECT_EQ(row.current, "2.364 M records/s");
  EXPECT_EQ(row.threshold, "8% and 0.05 records/s");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
