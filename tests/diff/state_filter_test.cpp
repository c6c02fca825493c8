#include "diff/state_filter.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

ingest::ResultState state(const std::string& benchmark,
                          std::vector<std::pair<std::string, std::string>> axes) {
  ingest::ResultState s;
  s.benchmark = benchmark;
  s.axis_values = std::move(axes);
  return s;
}

ExitCode code_of(const std::vector<FilterFlag>& flags) {
  try {
    build_filter_plan(flags);
  } catch (const Error& error) {
    return error.code();
  }
  return ExitCode::kOk;
}

TEST(FilterPlan, ScopesAnAxisFilterToTheLatestBenchmark) {
  const auto plan = build_filter_plan({{'b', "copy"}, {'a', "T=F32"}, {'b', "sort"}});
  ASSERT_EQ(plan.scopes.size(), 2u);
  EXPECT_TRUE(plan.global_axis_filters.empty());
  ASSERT_EQ(plan.scopes[0].axis_filters.size(), 1u);
  EXPECT_EQ(plan.scopes[0].axis_filters[0].axis, "T");
  EXPECT_EQ(plan.scopes[0].axis_filters[0].values, std::vector<std::string>{"F32"});
  EXPECT_TRUE(plan.scopes[1].axis_filters.empty());

  EXPECT_TRUE(state_selected(plan, state("copy", {{"T", "F32"}})));
  EXPECT_FALSE(state_selected(plan, state("copy", {{"T", "U8"}})));
  EXPECT_TRUE(state_selected(plan, state("sort", {{"T", "U8"}})));
  EXPECT_FALSE(state_selected(plan, state("other", {{"T", "F32"}})));
  EXPECT_TRUE(benchmark_selected(plan, "sort"));
  EXPECT_FALSE(benchmark_selected(plan, "other"));
}

TEST(FilterPlan, AppliesAnAxisFilterBeforeAnyBenchmarkToEveryBenchmark) {
  const auto plan = build_filter_plan({{'a', "T=F32"}, {'b', "copy"}, {'b', "sort"}});
  ASSERT_EQ(plan.global_axis_filters.size(), 1u);
  EXPECT_TRUE(state_selected(plan, state("sort", {{"T", "F32"}})));
  EXPECT_FALSE(state_selected(plan, state("sort", {{"T", "U8"}})));
  EXPECT_FALSE(state_selected(plan, state("copy", {{"N", "1"}})));
}

TEST(FilterPlan, SelectsEverythingWithoutFlags) {
  const auto plan = build_filter_plan({});
  EXPECT_TRUE(benchmark_selected(plan, "anything"));
  EXPECT_TRUE(state_selected(plan, state("anything", {})));
}

TEST(FilterPlan, ReadsValueListsAndPowersOfTwo) {
  const auto plan = build_filter_plan({{'a', "T=[F32, F64]"}, {'a', "Elements[pow2]=[10,20]"}});
  ASSERT_EQ(plan.global_axis_filters.size(), 2u);
  EXPECT_EQ(plan.global_axis_filters[0].values, (std::vector<std::string>{"F32", "F64"}));
  EXPECT_EQ(plan.global_axis_filters[0].display, "T=[F32,F64]");
  EXPECT_EQ(plan.global_axis_filters[1].axis, "Elements");
  EXPECT_EQ(plan.global_axis_filters[1].values, (std::vector<std::string>{"1024", "1048576"}));
  EXPECT_EQ(plan.global_axis_filters[1].display, "Elements=[2^10,2^20]");
  EXPECT_TRUE(state_selected(plan, state("b", {{"T", "F64"}, {"Elements", "1024"}})));
  EXPECT_FALSE(state_selected(plan, state("b", {{"T", "F64"}, {"Elements", "2048"}})));
}

TEST(FilterPlan, RequiresEveryAxisFilterToMatch) {
  const auto plan = build_filter_plan({{'a', "T=F32"}, {'a', "N=8"}});
  EXPECT_TRUE(state_selected(plan, state("b", {{"T", "F32"}, {"N", "8"}})));
  EXPECT_FALSE(state_selected(plan, state("b", {{"T", "F32"}})));
}

TEST(FilterPlan, RejectsMalformedAxisFiltersAsUsageErrors) {
  EXPECT_EQ(code_of({{'a', "T"}}), ExitCode::kUsage);
  EXPECT_EQ(code_of({{'a', "=F32"}}), ExitCode::kUsage);
  EXPECT_EQ(code_of({{'a', "T="}}), ExitCode::kUsage);
  EXPECT_EQ(code_of({{'a', "T=[]"}}), ExitCode::kUsage);
  EXPECT_EQ(code_of({{'a', "N[pow2]=x"}}), ExitCode::kUsage);
  EXPECT_EQ(code_of({{'a', "N[pow2]=63"}}), ExitCode::kUsage);
  EXPECT_EQ(code_of({{'a', "[pow2]=3"}}), ExitCode::kUsage);
  try {
    build_filter_plan({{'a', "T"}});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "-a T: there is no '='. Write NAME=VALUE, NAME=[V1,V2] or NAME[pow2]=EXPONENT, e.g. "
              "-a T=F32.");
  }
}

TEST(DeviceFilter, ReadsAllOneIdOrAList) {
  EXPECT_EQ(parse_device_filter("all", "--reference-devices"), std::nullopt);
  EXPECT_EQ(parse_device_filter(" ALL ", "--reference-devices"), std::nullopt);
  EXPECT_EQ(parse_device_filter("1", "--x"), (std::vector<long long>{1}));
  EXPECT_EQ(parse_device_filter("0, 2,1", "--x"), (std::vector<long long>{0, 2, 1}));
}

TEST(DeviceFilter, RejectsAnythingElseNamingTheOption) {
  for (const char* text : {"", "-1", "0,", "a", "1.5", "0,,1"}) {
    try {
      parse_device_filter(text, "--compare-devices");
      FAIL() << text;
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kUsage) << text;
      EXPECT_EQ(std::string(error.what()).rfind("--compare-devices ", 0), 0u) << error.what();
    }
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
