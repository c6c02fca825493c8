#include "diff/state_filter.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "model/error.hpp"

namespace perfgate::diff {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

[[noreturn]] void bad_axis(const std::string& flag, const std::string& reason) {
  throw Error(ExitCode::kUsage,
              "-a " + flag + ": " + reason +
                  ". Write NAME=VALUE, NAME=[V1,V2] or NAME[pow2]=EXPONENT, e.g. -a T=F32.");
}

AxisFilter parse_axis_filter(const std::string& flag) {
  const auto equals = flag.find('=');
  if (equals == std::string::npos) bad_axis(flag, "there is no '='");
  std::string name = trim(flag.substr(0, equals));
  const std::string value = trim(flag.substr(equals + 1));
  if (name.empty() || value.empty()) bad_axis(flag, "the axis name or value is empty");

  std::vector<std::string> values;
  if (value.front() == '[' && value.back() == ']' && value.size() >= 2) {
    const std::string inner = value.substr(1, value.size() - 2);
    std::size_t start = 0;
    while (start <= inner.size()) {
      const auto comma = inner.find(',', start);
      const std::string item =
          trim(inner.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (!item.empty()) values.push_back(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else {
    values.push_back(value);
  }
  if (values.empty()) bad_axis(flag, "the value list is empty");

  std::vector<std::string> shown = values;
  constexpr std::string_view kPow2 = "[pow2]";
  if (name.size() >= kPow2.size() && name.ends_with(kPow2)) {
    name = trim(name.substr(0, name.size() - kPow2.size()));
    if (name.empty()) bad_axis(flag, "there is no axis name before [pow2]");
    for (std::size_t i = 0; i < values.size(); ++i) {
      int exponent = -1;
      const std::string text = values[i];
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), exponent);
      if (error != std::errc{} || end != text.data() + text.size() || exponent < 0 ||
          exponent > 62) {
        bad_axis(flag, "a [pow2] exponent must be an integer from 0 to 62, not '" + text + "'");
      }
      values[i] = std::to_string(1LL << exponent);
      shown[i] = "2^" + text;
    }
  }

  std::string display = name + "=";
  if (shown.size() > 1) display += "[";
  for (std::size_t i = 0; i < shown.size(); ++i) display += (i ? "," : "") + shown[i];
  if (shown.size() > 1) display += "]";
  return {name, values, display};
}

bool passes(const std::vector<AxisFilter>& filters, const ingest::ResultState& state) {
  return std::all_of(filters.begin(), filters.end(), [&](const AxisFilter& filter) {
    return std::any_of(state.axis_values.begin(), state.axis_values.end(), [&](const auto& axis) {
      return axis.first == filter.axis && std::find(filter.values.begin(), filter.values.end(),
                                                    axis.second) != filter.values.end();
    });
  });
}

}  // namespace

FilterPlan build_filter_plan(const std::vector<FilterFlag>& flags) {
  FilterPlan plan;
  for (const auto& flag : flags) {
    if (flag.kind == 'b') {
      plan.scopes.push_back({flag.value, {}});
    } else if (plan.scopes.empty()) {
      plan.global_axis_filters.push_back(parse_axis_filter(flag.value));
    } else {
      plan.scopes.back().axis_filters.push_back(parse_axis_filter(flag.value));
    }
  }
  return plan;
}

bool benchmark_selected(const FilterPlan& plan, const std::string& benchmark) {
  if (plan.scopes.empty()) return true;
  return std::any_of(plan.scopes.begin(), plan.scopes.end(),
                     [&](const BenchmarkScope& scope) { return scope.benchmark == benchmark; });
}

bool state_selected(const FilterPlan& plan, const ingest::ResultState& state) {
  if (!passes(plan.global_axis_filters, state)) return false;
  if (plan.scopes.empty()) return true;
  return std::any_of(plan.scopes.begin(), plan.scopes.end(), [&](const BenchmarkScope& scope) {
    return scope.benchmark == state.benchmark && passes(scope.axis_filters, state);
  });
}

std::optional<std::vector<long long>> parse_device_filter(const std::string& text,
                                                          const std::string& option) {
  const std::string value = trim(text);
  std::string lowered = value;
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lowered == "all") return std::nullopt;
  std::vector<long long> ids;
  std::size_t start = 0;
  while (true) {
    const auto comma = value.find(',', start);
    const std::string item =
        trim(value.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    long long id = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || error != std::errc{} || end != item.data() + item.size() || id < 0) {
      throw Error(ExitCode::kUsage, option + " " + text +
                                        ": expected 'all', a non-negative device id or a "
                                        "comma-separated list of them, e.g. " +
                                        option + " 0,1");
    }
    ids.push_back(id);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return ids;
}

}  // namespace perfgate::diff
