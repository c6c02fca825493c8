#include "ab/budget.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr double kMiB = 1024.0 * 1024.0;

TEST(Budget, DefaultsAreTheSeedsBudgets) {
  const Budgets budgets = Budgets::defaults();
  EXPECT_EQ(budgets[AbMetric::kDuration], (Budget{0.25, 1.0}));
  EXPECT_EQ(budgets[AbMetric::kCpu], (Budget{0.20, 0.5}));
  EXPECT_EQ(budgets[AbMetric::kRss], (Budget{0.20, 32 * kMiB}));
}

TEST(Budget, IsExceededOnlyWhenBothTheRelativeAndTheAbsoluteExcessAreExceeded) {
  const Budget budget{0.25, 1.0};
  EXPECT_TRUE(budget.exceeded_by(10.0, 13.0));     // +30% and +3 s
  EXPECT_FALSE(budget.exceeded_by(0.1, 0.5));      // +400% but only +0.4 s
  EXPECT_FALSE(budget.exceeded_by(100.0, 110.0));  // +10 s but only +10%
  EXPECT_FALSE(budget.exceeded_by(4.0, 5.0));      // exactly +25% and +1 s is within
  EXPECT_FALSE(budget.exceeded_by(10.0, 8.0));     // faster
}

TEST(Budget, ParsesASettingWithPercentAndUnit) {
  const BudgetSetting duration = parse_budget_setting("duration=5%,1ms");
  EXPECT_EQ(duration.metric, AbMetric::kDuration);
  EXPECT_DOUBLE_EQ(duration.budget.relative, 0.05);
  EXPECT_DOUBLE_EQ(duration.budget.absolute, 0.001);
  const BudgetSetting cpu = parse_budget_setting("cpu=10%,0.1s");
  EXPECT_EQ(cpu.metric, AbMetric::kCpu);
  EXPECT_DOUBLE_EQ(cpu.budget.absolute, 0.1);
  const BudgetSetting rss = parse_budget_setting("rss=20%,32MiB");
  EXPECT_EQ(rss.metric, AbMetric::kRss);
  EXPECT_DOUBLE_EQ(rss.budget.absolute, 32 * kMiB);
  EXPECT_DOUBLE_EQ(parse_budget(AbMetric::kDuration, "25%, 250us").absolute, 0.00025);
  EXPECT_DOUBLE_EQ(parse_budget(AbMetric::kRss, "0%,4096").absolute, 4096);
}

TEST(Budget, TakesPerfgatesMetricNamesAndTheSeedsNamesAsAliases) {
  EXPECT_EQ(parse_budget_setting("latency=5%,1ms").metric, AbMetric::kDuration);
  EXPECT_EQ(parse_budget_setting("cpu_time=5%,1ms").metric, AbMetric::kCpu);
  EXPECT_EQ(parse_budget_setting("memory=5%,1MB").metric, AbMetric::kRss);
  EXPECT_EQ(parse_budget_setting("rss=5%,1MiB").budget,
            parse_budget_setting("memory=5%,1MB").budget);
  EXPECT_DOUBLE_EQ(parse_budget_setting("latency=5%,250µs").budget.absolute, 250e-6);
  EXPECT_EQ(metric_key(AbMetric::kCpu), "cpu_time");
  EXPECT_EQ(metric_alias(AbMetric::kCpu), "cpu");
}

TEST(Budget, RejectsSettingsThatDoNotSayWhatTheyMean) {
  EXPECT_THROW(parse_budget_setting("speed=5%,1ms"), std::invalid_argument);
  EXPECT_THROW(parse_budget_setting("duration=5%"), std::invalid_argument);
  EXPECT_THROW(parse_budget_setting("duration=0.05,1ms"), std::invalid_argument);
  EXPECT_THROW(parse_budget_setting("duration=5%,1MiB"), std::invalid_argument);
  EXPECT_THROW(parse_budget_setting("rss=5%,1ms"), std::invalid_argument);
  EXPECT_THROW(parse_budget_setting("cpu=-5%,1s"), std::invalid_argument);
  try {
    parse_budget_setting("duration=5%,1h");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "absolute latency budget '1h' is not a non-negative amount in s, ms or µs, "
                 "e.g. 1s");
  }
}

TEST(Budget, ParsesTheNoiseLimitAsAPercentage) {
  EXPECT_DOUBLE_EQ(parse_noise_limit("30%"), 0.30);
  EXPECT_THROW(parse_noise_limit("0.3"), std::invalid_argument);
}

TEST(Budget, DescribesItselfInTheMetricsUnit) {
  EXPECT_EQ(describe_budget(AbMetric::kDuration, {0.25, 1.0}), "+25% and 1 s");
  EXPECT_EQ(describe_budget(AbMetric::kRss, {0.2, 32 * kMiB}), "+20% and 32 MB");
  EXPECT_EQ(format_metric_value(AbMetric::kCpu, 0.5), "500 ms");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(Budget, APercentBesideALimitNeverReadsAsTheLimit) {
  EXPECT_EQ(percent_beside(0.3004, 0.30), "30.04");
  EXPECT_EQ(percent_beside(0.30, 0.30), "30");
  EXPECT_EQ(percent_beside(0.45, 0.30), "45");
  EXPECT_EQ(percent_beside(0.2996, 0.30), "29.96");
  EXPECT_EQ(percent_beside(0.2512, 0.25, 1), "25.1");
  EXPECT_EQ(percent_beside(0.25004, 0.25, 1), "25.004");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(InstructionBudget, ReadsAPercentageAndAnOptionalCountAndLeavesOtherMetricsAlone) {
  EXPECT_EQ(parse_instruction_budget("instructions=1%"), (Budget{0.01, 0}));
  EXPECT_EQ(parse_instruction_budget("instructions=0.5%,1000"), (Budget{0.005, 1000}));
  EXPECT_EQ(parse_instruction_budget("latency=5%,1ms"), std::nullopt);
  EXPECT_THROW(parse_instruction_budget("instructions=2"), std::invalid_argument);
  EXPECT_THROW(parse_instruction_budget("instructions=2%,-3"), std::invalid_argument);
  EXPECT_THROW(parse_instruction_budget("instructions=2%,5ms"), std::invalid_argument);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
