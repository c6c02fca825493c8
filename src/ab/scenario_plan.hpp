#pragma once
// Turns the scenarios file and the command line into the scenarios `perfgate ab` runs:
// which scenarios (suite or --scenario), what each side executes and where, and the rules
// each is judged by (defaults < file [budgets] < scenario budgets < command-line flags).
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ab/count_verdict.hpp"
#include "ab/scenario_file.hpp"
#include "measure/executor.hpp"

namespace perfgate {

class CounterBackend;

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
  /// Where each run's time limit (run[...].timeout_s) comes from: "--timeout", "timeout_s",
  /// or empty when neither sets one and the protocol derives it from the warmups
  /// (default_run_limit_s).
  std::string timeout_source;
  /// Why the rules may let a real slowdown through (rule_warnings); shown before the runs
  /// and in the report.
  std::vector<std::string> warnings;
  /// --measure: timed pairs (time) and/or counted rounds (instructions, issue 36) with this
  /// backend; null when instructions are not measured.
  bool measure_time = true;
  const CounterBackend* counter = nullptr;
  Budget instruction_budget{kDefaultInstructionBudget, 0};

  ProcessSpec& side(AbSide s) { return run[static_cast<std::size_t>(s)]; }
  const ProcessSpec& side(AbSide s) const { return run[static_cast<std::size_t>(s)]; }
};

struct PlanRequest {
  std::array<SideSource, 2> sides;  ///< by AbSide
  std::optional<ScenarioFile> file;
  std::string suite = "basic";          ///< used when no scenario is named
  std::optional<std::string> scenario;  ///< --scenario: this one, whatever its suites
  RuleOverrides command_line;
  std::optional<double> timeout_s;  ///< --timeout: every run's limit, over timeout_s
};

/// Name of the one scenario made from --base/--head when there is no scenarios file.
inline constexpr const char* kAdhocScenario = "adhoc";

/// A run's time limit when neither --timeout nor timeout_s sets one: 10 times the slowest
/// warmup run so far, at least 60 s; nullopt before any warmup ran (the base warmup itself
/// runs without a limit).
std::optional<double> default_run_limit_s(std::optional<double> slowest_warmup_s);
inline constexpr double kMinDefaultRunLimitS = 60;
inline constexpr double kDefaultRunLimitFactor = 10;

/// Warnings about rules that let real slowdowns pass: a noise limit more than twice a
/// metric's relative budget lets a side vary by more than the budget and still count as
/// quiet, so a slowdown between the budget and the noise limit can measure within budget.
std::vector<std::string> rule_warnings(const VerdictRules& rules);

/// The scenarios to run, in file order. Error(kUsage) when none is selected or a named
/// scenario does not exist; Error(kDataError) when a scenario has no command in checkout
/// mode (there is no side command to fall back on).
std::vector<PlannedScenario> plan_scenarios(const PlanRequest& request);

}  // namespace perfgate
