#include "ingest/hyperfine_reader.hpp"

#include <cctype>
#include <cmath>
#include <unordered_set>

#include "ingest/json_cursor.hpp"
#include "ingest/timing_summary.hpp"

namespace perfgate::ingest {
namespace {

constexpr const char* kHyperfineFix =
    "Write the file with hyperfine --export-json FILE; an edited file must keep hyperfine's "
    "layout";
constexpr double kBytesPerMegabyte = 1024.0 * 1024.0;

bool is_command_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
}

// The command with every parameter value replaced by its "{name}" placeholder, where the
// value stands as a word of its own ("sleep 0.1" keeps its "1" when a parameter is 1).
std::string command_template(std::string command,
                             const std::vector<std::pair<std::string, std::string>>& parameters) {
  for (const auto& [name, value] : parameters) {
    if (value.empty()) continue;
    const std::string placeholder = "{" + name + "}";
    std::size_t at = command.find(value);
    while (at != std::string::npos) {
      const std::size_t end = at + value.size();
      const bool placeholder_already =
          at > 0 && end < command.size() && command[at - 1] == '{' && command[end] == '}';
      const bool word = (at == 0 || !is_command_word_char(command[at - 1])) &&
                        (end == command.size() || !is_command_word_char(command[end])) &&
                        !placeholder_already;
      if (word) {
        command.replace(at, value.size(), placeholder);
        at = command.find(value, at + placeholder.size());
      } else {
        at = command.find(value, at + 1);
      }
    }
  }
  return command;
}

double finite_number(const JsonCursor& value) {
  const double number = value.number();
  if (!std::isfinite(number)) value.fail("must be a finite number");
  return number;
}

std::vector<double> numbers(const JsonCursor& array, double scale) {
  std::vector<double> out;
  const std::size_t count = array.size();
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor value = array.item(i);
    out.push_back(finite_number(value) * scale);
  }
  return out;
}

std::optional<double> optional_number(const JsonCursor& result, std::string_view key) {
  const auto value = result.find(key);
  if (!value) return std::nullopt;
  return finite_number(*value);
}

// "k of n runs exited non-zero (exit codes ...)" when any run failed; "" otherwise. A run
// killed by a signal has a null exit code, which hyperfine writes as null.
std::string failed_runs(const JsonCursor& result) {
  const auto codes = result.find("exit_codes");
  if (!codes) return "";
  const std::size_t count = codes->size();
  std::size_t failed = 0;
  std::string listed;
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor code = codes->item(i);
    if (!code.is_null() && code.integer() == 0) continue;
    ++failed;
    if (failed <= 5)
      listed +=
          (failed == 1 ? "" : ", ") + (code.is_null() ? "signal" : std::to_string(code.integer()));
  }
  if (failed == 0) return "";
  if (failed > 5) listed += ", …";
  return std::to_string(failed) + " of " + std::to_string(count) +
         " runs exited non-zero (exit codes " + listed + ")";
}

ResultState read_result(const JsonCursor& result) {
  result.expect_object();
  ResultState state;
  state.timing_name = "wall_time";
  const JsonCursor command = result.at("command");
  if (const auto parameters = result.find("parameters")) {
    parameters->expect_object();
    for (const auto& [name, value] : parameters->json().items()) {
      const JsonCursor text = parameters->at(name);
      state.axis_values.emplace_back(name,
                                     text.json().is_number() ? text.json().dump() : text.string());
    }
  }
  state.benchmark = command_template(command.string(), state.axis_values);
  for (const auto& [name, value] : state.axis_values) {
    state.state_key += (state.state_key.empty() ? "" : " ") + name + "=" + value;
  }

  if (const auto times = result.find("times")) state.samples = numbers(*times, 1.0);
  if (!state.samples.empty()) {
    state.summary = summarize_timing(state.samples);
  } else {
    // No times (or an empty list): the summaries hyperfine wrote are all there is.
    TimingSummary& t = state.summary;
    t.mean = optional_number(result, "mean");
    t.stdev_absolute = optional_number(result, "stddev");
    t.median = optional_number(result, "median");
    t.min = optional_number(result, "min");
    t.max = optional_number(result, "max");
    if (t.mean && t.stdev_absolute && *t.mean != 0) t.stdev_relative = *t.stdev_absolute / *t.mean;
  }

  // hyperfine writes user and system as the mean over the runs, memory per run.
  if (const auto user = optional_number(result, "user")) {
    state.extra_metrics.push_back(ExtraMetric{"user", "s", Direction::kLowerIsBetter, {*user}});
  }
  if (const auto system = optional_number(result, "system")) {
    state.extra_metrics.push_back(ExtraMetric{"system", "s", Direction::kLowerIsBetter, {*system}});
  }
  // Their sum is the CPU time perfgate measures (user + system of the process tree), under
  // its name, so that it gets the cpu_time policy and lines up with measured records.
  const auto user = optional_number(result, "user");
  const auto system = optional_number(result, "system");
  if (user && system) {
    state.extra_metrics.push_back(
        ExtraMetric{"cpu_time", "s", Direction::kLowerIsBetter, {*user + *system}});
  }
  if (const auto memory = result.find("memory_usage_byte")) {
    state.extra_metrics.push_back(ExtraMetric{"memory", "MB", Direction::kLowerIsBetter,
                                              numbers(*memory, 1.0 / kBytesPerMegabyte)});
  }
  state.skip_reason = failed_runs(result);
  state.skipped = !state.skip_reason.empty();
  return state;
}

}  // namespace

ResultFile read_hyperfine(const Json& document, const std::filesystem::path& path) {
  const JsonSource source{path.string(), kHyperfineFix};
  const JsonCursor root(document, source);
  root.expect_object();
  ResultFile file;
  file.format = ResultFormat::kHyperfine;
  file.path = path;
  const JsonCursor results = root.at("results");
  const std::size_t count = results.size();
  file.states.reserve(count);
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor result = results.item(i);
    file.states.push_back(read_result(result));
    const std::string& benchmark = file.states.back().benchmark;
    if (seen.insert(benchmark).second) file.benchmarks.push_back(ResultBenchmark{benchmark, {}});
  }
  return file;
}

}  // namespace perfgate::ingest
