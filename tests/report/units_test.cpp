#include "report/units.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(Units, ScalesSecondsToTheMostReadableUnit) {
  EXPECT_EQ(format_quantity(2.5e-8, "s"), "25 ns");
  EXPECT_EQ(format_quantity(4.2e-5, "s"), "42 µs");
  EXPECT_EQ(format_quantity(0.0312, "s"), "31.2 ms");
  EXPECT_EQ(format_quantity(12.34567, "s"), "12.35 s");
  EXPECT_EQ(format_quantity(0, "s"), "0 s");
}

TEST(Units, KeepsMegabytesBelowAGibibyteInMegabytes) {
  EXPECT_EQ(format_quantity(0.5, "MB"), "0.5 MB");
  EXPECT_EQ(format_quantity(148.9, "MB"), "148.9 MB");
  EXPECT_EQ(format_quantity(1023.9, "MB"), "1024 MB");
}

TEST(Units, ShowsMegabytesFrom1024InGibibytesSinceAnMBIsAMebibyte) {
  EXPECT_EQ(format_quantity(1024, "MB"), "1 GiB");
  EXPECT_EQ(format_quantity(2048, "MB"), "2 GiB");
  EXPECT_EQ(format_quantity(10840.4, "MB"), "10.59 GiB");
  EXPECT_EQ(format_quantity(-1536, "MB"), "-1.5 GiB");
  const DisplayUnit gibibytes = choose_display_unit(4096, "MB");
  EXPECT_EQ(format_in(256, gibibytes), "0.25 GiB");
}

TEST(Units, ShowsValuesSideBySideInTheUnitOfTheLargest) {
  const DisplayUnit seconds = choose_display_unit(1.02, "s");
  EXPECT_EQ(format_in(0.98, seconds), "0.98 s");
  EXPECT_EQ(format_in(1.02, seconds), "1.02 s");
  const DisplayUnit milliseconds = choose_display_unit(0.0312, "s");
  EXPECT_EQ(format_in(0.5, milliseconds), "500 ms");
  EXPECT_EQ(format_in(0, milliseconds), "0 ms");
}

TEST(Units, NeverWritesAnExponent) {
  EXPECT_EQ(format_quantity(12345.6, "s"), "12346 s");
  EXPECT_EQ(format_quantity(9999.7, "items"), "10000 items");
}

TEST(Units, PrefixesLargeValuesOfOtherUnits) {
  EXPECT_EQ(format_quantity(8334000, "records/s"), "8.334 M records/s");
  EXPECT_EQ(format_quantity(12500, "frames/s"), "12.5 k frames/s");
  EXPECT_EQ(format_quantity(1.58, "frames/s"), "1.58 frames/s");
  EXPECT_EQ(format_quantity(7, ""), "7");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
