#include "ab/scenario_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "config/key_suggestion.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

std::string replace_all(std::string text, std::string_view token, std::string_view value) {
  for (std::size_t at = text.find(token); at != std::string::npos;
       at = text.find(token, at + value.size())) {
    text.replace(at, token.size(), value);
  }
  return text;
}

// `{side}` stands for the side's command, or the absolute path of its checkout.
std::vector<std::string> argv_for(const CommandSpec& command, const std::string& side_text) {
  std::vector<std::string> argv = command.to_argv();
  for (auto& arg : argv) arg = replace_all(arg, "{side}", side_text);
  return argv;
}

std::string side_text(const SideSource& source) {
  return source.dir ? fs::absolute(*source.dir).lexically_normal().string() : source.command;
}

PlannedScenario plan_one(const ScenarioSpec& spec, const PlanRequest& request,
                         const fs::path& file) {
  PlannedScenario planned;
  planned.name = spec.name;
  planned.expect_exit = spec.expect_exit;
  planned.expect_output = spec.expect_output;
  planned.fixtures = spec.fixtures;
  if (request.file) request.file->overrides.apply_to(planned.rules);
  spec.overrides.apply_to(planned.rules);
  request.command_line.apply_to(planned.rules);
  planned.warnings = rule_warnings(planned.rules);
  planned.timeout_source = request.timeout_s ? "--timeout" : spec.timeout_s ? "timeout_s" : "";

  for (const AbSide side : kAbSides) {
    const SideSource& source = request.sides[static_cast<std::size_t>(side)];
    ProcessSpec& run = planned.side(side);
    if (spec.command) {
      run.argv = argv_for(*spec.command, side_text(source));
    } else if (!source.dir) {
      run.argv = {"/bin/sh", "-c", source.command};
    } else {
      throw Error(ExitCode::kDataError,
                  fmt::format("{}: scenarios.{}.command: missing, and --base-dir/--head-dir "
                              "give no command to run. Add a command to the scenario",
                              file.string(), spec.name));
    }
    run.cwd = source.dir;
    run.env = spec.env;
    run.env["PERFGATE_AB_SIDE"] = std::string(side_name(side));
    run.timeout_s = request.timeout_s ? request.timeout_s : spec.timeout_s;
    if (spec.validator) {
      ProcessSpec validator = run;
      validator.argv = argv_for(*spec.validator, side_text(source));
      planned.validator[static_cast<std::size_t>(side)] = std::move(validator);
    }
  }
  // A scenario command without {side} run in the same folder on both sides measures one
  // program twice: the verdict would compare a build with itself.
  const ProcessSpec& base = planned.side(AbSide::kBase);
  const ProcessSpec& head = planned.side(AbSide::kHead);
  if (spec.command && side_text(request.sides[0]) != side_text(request.sides[1]) &&
      base.argv == head.argv && base.cwd == head.cwd) {
    throw Error(ExitCode::kDataError,
                fmt::format("{}: scenarios.{}.command: runs the same command on both sides "
                            "({}), so ab would compare a build with itself. Put {{side}} where "
                            "each side's --base/--head command goes (e.g. command = [\"{{side}}\", "
                            "\"--n\", \"1000\"]), or pass --base-dir/--head-dir to run it in "
                            "each side's checkout",
                            file.string(), spec.name, fmt::join(base.argv, " ")));
  }
  return planned;
}

bool in_suite(const ScenarioSpec& spec, const std::string& suite) {
  return std::find(spec.suites.begin(), spec.suites.end(), suite) != spec.suites.end();
}

}  // namespace

std::string_view side_name(AbSide side) {
  return side == AbSide::kBase ? "base" : "head";
}

std::optional<double> default_run_limit_s(std::optional<double> slowest_warmup_s) {
  if (!slowest_warmup_s) return std::nullopt;
  return std::max(kMinDefaultRunLimitS, kDefaultRunLimitFactor * *slowest_warmup_s);
}

std::vector<std::string> rule_warnings(const VerdictRules& rules) {
  std::vector<std::string> warnings;
  for (const AbMetric metric : kAbMetrics) {
    const Budget& budget = rules.budgets[metric];
    if (rules.noise_limit > 2 * budget.relative) {
      warnings.push_back(fmt::format(
          "the noise limit ({:g}%) is more than twice the {} budget ({}): a side may vary by up "
          "to {:g}% and still count as quiet, so real slowdowns below the noise limit can pass. "
          "Lower --noise-limit toward the budget, or raise the budget",
          rules.noise_limit * 100, metric_key(metric), describe_budget(metric, budget),
          rules.noise_limit * 100));
    }
  }
  return warnings;
}

std::vector<PlannedScenario> plan_scenarios(const PlanRequest& request) {
  if (!request.file) {
    ScenarioSpec adhoc;
    adhoc.name = kAdhocScenario;
    if (request.scenario && *request.scenario != adhoc.name) {
      throw Error(ExitCode::kUsage,
                  fmt::format("--scenario {}: without --scenario-file the only scenario is '{}'. "
                              "Pass --scenario-file or leave --scenario out",
                              *request.scenario, adhoc.name));
    }
    return {plan_one(adhoc, request, {})};
  }
  const ScenarioFile& file = *request.file;
  std::vector<PlannedScenario> planned;
  std::vector<std::string> names;
  for (const auto& spec : file.scenarios) {
    names.push_back(spec.name);
    const bool selected =
        request.scenario ? spec.name == *request.scenario : in_suite(spec, request.suite);
    if (selected) planned.push_back(plan_one(spec, request, file.path));
  }
  if (planned.empty() && request.scenario) {
    const auto near = nearest_key(*request.scenario, names);
    throw Error(ExitCode::kUsage,
                fmt::format("--scenario {}: {} has no such scenario. {}", *request.scenario,
                            file.path.string(),
                            near ? fmt::format("Did you mean '{}'?", *near)
                                 : fmt::format("Use one of: {}", fmt::join(names, ", "))));
  }
  if (planned.empty()) {
    throw Error(ExitCode::kUsage,
                fmt::format("--suite {}: no scenario of {} belongs to it. Add \"{}\" to a "
                            "scenario's suites, or pass --suite with another suite",
                            request.suite, file.path.string(), request.suite));
  }
  return planned;
}

}  // namespace perfgate
