#include "ab/scenario_plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;

ScenarioSpec spec_named(const std::string& name, std::vector<std::string> suites = kAbSuites) {
  ScenarioSpec spec;
  spec.name = name;
  spec.suites = std::move(suites);
  return spec;
}

PlanRequest commands(const std::string& base, const std::string& head) {
  PlanRequest request;
  request.sides[0].command = base;
  request.sides[1].command = head;
  return request;
}

TEST(ScenarioPlan, WithoutAFileTheSidesFormOneAdhocScenarioRunByTheShell) {
  const auto planned = plan_scenarios(commands("sort --n 10", "./sort-new --n 10"));
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_EQ(planned[0].name, "adhoc");
  EXPECT_THAT(planned[0].side(AbSide::kBase).argv, ElementsAre("/bin/sh", "-c", "sort --n 10"));
  EXPECT_THAT(planned[0].side(AbSide::kHead).argv,
              ElementsAre("/bin/sh", "-c", "./sort-new --n 10"));
  EXPECT_EQ(planned[0].side(AbSide::kHead).env.at("PERFGATE_AB_SIDE"), "head");
  EXPECT_EQ(planned[0].rules, VerdictRules{});
}

TEST(ScenarioPlan, ReplacesSideByTheSidesCommandOrCheckout) {
  PlanRequest request = commands("./old", "./new");
  ScenarioSpec spec = spec_named("version");
  spec.command = CommandSpec{{}, "{side} --version", true};
  spec.validator = CommandSpec{{"check", "{side}"}, "", false};
  request.file = ScenarioFile{"s.toml", {}, {spec}};
  const auto planned = plan_scenarios(request);
  EXPECT_THAT(planned[0].side(AbSide::kBase).argv, ElementsAre("/bin/sh", "-c", "./old --version"));
  EXPECT_THAT(planned[0].validator[1]->argv, ElementsAre("check", "./new"));

  PlanRequest checkouts;
  checkouts.sides[0].dir = "/src/main";
  checkouts.sides[1].dir = "/src/pr";
  checkouts.file = request.file;
  const auto in_dirs = plan_scenarios(checkouts);
  EXPECT_THAT(in_dirs[0].side(AbSide::kHead).argv,
              ElementsAre("/bin/sh", "-c", "/src/pr --version"));
  EXPECT_EQ(in_dirs[0].side(AbSide::kHead).cwd, std::filesystem::path("/src/pr"));
}

TEST(ScenarioPlan, RefusesAScenarioThatRunsTheSameCommandOnBothSides) {
  PlanRequest request = commands("./build-main/sorter", "./build-pr/sorter");
  ScenarioSpec spec = spec_named("sort");
  spec.command = CommandSpec{{"./build/sorter", "--n", "10"}, "", false};
  request.file = ScenarioFile{"s.toml", {}, {spec}};
  try {
    plan_scenarios(request);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_STREQ(error.what(),
                 "s.toml: scenarios.sort.command: runs the same command on both sides "
                 "(./build/sorter --n 10), so ab would compare a build with itself. Put {side} "
                 "where each side's --base/--head command goes (e.g. command = [\"{side}\", "
                 "\"--n\", \"1000\"]), or pass --base-dir/--head-dir to run it in each side's "
                 "checkout");
  }
  // The same command in two checkouts runs two builds; the same --base and --head is an
  // A/A run the user asked for.
  PlanRequest checkouts;
  checkouts.sides[0].dir = "/src/main";
  checkouts.sides[1].dir = "/src/pr";
  checkouts.file = request.file;
  EXPECT_EQ(plan_scenarios(checkouts).size(), 1u);
  PlanRequest same = commands("./build/sorter", "./build/sorter");
  same.file = request.file;
  EXPECT_EQ(plan_scenarios(same).size(), 1u);
}

TEST(ScenarioPlan, SelectsBySuiteOrByNameWhateverItsSuites) {
  PlanRequest request = commands("a", "b");
  request.file = ScenarioFile{
      "s.toml", {}, {spec_named("quick"), spec_named("long", {"full"}), spec_named("other")}};
  std::vector<std::string> names;
  for (const auto& s : plan_scenarios(request)) names.push_back(s.name);
  EXPECT_THAT(names, ElementsAre("quick", "other"));
  request.suite = "full";
  EXPECT_EQ(plan_scenarios(request).size(), 3u);
  request.suite = "basic";
  request.scenario = "long";
  EXPECT_EQ(plan_scenarios(request).front().name, "long");
}

TEST(ScenarioPlan, ANamedScenarioThatDoesNotExistIsAUsageErrorThatSuggestsTheNearest) {
  PlanRequest request = commands("a", "b");
  request.file = ScenarioFile{"s.toml", {}, {spec_named("slow-path"), spec_named("quick")}};
  request.scenario = "quik";
  try {
    plan_scenarios(request);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
    EXPECT_STREQ(error.what(),
                 "--scenario quik: s.toml has no such scenario. Did you mean 'quick'?");
  }
  request.scenario = "memory";
  try {
    plan_scenarios(request);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "--scenario memory: s.toml has no such scenario. Use one of: slow-path, quick");
  }
}

TEST(ScenarioPlan, WarnsWhenTheNoiseLimitIsMoreThanTwiceABudget) {
  PlanRequest request = commands("a", "b");
  request.command_line.budgets[0] = Budget{0.05, 0.001};
  const PlannedScenario planned = plan_scenarios(request).front();
  EXPECT_THAT(planned.warnings,
              ElementsAre("the noise limit (30%) is more than twice the latency budget (+5% "
                          "and 1 ms): a side may vary by up to 30% and still count as quiet, "
                          "so real slowdowns below the noise limit can pass. Lower --noise-limit "
                          "toward the budget, or raise the budget"));
  EXPECT_THAT(plan_scenarios(commands("a", "b")).front().warnings, ElementsAre());
}

TEST(ScenarioPlan, TheTimeoutFlagLimitsEveryRunOverTheScenariosOwn) {
  PlanRequest request = commands("a", "b");
  ScenarioSpec spec = spec_named("s");
  spec.timeout_s = 5;
  request.file = ScenarioFile{"s.toml", {}, {spec}};
  EXPECT_EQ(plan_scenarios(request).front().side(AbSide::kHead).timeout_s, 5);
  EXPECT_EQ(plan_scenarios(request).front().timeout_source, "timeout_s");
  request.timeout_s = 90;
  const PlannedScenario planned = plan_scenarios(request).front();
  EXPECT_EQ(planned.side(AbSide::kBase).timeout_s, 90);
  EXPECT_EQ(planned.timeout_source, "--timeout");
  EXPECT_EQ(plan_scenarios(commands("a", "b")).front().timeout_source, "");
}

TEST(ScenarioPlan, DefaultRunLimitIsTenTimesTheSlowestWarmupAtLeastSixtySeconds) {
  EXPECT_EQ(default_run_limit_s(std::nullopt), std::nullopt);
  EXPECT_EQ(default_run_limit_s(0.5), 60);
  EXPECT_EQ(default_run_limit_s(12), 120);
}

TEST(ScenarioPlan, CheckoutsNeedEveryScenarioToHaveACommand) {
  PlanRequest request;
  request.sides[0].dir = "/a";
  request.sides[1].dir = "/b";
  request.file = ScenarioFile{"s.toml", {}, {spec_named("bare")}};
  try {
    plan_scenarios(request);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_STREQ(error.what(),
                 "s.toml: scenarios.bare.command: missing, and --base-dir/--head-dir give no "
                 "command to run. Add a command to the scenario");
  }
}

TEST(ScenarioPlan, CommandLineBudgetsWinOverTheScenarioWhichWinsOverTheFile) {
  PlanRequest request = commands("a", "b");
  ScenarioSpec spec = spec_named("s");
  spec.overrides.budgets[0] = Budget{0.10, 0.1};
  spec.overrides.noise_limit = 0.2;
  RuleOverrides file_wide;
  file_wide.budgets[0] = Budget{0.50, 5};
  file_wide.budgets[1] = Budget{0.30, 1};
  file_wide.noise_limit = 0.4;
  request.file = ScenarioFile{"s.toml", file_wide, {spec}};
  request.command_line.budgets[0] = Budget{0.05, 0.001};
  const VerdictRules rules = plan_scenarios(request).front().rules;
  EXPECT_EQ(rules.budgets[AbMetric::kDuration], (Budget{0.05, 0.001}));
  EXPECT_EQ(rules.budgets[AbMetric::kCpu], (Budget{0.30, 1}));
  EXPECT_EQ(rules.budgets[AbMetric::kRss], Budgets::defaults()[AbMetric::kRss]);
  EXPECT_DOUBLE_EQ(rules.noise_limit, 0.2);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
