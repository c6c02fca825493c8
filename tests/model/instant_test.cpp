#include "model/instant.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(Instant, NormalisesAnOffsetToUtc) {
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08T22:00:00+09:00"), "2026-05-08T13:00:00Z");
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08T22:00:00+00:00"), "2026-05-08T22:00:00Z");
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08T22:00:00-0130"), "2026-05-08T23:30:00Z");
}

TEST(Instant, CarriesTheDateAcrossMidnightAndYearEnds) {
  EXPECT_EQ(normalize_utc_timestamp("2027-01-01T03:00:00+09:00"), "2026-12-31T18:00:00Z");
  EXPECT_EQ(normalize_utc_timestamp("2024-02-28T23:00:00-02:00"), "2024-02-29T01:00:00Z");
}

TEST(Instant, KeepsANonZeroFractionAndDropsItsTrailingZeros) {
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08T22:00:00.500Z"), "2026-05-08T22:00:00.5Z");
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08T22:00:00.000000Z"), "2026-05-08T22:00:00Z");
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08 22:00:00.1234567"), "2026-05-08T22:00:00.123456Z");
}

TEST(Instant, ReadsADateAndAMinuteWithoutSecondsAsUtc) {
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08"), "2026-05-08T00:00:00Z");
  EXPECT_EQ(normalize_utc_timestamp("2026-05-08T22:00"), "2026-05-08T22:00:00Z");
}

TEST(Instant, RefusesTextThatIsNoDateTime) {
  for (const char* text : {"", "yesterday", "2026-02-30T00:00:00Z", "2026-05-08T24:00:00Z",
                           "2026-05-08T22:00:00+9", "2026-05-08T22:00:00Zjunk", "2026-5-8"}) {
    EXPECT_EQ(normalize_utc_timestamp(text), std::nullopt) << text;
    EXPECT_EQ(parse_instant_us(text), std::nullopt) << text;
  }
}

TEST(Instant, CountsMicrosecondsSinceTheEpoch) {
  EXPECT_EQ(parse_instant_us("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_instant_us("1970-01-01T00:00:01.25Z"), 1250000);
  EXPECT_EQ(parse_instant_us("2026-05-08T13:00:00Z"),
            parse_instant_us("2026-05-08T22:00:00+09:00"));
}

TEST(Instant, OrdersByInstantNotByText) {
  // As text, "…22:00:00+09:00" sorts after "…14:00:00Z"; as instants it is earlier.
  EXPECT_TRUE(instant_before("2026-05-08T22:00:00+09:00", "2026-05-08T14:00:00Z"));
  EXPECT_FALSE(instant_before("2026-05-08T14:00:00Z", "2026-05-08T22:00:00+09:00"));
  // "…00Z" sorts after "…00.5Z" as text.
  EXPECT_TRUE(instant_before("2026-05-08T14:00:00Z", "2026-05-08T14:00:00.5Z"));
  EXPECT_TRUE(instant_before("not a time", "2000-01-01T00:00:00Z"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
