#pragma once
// Runs one benchmark state: hooks, warmups, measured runs; turns what it saw into a raw record.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/benchmark_config.hpp"
#include "count/counter_backend.hpp"
#include "measure/executor.hpp"
#include "measure/host_profile.hpp"
#include "model/json.hpp"
#include "model/raw_record.hpp"

namespace perfgate {

/// Facts shared by every benchmark of one `perfgate run` invocation.
struct RunEnvironment {
  Provenance provenance;
  std::string file_stamp;  ///< the invocation's start for file names: 20261130T113704Z
  std::size_t log_limit_bytes = 8u << 20;
  std::size_t gpu_count = 0;        ///< GPUs visible to this run, for run_config.required_gpus
  std::optional<double> timeout_s;  ///< --timeout: every run's limit, over run_config.timeout_s
  /// The longest any run or hook may take, whatever the config or --timeout say ([history]
  /// timeout_s for the commits `history measure` measures); nullopt: no such bound.
  std::optional<double> timeout_cap_s;
  /// Where the machine's state around each state's runs is read (load, clock, steal);
  /// null records none.
  const HostProbe* host = nullptr;
  /// The counting backends, for configs that measure instructions (count/); null: such a
  /// config's record fails, saying that this invocation cannot count.
  std::shared_ptr<CounterChoices> counters;
};

/// Told about each run as it starts, for progress display.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void run_started(const BenchmarkState& state, int run_index, int total_runs,
                           bool warmup) = 0;
  /// A counted run (run_config.measure holds "instructions") starts: `index` of `total`.
  virtual void counted_run_started(const BenchmarkState& /*state*/, int /*index*/, int /*total*/) {}
};

/// Why the config may not run on this machine, or nullopt when it may: one of its
/// device_types must be a substring of the device name (when it lists any), and the
/// machine must have at least required_gpus GPUs.
std::optional<std::string> device_skip_reason(const BenchmarkConfig& config,
                                              const std::string& device, std::size_t gpu_count);

/// Turns a benchmark name into a file-name-safe slug: characters outside [A-Za-z0-9._-]
/// become '_' (sort[n=10] -> sort_n_10_).
std::string file_slug(const std::string& name);
/// The longest slug file_slug makes (its start and a 16-digit digest past that).
inline constexpr std::size_t kMaxFileSlug = 100;

/// The command as the worker log and --dry-run show it: the script, or argv joined by spaces.
std::string describe_command(const CommandSpec& command);

/// How a run is named in the progress bar, the worker log and failure reasons, numbered
/// from 1 within its kind: "warmup run 1 of 2", "measured run 3 of 10". `index` counts
/// every run of the state from 0, warmups first.
std::string run_kind_label(bool warmup, int index, int num_warmup_runs, int num_measurement_runs);

class BenchmarkRunner {
 public:
  BenchmarkRunner(Executor& executor, std::filesystem::path results_dir, RunEnvironment environment,
                  RunObserver* observer = nullptr);

  /// Runs the state and returns its record (never throws for a failing benchmark: the
  /// failure is in the record). The worker log goes to results_dir/worker_logs/.
  RawRecord run(const BenchmarkState& state);

  const RunEnvironment& environment() const { return environment_; }

 private:
  Executor& executor_;
  std::filesystem::path results_dir_;
  RunEnvironment environment_;
  RunObserver* observer_;
};

}  // namespace perfgate
