#pragma once
// The scenarios file of `perfgate ab` (docs/ab.md): named scenarios, the command each runs
// on both sides, its suites, its correctness checks, and budgets per file and per scenario.
//
//   noise_limit = "30%"
//   [budgets]
//   duration = "25%,1s"
//   [scenarios.startup]
//   command = "{side} --version"
//   suites = ["basic", "full"]
//   expect_output = ['^app \d+\.\d+']
//
// Unknown keys are errors with a suggestion; every error names the file and key path and
// exits 65 (a missing fixture file: 66).
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ab/paired_verdict.hpp"
#include "config/benchmark_config.hpp"

namespace perfgate {

/// Budgets and a noise limit that replace the inherited ones where set.
struct RuleOverrides {
  std::array<std::optional<Budget>, 3> budgets;  ///< indexed by AbMetric
  std::optional<double> noise_limit;

  void apply_to(VerdictRules& rules) const;
};

inline const std::vector<std::string> kAbSuites = {"basic", "full"};

struct ScenarioSpec {
  std::string name;
  /// Absent: the side's own command (--base/--head) is the scenario's command.
  std::optional<CommandSpec> command;
  std::map<std::string, std::string> env;
  std::vector<std::string> suites = kAbSuites;
  int expect_exit = 0;
  std::vector<std::string> expect_output;  ///< ECMAScript regexes, checked to compile
  std::optional<CommandSpec> validator;
  RuleOverrides overrides;
  std::optional<double> timeout_s;
  std::vector<std::filesystem::path> fixtures;  ///< resolved against the file's folder
};

struct ScenarioFile {
  std::filesystem::path path;
  RuleOverrides overrides;              ///< the file-level [budgets] and noise_limit
  std::vector<ScenarioSpec> scenarios;  ///< in file order
};

/// Reads and validates a scenarios file (.toml, or .json with the same structure).
/// Error(kNoInput) when it or a fixture cannot be found, Error(kDataError) for anything
/// invalid, listing every problem found.
ScenarioFile load_scenario_file(const std::filesystem::path& path);

}  // namespace perfgate
