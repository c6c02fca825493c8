#include "report/diff_format.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using diff::DiffStatus;
using diff::SideEstimate;
using diff::StateComparison;

SideEstimate side(double center, double lower, double upper, std::optional<double> noise = {}) {
  return {center, noise, diff::TimingInterval{lower, upper}};
}

TEST(DiffFormat, WritesTimesInSecondsMillisecondsOrMicroseconds) {
  EXPECT_EQ(format_diff_value(1.5, "s"), "1.500 s");
  EXPECT_EQ(format_diff_value(0.0012345, "s"), "1.234 ms");
  EXPECT_EQ(format_diff_value(0.0000125, "s"), "12.500 µs");
  EXPECT_EQ(format_diff_value(9e-9, "s"), "9.000 ns");
  EXPECT_EQ(format_diff_value(0.0, "s"), "n/a");
  EXPECT_EQ(format_diff_value(std::nullopt, "s"), "n/a");
  EXPECT_EQ(format_diff_value(std::numeric_limits<double>::infinity(), "s"), "n/a");
  EXPECT_EQ(format_diff_value(2048, "B"), "2048 B");
}

TEST(DiffFormat, WritesTheIntervalRelativeToTheCentre) {
  EXPECT_EQ(format_center_interval(side(0.001003, 0.001001, 0.001007), "s"),
            "1.003 [-0.002, +0.004] ms");
  EXPECT_EQ(format_explicit_interval(side(0.001003, 0.001001, 0.001007), "s"),
            "[1.001 | 1.003 | 1.007] ms");
  EXPECT_EQ(format_center_interval(SideEstimate{0.5, {}, {}}, "s"), "500.000 ms");
  EXPECT_EQ(format_center_interval(std::nullopt, "s"), "n/a");
  EXPECT_EQ(format_interval_span(side(0.002, 0.0019, 0.0021)), "10.0%");
}

TEST(DiffFormat, WritesPercentages) {
  EXPECT_EQ(format_fraction_percent(0.0058), "0.58%");
  EXPECT_EQ(format_fraction_percent(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_fraction_percent(std::nullopt), "n/a");
}

TEST(DiffFormat, ProvesTheChangeFromTheGapBetweenIntervals) {
  StateComparison slow;
  slow.status = DiffStatus::kSlow;
  slow.reference = side(1.0, 0.9, 1.0);
  slow.compare = side(1.2, 1.1, 1.3);
  // (1.1 - 1.0) / 1.0 = +10% at least.
  EXPECT_EQ(format_proven_change(slow), ">= +10.0%");
  EXPECT_EQ(format_center_change(slow), "+20.0%");

  StateComparison fast;
  fast.status = DiffStatus::kFast;
  fast.reference = side(1.2, 1.1, 1.3);
  fast.compare = side(1.0, 0.9, 1.0);
  // (1.0 - 1.1) / 1.0 = -10% at most.
  EXPECT_EQ(format_proven_change(fast), "<= -10.0%");
  EXPECT_EQ(format_center_change(fast), "-20.0%");

  StateComparison same = slow;
  same.status = DiffStatus::kSame;
  EXPECT_EQ(format_proven_change(same), "");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
