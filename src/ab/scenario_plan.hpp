#pragma once
// Turns the scenarios file and the command line into the scenarios `perfgate ab` runs:
// which scenarios (suite or --scenario), what each side executes and where, and the rules
// each is judged by (defaults < file [budgets] < scenario budgets < command-line flags).
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ab/scenario_file.hpp"
#include "measure/executor.hpp"

namespace perfgate {

enum class AbSide { kBase = 0, kHead = 1 };
inline constexpr std::array<AbSide, 2> kAbSides = {AbSide::kBase, AbSide::kHead};
std::string_view side_name(AbSide side);  ///< "base", "head"

/// One side: a command (--base/--head) or a checkout folder (--base-dir/--head-dir).
struct SideSource {
  std::string command;                       ///< command mode
  std::optional<std::filesystem::path> dir;  ///< checkout mode
};

/// A scenario ready to run. ProcessSpecs carry argv, cwd, env and timeout; the protocol
/// adds the log path and the run's output folder.
struct PlannedScenario {
  std::string name;
  std::array<ProcessSpec, 2> run;                       ///< by AbSide
  std::array<std::optional<ProcessSpec>, 2> validator;  ///< by AbSide
  int expect_exit = 0;
  std::vector<std::string> expect_output;
  std::vector<std::filesystem::path> fixtures;
  VerdictRules rules;

  ProcessSpec& side(AbSide s) { return run[static_cast<std::size_t>(s)]; }
  const ProcessSpec& side(AbSide s) const { return run[static_cast<std::size_t>(s)]; }
};

struct PlanRequest {
  std::array<SideSource, 2> sides;  ///< by AbSide
  std::optional<ScenarioFile> file;
  std::string suite = "basic";          ///< used when no scenario is named
  std::optional<std::string> scenario;  ///< --scenario: this one, whatever its suites
  RuleOverrides command_line;
};

/// Name of the one scenario made from --base/--head when there is no scenarios file.
inline constexpr const char* kAdhocScenario = "adhoc";

/// The scenarios to run, in file order. Error(kUsage) when none is selected or a named
/// scenario does not exist; Error(kDataError) when a scenario has no command in checkout
/// mode (there is no side command to fall back on).
std::vector<PlannedScenario> plan_scenarios(const PlanRequest& request);

}  // namespace perfgate
