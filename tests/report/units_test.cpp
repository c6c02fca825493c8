#include "report/units.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(Units, ScalesSecondsToTheMostReadableUnit) {
  EXPECT_EQ(format_quantity(2.5e-8, "s"), "25 ns");
  EXPECT_EQ(format_quantity(4.2e-5, "s"), "42 µs");
  EXPECT_EQ(format_quantity(0.0312, "s"), "31.2 ms");
  EXPECT_EQ(format_quantity(12.34567, "s"), "12.35 s");
  EXPECT_EQ(format_quantity(0, "s"), "0 s");
}

TEST(Units, ScalesMegabytesToKilobytesAndGigabytes) {
  EXPECT_EQ(format_quantity(0.5, "MB"), "512 KB");
  EXPECT_EQ(format_quantity(148.9, "MB"), "148.9 MB");
  EXPECT_EQ(format_quantity(2048, "MB"), "2 GB");
}

TEST(Units, PrefixesLargeValuesOfOtherUnits) {
  EXPECT_EQ(format_quantity(8334000, "records/s"), "8.334 M records/s");
  EXPECT_EQ(format_quantity(12500, "frames/s"), "12.5 k frames/s");
  EXPECT_EQ(format_quantity(1.58, "frames/s"), "1.58 frames/s");
  EXPECT_EQ(format_quantity(7, ""), "7");
}

}  // namespace
}  // namespace perfgate
