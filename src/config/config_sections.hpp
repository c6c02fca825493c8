#pragma once
// Readers for the sections that appear in more than one place or carry their own rules.
// Each validates one value of a config document and throws Error on the first problem.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/benchmark_config.hpp"
#include "config/config_value.hpp"

namespace perfgate {

/// Upper bounds that keep a typo (an extra zero, one axis too many) from asking for more
/// runs or states than any machine could hold, instead of failing after hours.
inline constexpr int kMaxRunsPerState = 1'000'000;
/// The most runs `compare --confirm` adds to a state: a confirmation is a second look, not
/// a new benchmark.
inline constexpr int kMaxConfirmRuns = 1'000;

/// What is wrong with `id` as a benchmark id (a reason and a fix), or nullopt when it is
/// one: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100.
/// Configs and `run -- CMD --name` hold ids to the same rules.
std::optional<std::pair<std::string, std::string>> benchmark_id_problem(const std::string& id);
inline constexpr std::size_t kMaxStatesPerConfig = 10'000;

/// `command`, `setup`, `prepare`, `conclude`, `cleanup`: a non-empty array of non-empty
/// strings (argv, no shell) or a non-empty string (run with /bin/sh -c).
CommandSpec read_command(const ConfigValue& value);

/// One `regression_thresholds` entry or one perfgate.toml `[policies.<metric>]` table.
/// threshold_percent is a fraction in [0, 1] (5 is refused with "Did you mean 0.05?"),
/// threshold_absolute is not negative. Every bad value of the entry is reported at once.
MetricPolicy read_metric_policy(const ConfigValue& value);

/// The metric names a policy may name.
struct PolicyMetrics {
  std::string owner;               ///< for messages: "this config's records", "records"
  std::vector<std::string> known;  ///< names a record can carry
  bool open = true;                ///< whether a program may report other names at run time
};

/// The metrics any record can carry: the standard ones, and whatever a program reports.
PolicyMetrics project_policy_metrics();

/// Refuses a policy (`policy`, keyed by `metric`) for a metric no record can have: a name
/// within edit distance 2 of a standard metric that is not itself known ("latancy": "Did
/// you mean 'latency'?"), throughput when it is not known, and, when `metrics` is not
/// open, any name outside `known`.
void check_policy_metric(const ConfigValue& policy, const std::string& metric,
                         const PolicyMetrics& metrics);

/// `thresholds`: device substring -> block of limits, with a required `default` block and
/// latency and memory limits in every block.
std::map<std::string, ThresholdBlock> read_thresholds(const ConfigValue& value);

/// `parameters`: axis -> non-empty list of values, converted to text, in file order; the
/// product of the axes' sizes may not exceed kMaxStatesPerConfig.
std::vector<std::pair<std::string, std::vector<std::string>>> read_parameters(
    const ConfigValue& value);

}  // namespace perfgate
