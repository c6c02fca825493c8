// A config's parameter space: one state per combination of axis values.
#include <algorithm>

#include "config/benchmark_config.hpp"

namespace perfgate {
namespace {

using Assignment = std::vector<std::pair<std::string, std::string>>;

// One pass over `text`, so a value that itself contains "{axis}" is never substituted again.
std::string fill_placeholders(const std::string& text, const Assignment& assignment) {
  std::string result;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find('{', at);
    if (open == std::string::npos) break;
    const std::size_t close = text.find('}', open + 1);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    result.append(text, at, open - at);
    auto value = std::find_if(assignment.begin(), assignment.end(),
                              [&](const auto& axis) { return axis.first == name; });
    if (value != assignment.end()) {
      result += value->second;
      at = close + 1;
    } else {
      // Not an axis: keep the brace and look for a placeholder starting after it.
      result += '{';
      at = open + 1;
    }
  }
  result.append(text, at, std::string::npos);
  return result;
}

std::string state_name(const std::string& benchmark_id, const Assignment& assignment) {
  if (assignment.empty()) return benchmark_id;
  std::string name = benchmark_id + "[";
  for (std::size_t i = 0; i < assignment.size(); ++i) {
    if (i > 0) name += ",";
    name += assignment[i].first + "=" + assignment[i].second;
  }
  return name + "]";
}

}  // namespace

std::vector<BenchmarkState> expand_states(const BenchmarkConfig& config) {
  // Extending every partial assignment by each value of the next axis makes the first
  // axis vary slowest.
  std::vector<Assignment> assignments(1);
  for (const auto& [axis, values] : config.parameters) {
    std::vector<Assignment> extended;
    for (const auto& partial : assignments) {
      for (const auto& value : values) {
        Assignment next = partial;
        next.emplace_back(axis, value);
        extended.push_back(std::move(next));
      }
    }
    assignments = std::move(extended);
  }

  std::vector<BenchmarkState> states;
  for (auto& assignment : assignments) {
    BenchmarkState state;
    state.config = &config;
    state.name = state_name(config.benchmark_id, assignment);
    state.command = config.command;
    for (auto& argument : state.command.argv) argument = fill_placeholders(argument, assignment);
    state.command.script = fill_placeholders(state.command.script, assignment);
    for (const auto& [key, value] : config.env)
      state.env[key] = fill_placeholders(value, assignment);
    state.parameter_values = std::move(assignment);
    states.push_back(std::move(state));
  }
  return states;
}

}  // namespace perfgate
