#include "model/metric.hpp"

#include <gtest/gtest.h>

namespace perfgate {

TEST(Metric, ThroughputIsTheOnlyStandardMetricWhereHigherIsBetter) {
  EXPECT_EQ(standard_metric("throughput")->direction, Direction::kHigherIsBetter);
  EXPECT_EQ(standard_metric("latency")->direction, Direction::kLowerIsBetter);
  EXPECT_EQ(standard_metric("memory")->unit, "MB");
  EXPECT_FALSE(standard_metric("decode").has_value());
}

TEST(Metric, DirectionRoundTripsThroughItsName) {
  EXPECT_EQ(parse_direction(to_string(Direction::kHigherIsBetter)), Direction::kHigherIsBetter);
  EXPECT_FALSE(parse_direction("sideways").has_value());
}

}  // namespace perfgate
