#include "ab/scenario_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <stdexcept>

#include "config/config_sections.hpp"
#include "config/config_value.hpp"
#include "config/error_list.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopKeys = {"budgets", "noise_limit", "scenarios"};
// perfgate's metric names, then the seed's names, which stay as aliases.
const std::vector<std::string> kBudgetKeys = {"latency",  "cpu_time", "memory",
                                              "duration", "cpu",      "rss"};
const std::vector<std::string> kScenarioKeys = {
    "command",   "env",     "suites",      "expect_exit", "expect_output",
    "validator", "budgets", "noise_limit", "timeout_s",   "fixtures"};

void read_budgets(const ConfigValue& value, RuleOverrides& overrides) {
  ErrorList errors;
  const ConfigTable table(value, kBudgetKeys, errors);
  for (const AbMetric metric : kAbMetrics) {
    auto entry = table.get(metric_key(metric));
    const auto alias = table.get(metric_alias(metric));
    if (entry && alias) {
      errors.add(alias->error(fmt::format("names the {} budget a second time (as its alias {})",
                                          metric_key(metric), metric_alias(metric)),
                              fmt::format("Keep only {}", metric_key(metric))));
      continue;
    }
    if (!entry) entry = alias;
    if (!entry) continue;
    errors.check([&] {
      try {
        overrides.budgets[static_cast<std::size_t>(metric)] = parse_budget(metric, entry->string());
      } catch (const std::invalid_argument& error) {
        throw entry->error(error.what(),
                           metric == AbMetric::kRss
                               ? "Write it as \"RELATIVE%,ABSOLUTE\", e.g. \"20%,32MB\""
                               : "Write it as \"RELATIVE%,ABSOLUTE\", e.g. \"25%,1s\"");
      }
    });
  }
  errors.throw_if_any();
}

void read_noise_limit(const ConfigValue& value, RuleOverrides& overrides) {
  try {
    overrides.noise_limit = parse_noise_limit(value.string());
  } catch (const std::invalid_argument& error) {
    throw value.error(error.what(), "Write a percentage in quotes, e.g. \"30%\"");
  }
}

bool is_safe_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         std::all_of(name.begin(), name.end(), [](unsigned char c) {
           return std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.';
         });
}

std::vector<std::string> read_suites(const ConfigValue& value) {
  std::vector<std::string> suites;
  for (const auto& item : value.items()) {
    const std::string suite = item.non_empty_string();
    if (std::find(kAbSuites.begin(), kAbSuites.end(), suite) == kAbSuites.end()) {
      throw item.error("unknown suite '" + suite + "'", "Use \"basic\" or \"full\"");
    }
    suites.push_back(suite);
  }
  if (suites.empty()) {
    throw value.error("must not be empty", "List \"basic\", \"full\" or both, or leave it out");
  }
  return suites;
}

// libstdc++'s regex compiler reads the number of a back-reference (\12) or a repeat count
// ({3,5}) into a long without checking for overflow (undefined behaviour, found by
// fuzzing). No pattern needs more than three digits of group number or six of count, so
// longer numbers are refused before the pattern is compiled. Returns why, or "".
std::string oversized_number(const std::string& pattern) {
  const auto digits_at = [&](std::size_t at) {
    std::size_t end = at;
    while (end < pattern.size() && pattern[end] >= '0' && pattern[end] <= '9') ++end;
    return end - at;
  };
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (digits_at(i + 1) > 3) {
        return "back-reference \\" + pattern.substr(i + 1, 4) + "… names no group";
      }
      ++i;  // the escaped character is a literal, whatever it is
    } else if (pattern[i] == '{') {
      for (std::size_t at = i + 1; at < pattern.size(); ++at) {
        const std::size_t run = digits_at(at);
        if (run > 6) return "repeat count " + pattern.substr(at, 7) + "… is too large";
        at += run;
        if (at >= pattern.size() || pattern[at] != ',') break;
      }
    }
  }
  return "";
}

std::vector<std::string> read_patterns(const ConfigValue& value) {
  std::vector<std::string> patterns;
  for (const auto& item : value.items()) {
    const std::string pattern = item.non_empty_string();
    if (const std::string why = oversized_number(pattern); !why.empty()) {
      throw item.error("is not a valid regular expression: " + why,
                       "Write an ECMAScript regex; in TOML, a 'literal string' keeps backslashes");
    }
    try {
      std::regex compiled(pattern);
    } catch (const std::regex_error& error) {
      throw item.error(std::string("is not a valid regular expression: ") + error.what(),
                       "Write an ECMAScript regex; in TOML, a 'literal string' keeps backslashes");
    }
    patterns.push_back(pattern);
  }
  return patterns;
}

std::vector<fs::path> read_fixtures(const ConfigValue& value, const fs::path& base_dir) {
  std::vector<fs::path> fixtures;
  for (const auto& item : value.items()) {
    const fs::path fixture = base_dir / item.non_empty_string();
    std::error_code ec;
    if (!fs::is_regular_file(fixture, ec)) {
      throw item.error("fixture " + fixture.string() + " is not a file",
                       "Name an existing file, relative to the scenarios file's folder",
                       ExitCode::kNoInput);
    }
    fixtures.push_back(fixture);
  }
  return fixtures;
}

ScenarioSpec read_scenario(const std::string& name, const ConfigValue& value,
                           const fs::path& base_dir, ErrorList& errors) {
  ScenarioSpec spec;
  spec.name = name;
  if (!is_safe_name(name)) {
    errors.add(value.error("scenario names may use only letters, digits, '-', '_' and '.'",
                           "Rename it; the name becomes part of log and profile file names"));
  }
  std::optional<ConfigTable> table;
  // Unknown keys join the list; the known ones are still read and checked.
  if (!errors.check([&] { table.emplace(value, kScenarioKeys, errors); })) return spec;
  const auto read = [&](std::string_view key, auto&& reader) {
    if (const auto entry = table->get(key)) errors.check([&] { reader(*entry); });
  };
  read("command", [&](const ConfigValue& v) { spec.command = read_command(v); });
  read("env", [&](const ConfigValue& v) {
    for (const auto& [key, member] : v.members()) spec.env[key] = member.string();
  });
  read("suites", [&](const ConfigValue& v) { spec.suites = read_suites(v); });
  read("expect_exit", [&](const ConfigValue& v) { spec.expect_exit = v.int_between(0, 255); });
  read("expect_output", [&](const ConfigValue& v) { spec.expect_output = read_patterns(v); });
  read("validator", [&](const ConfigValue& v) { spec.validator = read_command(v); });
  read("budgets", [&](const ConfigValue& v) { read_budgets(v, spec.overrides); });
  read("noise_limit", [&](const ConfigValue& v) { read_noise_limit(v, spec.overrides); });
  read("timeout_s", [&](const ConfigValue& v) { spec.timeout_s = v.positive_number(); });
  read("fixtures", [&](const ConfigValue& v) { spec.fixtures = read_fixtures(v, base_dir); });
  return spec;
}

}  // namespace

void RuleOverrides::apply_to(VerdictRules& rules) const {
  for (const AbMetric metric : kAbMetrics) {
    if (const auto& budget = budgets[static_cast<std::size_t>(metric)])
      rules.budgets[metric] = *budget;
  }
  if (noise_limit) rules.noise_limit = *noise_limit;
}

ScenarioFile load_scenario_file(const fs::path& path) {
  const ConfigDocument document = read_config_document(path);
  const ConfigValue root(document, document.root, "");
  ScenarioFile file;
  file.path = path;
  ErrorList errors;
  std::optional<ConfigTable> top;
  if (!errors.check([&] { top.emplace(root, kTopKeys, errors); })) errors.throw_if_any();

  if (const auto budgets = top->get("budgets")) {
    errors.check([&] { read_budgets(*budgets, file.overrides); });
  }
  if (const auto noise = top->get("noise_limit")) {
    errors.check([&] { read_noise_limit(*noise, file.overrides); });
  }
  errors.check([&] {
    const ConfigValue scenarios =
        top->require("scenarios", "Add at least one [scenarios.NAME] table with a command");
    const auto members = scenarios.members();
    if (members.empty()) {
      throw scenarios.error("has no scenario", "Add a [scenarios.NAME] table with a command");
    }
    for (const auto& [name, value] : members) {
      file.scenarios.push_back(read_scenario(name, value, path.parent_path(), errors));
    }
  });
  errors.throw_if_any();
  return file;
}

}  // namespace perfgate
