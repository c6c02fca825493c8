#include "ab/scenario_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;

constexpr double kMiB = 1024.0 * 1024.0;

// The message and exit code of the error loading `text` as a scenarios file throws.
std::pair<std::string, ExitCode> load_error(const TempDir& dir, const std::string& text) {
  const auto file = dir.write("scenarios.toml", text);
  try {
    load_scenario_file(file);
  } catch (const Error& error) {
    return {error.what(), error.code()};
  }
  return {"no error", ExitCode::kOk};
}

TEST(ScenarioFile, TakesPerfgatesMetricNamesAndRefusesABudgetNamedTwice) {
  TempDir dir;
  const auto file = dir.write("scenarios.toml", R"(
[budgets]
latency = "5%,1ms"
memory = "10%,2MB"
[scenarios.plain]
command = "{side} --help"
)");
  VerdictRules rules;
  load_scenario_file(file).overrides.apply_to(rules);
  EXPECT_EQ(rules.budgets[AbMetric::kDuration], (Budget{0.05, 0.001}));
  EXPECT_EQ(rules.budgets[AbMetric::kRss], (Budget{0.10, 2 * kMiB}));

  const auto twice = dir.write("twice.toml", R"(
[budgets]
latency = "5%,1ms"
duration = "6%,1ms"
[scenarios.plain]
command = "{side} --help"
)");
  try {
    load_scenario_file(twice);
    FAIL() << "a budget named twice was accepted";
  } catch (const Error& error) {
    EXPECT_THAT(std::string(error.what()),
                ::testing::HasSubstr("budgets.duration: names the latency budget a second time "
                                     "(as its alias duration). Keep only latency"));
  }
}

TEST(ScenarioFile, ReadsEveryKeyOfAScenario) {
  TempDir dir;
  dir.write("fixtures/input.txt", "data");
  const auto file = dir.write("scenarios.toml", R"(
noise_limit = "20%"
[budgets]
duration = "5%,1ms"
[scenarios.startup]
command = ["{side}/app", "--version"]
env = { LANG = "C" }
suites = ["full"]
expect_exit = 3
expect_output = ['^app \d+']
validator = "test -s $PERFGATE_AB_OUTPUT_DIR/out.txt"
timeout_s = 30
fixtures = ["fixtures/input.txt"]
noise_limit = "10%"
[scenarios.startup.budgets]
rss = "10%,1MiB"
[scenarios.plain]
command = "{side} --help"
)");
  const ScenarioFile loaded = load_scenario_file(file);
  ASSERT_EQ(loaded.scenarios.size(), 2u);
  const ScenarioSpec& startup = loaded.scenarios[0];
  EXPECT_EQ(startup.name, "startup");
  EXPECT_THAT(startup.command->argv, ElementsAre("{side}/app", "--version"));
  EXPECT_EQ(startup.env.at("LANG"), "C");
  EXPECT_THAT(startup.suites, ElementsAre("full"));
  EXPECT_EQ(startup.expect_exit, 3);
  EXPECT_THAT(startup.expect_output, ElementsAre("^app \\d+"));
  EXPECT_TRUE(startup.validator->shell);
  EXPECT_EQ(startup.timeout_s, 30.0);
  EXPECT_THAT(startup.fixtures, ElementsAre(dir / "fixtures/input.txt"));

  VerdictRules rules;
  loaded.overrides.apply_to(rules);
  startup.overrides.apply_to(rules);
  EXPECT_EQ(rules.budgets[AbMetric::kDuration], (Budget{0.05, 0.001}));
  EXPECT_EQ(rules.budgets[AbMetric::kCpu], (Budget{0.20, 0.5}));
  EXPECT_EQ(rules.budgets[AbMetric::kRss], (Budget{0.10, 1 * kMiB}));
  EXPECT_DOUBLE_EQ(rules.noise_limit, 0.10);

  const ScenarioSpec& plain = loaded.scenarios[1];
  EXPECT_EQ(plain.command->script, "{side} --help");
  EXPECT_THAT(plain.suites, ElementsAre("basic", "full"));
  EXPECT_EQ(plain.expect_exit, 0);
}

TEST(ScenarioFile, ACommandIsOptionalBecauseTheSidesCommandCanStandIn) {
  TempDir dir;
  const auto file = dir.write("scenarios.toml", "[scenarios.bare]\nsuites = [\"basic\"]\n");
  EXPECT_FALSE(load_scenario_file(file).scenarios[0].command.has_value());
}

TEST(ScenarioFile, RejectsAnUnknownKeyWithASuggestion) {
  TempDir dir;
  const auto [message, code] = load_error(dir, "[scenarios.startup]\ncomand = \"true\"\n");
  EXPECT_EQ(code, ExitCode::kDataError);
  EXPECT_EQ(message, (dir / "scenarios.toml").string() +
                         ": scenarios.startup.comand: unknown key 'comand'. Did you mean "
                         "'command'?");
}

TEST(ScenarioFile, AnUnknownKeyDoesNotHideTheOtherErrorsOfItsTable) {
  TempDir dir;
  const auto [message, code] = load_error(dir, R"(noise_limt = "30%"
[budgets]
duraton = "5%,1ms"
cpu = "5%"
[scenarios.startup]
comand = "true"
expect_exit = 300
)");
  EXPECT_EQ(code, ExitCode::kDataError);
  const std::string file = (dir / "scenarios.toml").string();
  EXPECT_EQ(
      message,
      file + ": noise_limt: unknown key 'noise_limt'. Did you mean 'noise_limit'?\n" + file +
          ": budgets.duraton: unknown key 'duraton'. Did you mean 'duration'?\n" + file +
          ": budgets.cpu: cpu_time budget '5%' needs a relative and an absolute part separated "
          "by a comma, e.g. 25%,1s. Write it as \"RELATIVE%,ABSOLUTE\", e.g. \"25%,1s\"\n" +
          file + ": scenarios.startup.comand: unknown key 'comand'. Did you mean 'command'?\n" +
          file +
          ": scenarios.startup.expect_exit: must be at most 255, found 300. Set a smaller value");
}

TEST(ScenarioFile, RejectsABudgetThatIsNotRelativeAndAbsolute) {
  TempDir dir;
  const auto [message, code] = load_error(dir, "[budgets]\nduration = \"5%\"\n[scenarios.a]\n");
  EXPECT_EQ(code, ExitCode::kDataError);
  EXPECT_EQ(message, (dir / "scenarios.toml").string() +
                         ": budgets.duration: latency budget '5%' needs a relative and an "
                         "absolute part separated by a comma, e.g. 25%,1s. Write it as "
                         "\"RELATIVE%,ABSOLUTE\", e.g. \"25%,1s\"");
}

// Found by fuzzing (fuzz/corpus/scenario_file_toml/regex_backref_overflow.toml): libstdc++
// overflowed a long reading these numbers, undefined behaviour before any regex_error.
TEST(ScenarioFile, RefusesARegexWhoseBackReferenceOrRepeatCountIsTooLarge) {
  TempDir dir;
  const std::string file = (dir / "scenarios.toml").string();
  auto [message, code] = load_error(
      dir, "[scenarios.a]\nexpect_output = ['^app \\d+\\.\\5555555555555555555555d+']\n");
  EXPECT_EQ(code, ExitCode::kDataError);
  EXPECT_EQ(message, file +
                         ": scenarios.a.expect_output[0]: is not a valid regular expression: "
                         "back-reference \\5555… names no group. Write an ECMAScript regex; in "
                         "TOML, a 'literal string' keeps backslashes");
  std::tie(message, code) =
      load_error(dir, "[scenarios.a]\nexpect_output = ['a{1,99999999999999999999}']\n");
  EXPECT_EQ(message, file +
                         ": scenarios.a.expect_output[0]: is not a valid regular expression: "
                         "repeat count 9999999… is too large. Write an ECMAScript regex; in "
                         "TOML, a 'literal string' keeps backslashes");
  EXPECT_EQ(load_error(dir, "[scenarios.a]\nexpect_output = ['(a)\\1 x{2,100} \\\\1234']\n").first,
            "no error");
}

TEST(ScenarioFile, ListsEveryProblemOfEveryScenarioAtOnce) {
  TempDir dir;
  const auto [message, code] = load_error(dir, R"(
[scenarios.a]
suites = ["nightly"]
expect_output = ["(unclosed"]
[scenarios.b]
expect_exit = 300
noise_limit = 0.3
)");
  EXPECT_EQ(code, ExitCode::kDataError);
  const std::string file = (dir / "scenarios.toml").string();
  EXPECT_THAT(message, ::testing::HasSubstr(file + ": scenarios.a.suites[0]: unknown suite "
                                                   "'nightly'. Use \"basic\" or \"full\"\n"));
  EXPECT_THAT(message, ::testing::HasSubstr(file + ": scenarios.a.expect_output[0]: is not a "
                                                   "valid regular expression"));
  EXPECT_THAT(message, ::testing::HasSubstr(file + ": scenarios.b.expect_exit: must be at most "
                                                   "255, found 300. Set a smaller value\n"));
  EXPECT_THAT(message, ::testing::HasSubstr(file + ": scenarios.b.noise_limit: expected a "
                                                   "string, found a floating-point number"));
}

TEST(ScenarioFile, AMissingFixtureIsAMissingInput) {
  TempDir dir;
  const auto [message, code] = load_error(dir, "[scenarios.a]\nfixtures = [\"gone.bin\"]\n");
  EXPECT_EQ(code, ExitCode::kNoInput);
  EXPECT_EQ(message, (dir / "scenarios.toml").string() + ": scenarios.a.fixtures[0]: fixture " +
                         (dir / "gone.bin").string() +
                         " is not a file. Name an existing file, relative to the scenarios "
                         "file's folder");
}

TEST(ScenarioFile, NeedsAtLeastOneScenario) {
  TempDir dir;
  const auto [message, code] = load_error(dir, "noise_limit = \"30%\"\n");
  EXPECT_EQ(code, ExitCode::kDataError);
  EXPECT_EQ(message, (dir / "scenarios.toml").string() +
                         ": scenarios: missing required key. Add at least one [scenarios.NAME] "
                         "table with a command");
}

TEST(ScenarioFile, RejectsAScenarioNameThatCannotBeAFileName) {
  TempDir dir;
  const auto [message, code] = load_error(dir, "[scenarios.\"a/b\"]\ncommand = \"true\"\n");
  EXPECT_EQ(code, ExitCode::kDataError);
  EXPECT_THAT(message, ::testing::HasSubstr(": scenarios.a/b: scenario names may use only"));
}

// The one TOML block of docs/ab.md.
std::string documented_example() {
  std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/docs/ab.md");
  std::ostringstream block;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "```toml") {
      inside = true;
    } else if (inside && line == "```") {
      break;
    } else if (inside) {
      block << line << "\n";
    }
  }
  return block.str();
}

TEST(ScenarioFile, TheDocumentedExampleLoads) {
  TempDir dir;
  dir.write("data/input.bin", "input");
  const auto file = dir.write("scenarios.toml", documented_example());
  const ScenarioFile loaded = load_scenario_file(file);
  ASSERT_EQ(loaded.scenarios.size(), 2u);
  EXPECT_EQ(loaded.scenarios[0].name, "startup");
  EXPECT_EQ(loaded.scenarios[1].name, "sort-1m");
  EXPECT_EQ(loaded.scenarios[1].overrides.budgets[0], (Budget{0.10, 0.05}));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
