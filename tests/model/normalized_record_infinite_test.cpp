#include <gtest/gtest.h>

#include <limits>

#include "model/normalized_record.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(NormalizedRecordJson, WritesAnInfinitePercentDeltaAsNullAndReadsItBack) {
  NormalizedRecord record;
  record.benchmark_id = "zero-baseline";
  record.timestamp = "2026-11-30T10:00:00Z";
  MetricComparison comparison;
  comparison.metric = "decode";
  comparison.current = 0.5;
  comparison.baseline = 0.0;
  comparison.baseline_count = 5;
  comparison.absolute_delta = 0.5;
  comparison.percent_delta = std::numeric_limits<double>::infinity();
  record.comparisons.push_back(comparison);
  assign_record_id(record);
  const Json json = to_json(record);
  EXPECT_TRUE(json["comparisons"][0]["percent_delta"].is_null());
  const NormalizedRecord read = normalized_record_from_json(json, "r.json");
  EXPECT_EQ(read.comparisons[0].percent_delta, std::numeric_limits<double>::infinity());
  EXPECT_EQ(read, record);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
