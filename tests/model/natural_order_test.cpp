#include "model/natural_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(NaturalOrder, SortsParameterValuesByNumberNotByText) {
  std::vector<std::string> names{"sort[n=10000000]", "sort[n=3000000]", "sort[n=200]",
                                 "sort[n=200,k=10]", "sort[n=200,k=9]"};
  std::sort(names.begin(), names.end(), NaturalLess{});
  EXPECT_EQ(names, (std::vector<std::string>{"sort[n=200,k=9]", "sort[n=200,k=10]", "sort[n=200]",
                                             "sort[n=3000000]", "sort[n=10000000]"}));
}

TEST(NaturalOrder, ComparesTextByteByByteAndAPrefixFirst) {
  EXPECT_TRUE(natural_less("a", "b"));
  EXPECT_TRUE(natural_less("run", "run2"));
  EXPECT_FALSE(natural_less("run2", "run"));
  EXPECT_TRUE(natural_less("B", "a"));
  EXPECT_FALSE(natural_less("same", "same"));
}

TEST(NaturalOrder, OrdersEqualNumbersByTheirLeadingZerosSoTheOrderIsStrict) {
  EXPECT_TRUE(natural_less("v7", "v007"));
  EXPECT_FALSE(natural_less("v007", "v7"));
  EXPECT_TRUE(natural_less("v007", "v8"));
  EXPECT_TRUE(natural_less("x0", "x1"));
  EXPECT_TRUE(natural_less("x0", "x00"));
}

TEST(NaturalOrder, HandlesNumbersLongerThanAnyIntegerType) {
  EXPECT_TRUE(natural_less("n=99999999999999999999999", "n=100000000000000000000000"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
