#include "measure/duration_text.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(DurationText, ReadsSecondsMinutesHoursAndMilliseconds) {
  EXPECT_EQ(parse_duration_text("90s"), 90);
  EXPECT_EQ(parse_duration_text("2m"), 120);
  EXPECT_EQ(parse_duration_text("1.5min"), 90);
  EXPECT_EQ(parse_duration_text("1h"), 3600);
  EXPECT_EQ(parse_duration_text("500ms"), 0.5);
  EXPECT_EQ(parse_duration_text("45"), 45);
}

TEST(DurationText, RefusesZeroNegativeAndUnknownUnits) {
  EXPECT_THROW(parse_duration_text("0s"), std::invalid_argument);
  EXPECT_THROW(parse_duration_text("-5s"), std::invalid_argument);
  EXPECT_THROW(parse_duration_text("5 parsecs"), std::invalid_argument);
  EXPECT_THROW(parse_duration_text(""), std::invalid_argument);
  try {
    parse_duration_text("2x");
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "'2x' is not a duration; write a positive number with a unit: 90s, 2m, 1h or "
                 "500ms (a bare number is seconds)");
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
