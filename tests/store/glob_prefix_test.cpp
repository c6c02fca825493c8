// The range of benchmark ids a glob can match, which the database stores read from their
// benchmark index before fnmatch decides.
#include <gtest/gtest.h>

#include "store/glob_prefix.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(GlobRange, IsTheNameItselfForAGlobWithoutWildcards) {
  const GlobRange range = glob_range("sort-1000");
  EXPECT_EQ(range.lower, "sort-1000");
  EXPECT_EQ(range.upper, "sort-1001");
  EXPECT_TRUE(range.exact);
}

TEST(GlobRange, StopsAtTheFirstWildcardAndReadsQuotedOnesLiterally) {
  EXPECT_EQ(glob_range("sort*").lower, "sort");
  EXPECT_EQ(glob_range("sort*").upper, "soru");
  EXPECT_FALSE(glob_range("sort*").exact);
  EXPECT_EQ(glob_range("a?b").lower, "a");
  EXPECT_EQ(glob_range("a[bc]").lower, "a");
  const GlobRange quoted = glob_range("a\\*b");
  EXPECT_EQ(quoted.lower, "a*b");
  EXPECT_TRUE(quoted.exact);
  EXPECT_FALSE(glob_range("a\\").exact);
}

TEST(GlobRange, HasNoBoundsForAGlobThatStartsWithAWildcard) {
  const GlobRange range = glob_range("*sort");
  EXPECT_EQ(range.lower, "");
  EXPECT_FALSE(range.upper);
}

TEST(GlobRange, CarriesPastBytesAtTheirMaximum) {
  EXPECT_EQ(glob_range("a\xff*").upper, "b");
  EXPECT_FALSE(glob_range("\xff\xff*").upper);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
