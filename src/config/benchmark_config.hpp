#pragma once
// A validated benchmark config (SPEC §4): what one file of a suite describes.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/json.hpp"
#include "model/metric.hpp"
#include "model/static_verdict.hpp"

namespace perfgate {

/// A command is either an argv run without a shell, or a string run with /bin/sh -c.
struct CommandSpec {
  std::vector<std::string> argv;  ///< used when !shell
  std::string script;             ///< used when shell
  bool shell = false;

  bool empty() const { return shell ? script.empty() : argv.empty(); }
  /// The argv actually executed: argv, or {"/bin/sh", "-c", script}.
  std::vector<std::string> to_argv() const;
  /// The JSON form as written in a config: an array or a string.
  Json to_json() const;

  bool operator==(const CommandSpec&) const = default;
};

struct RunSettings {
  int num_warmup_runs = 1;
  int num_measurement_runs = 3;
  std::optional<double> timeout_s;        ///< per run; absent = no limit
  std::vector<std::string> device_types;  ///< substrings of the device name; empty = any device
  int required_gpus = 0;
  /// run_config.measure: "time" (the timed runs: latency, cpu_time, memory, the program's
  /// own metrics) and/or "instructions" (counted runs after them, count/).
  bool measure_time = true;
  bool measure_counts = false;
  int num_count_runs = 2;        ///< counted runs: one, and one that confirms it
  std::string counter = "auto";  ///< "auto", "hardware" or "valgrind"

  bool operator==(const RunSettings&) const = default;
};

struct ThroughputSpec {
  double units_per_run = 0;
  std::string unit;  ///< e.g. "frames"; throughput is reported in unit/s

  bool operator==(const ThroughputSpec&) const = default;
};

struct BenchmarkConfig {
  std::filesystem::path source;  ///< the file it was loaded from
  std::string benchmark_id;
  int config_schema_version = 1;
  // v2 identity: required when config_schema_version == 2, forbidden otherwise.
  std::optional<std::string> workload_id;
  std::optional<std::string> variant_id;
  std::optional<long long> benchmark_version;
  std::string description;

  CommandSpec command;
  std::optional<std::filesystem::path>
      cwd;  ///< as written, a relative path resolved against the config's folder
  /// Where commands run when `cwd` is not set: the project root (the folder of
  /// perfgate.toml) when the suite has one, else the folder perfgate was started in.
  std::filesystem::path default_cwd;
  std::map<std::string, std::string> env;
  std::optional<CommandSpec> setup;     ///< once, before all runs
  std::optional<CommandSpec> prepare;   ///< before every run (warmups included)
  std::optional<CommandSpec> conclude;  ///< after every run
  std::optional<CommandSpec> cleanup;   ///< once, after all runs, even after a failure

  std::vector<std::filesystem::path> inputs;  ///< resolved against the config's folder
  /// Axes in file order: name -> values (as strings, placeholders are textual).
  std::vector<std::pair<std::string, std::vector<std::string>>> parameters;

  RunSettings run;
  std::optional<ThroughputSpec> throughput;
  std::map<std::string, std::string>
      component_metrics;  ///< metric name -> reported region/stage name
  /// Device substring (or "default") -> block. Empty when the config sets no thresholds.
  std::map<std::string, ThresholdBlock> thresholds;
  std::map<std::string, MetricPolicy> regression_thresholds;
  Json quality_metadata = Json::object();

  bool is_v2() const { return config_schema_version == 2; }
  /// The folder every command of this config runs in, and that a relative program path
  /// (./build/sort) starts from.
  const std::filesystem::path& working_folder() const { return cwd ? *cwd : default_cwd; }
  bool operator==(const BenchmarkConfig&) const = default;
};

/// One point of a config's parameter space: the config with its placeholders filled in.
struct BenchmarkState {
  const BenchmarkConfig* config = nullptr;
  /// benchmark_id, or benchmark_id[axis=value,...] in axis order when the config has axes.
  std::string name;
  std::vector<std::pair<std::string, std::string>> parameter_values;
  CommandSpec command;                     ///< with every {axis} replaced
  std::map<std::string, std::string> env;  ///< the config's env with every {axis} replaced
};

/// Reads run_config.measure (or `run --measure`): each of "time" and "instructions" at
/// most once, at least one. Returns {time, instructions}, or nullopt for anything else.
std::optional<std::pair<bool, bool>> parse_measure_kinds(const std::vector<std::string>& kinds);

/// Expands the cartesian product of the config's axes (first axis varies slowest).
/// A config without axes yields exactly one state. `{axis}` in command argv elements, in
/// the shell script and in env values becomes the axis value; braces around any other
/// text are left alone, since shell scripts use them too.
std::vector<BenchmarkState> expand_states(const BenchmarkConfig& config);

}  // namespace perfgate
