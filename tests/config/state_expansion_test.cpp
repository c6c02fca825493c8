#include <gtest/gtest.h>

#include "config/benchmark_config.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

BenchmarkConfig config_with_axes() {
  BenchmarkConfig config;
  config.benchmark_id = "sweep";
  config.command.argv = {"./bench", "--size={size}", "{mode}", "{unknown}"};
  config.env = {{"MODE", "{mode}-{size}"}, {"FIXED", "1"}};
  config.parameters = {{"size", {"1", "10"}}, {"mode", {"x", "y", "z"}}};
  return config;
}

TEST(StateExpansion, YieldsOneStateNamedLikeTheBenchmarkWithoutAxes) {
  BenchmarkConfig config;
  config.benchmark_id = "plain";
  config.command.argv = {"./bench", "{size}"};
  const std::vector<BenchmarkState> states = expand_states(config);
  ASSERT_EQ(states.size(), 1u);
  EXPECT_EQ(states[0].name, "plain");
  EXPECT_EQ(states[0].config, &config);
  EXPECT_TRUE(states[0].parameter_values.empty());
  EXPECT_EQ(states[0].command.argv, (std::vector<std::string>{"./bench", "{size}"}));
}

TEST(StateExpansion, VariesTheFirstAxisSlowest) {
  const BenchmarkConfig config = config_with_axes();
  std::vector<std::string> names;
  for (const auto& state : expand_states(config)) names.push_back(state.name);
  EXPECT_EQ(names, (std::vector<std::string>{"sweep[size=1,mode=x]", "sweep[size=1,mode=y]",
                                             "sweep[size=1,mode=z]", "sweep[size=10,mode=x]",
                                             "sweep[size=10,mode=y]", "sweep[size=10,mode=z]"}));
}

TEST(StateExpansion, FillsAxisPlaceholdersInArgvAndEnvAndLeavesOtherBracesAlone) {
  const BenchmarkConfig config = config_with_axes();
  const BenchmarkState state = expand_states(config)[4];
  EXPECT_EQ(state.parameter_values,
            (std::vector<std::pair<std::string, std::string>>{{"size", "10"}, {"mode", "y"}}));
  EXPECT_EQ(state.command.argv,
            (std::vector<std::string>{"./bench", "--size=10", "y", "{unknown}"}));
  EXPECT_EQ(state.env, (std::map<std::string, std::string>{{"FIXED", "1"}, {"MODE", "y-10"}}));
}

TEST(StateExpansion, FillsShellScriptsWithoutTouchingShellBraceSyntax) {
  BenchmarkConfig config;
  config.benchmark_id = "sh";
  config.command.shell = true;
  config.command.script = "for i in {1..3}; do ./bench ${HOME} {n}; done; echo {n}}";
  config.parameters = {{"n", {"7"}}};
  const BenchmarkState state = expand_states(config).at(0);
  EXPECT_EQ(state.name, "sh[n=7]");
  EXPECT_EQ(state.command.script, "for i in {1..3}; do ./bench ${HOME} 7; done; echo 7}");
}

TEST(StateExpansion, DoesNotSubstituteInsideAValueThatLooksLikeAPlaceholder) {
  BenchmarkConfig config;
  config.benchmark_id = "v";
  config.command.argv = {"{a}{b}"};
  config.parameters = {{"a", {"{b}"}}, {"b", {"2"}}};
  EXPECT_EQ(expand_states(config).at(0).command.argv, std::vector<std::string>{"{b}2"});
}

TEST(StateExpansion, CountsTheCartesianProductOfAllAxes) {
  BenchmarkConfig config;
  config.benchmark_id = "big";
  config.command.argv = {"x"};
  config.parameters = {{"a", {"1", "2"}}, {"b", {"1", "2", "3"}}, {"c", {"1", "2", "3", "4"}}};
  EXPECT_EQ(expand_states(config).size(), 24u);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
