#include "measure/benchmark_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "config/program_lookup.hpp"
#include "measure/interruption.hpp"
#include "measure/machine_state.hpp"
#include "measure/metric_assembly.hpp"
#include "measure/metrics_file.hpp"
#include "measure/probe_components.hpp"
#include "measure/recipe.hpp"
#include "measure/scratch_folder.hpp"
#include "measure/two_levels_warning.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/normalized_record.hpp"
#include "model/static_thresholds.hpp"
#include "perfgate_version.hpp"
#include "profile/probe_report_reader.hpp"

namespace perfgate {

namespace fs = std::filesystem;

std::optional<std::string> device_skip_reason(const BenchmarkConfig& config,
                                              const std::string& device, std::size_t gpu_count) {
  const auto& types = config.run.device_types;
  const bool matched =
      types.empty() || std::any_of(types.begin(), types.end(), [&](const std::string& type) {
        return device.find(type) != std::string::npos;
      });
  if (!matched) return "device '" + device + "' matches none of run_config.device_types";
  if (static_cast<std::size_t>(config.run.required_gpus) > gpu_count) {
    return "needs " + std::to_string(config.run.required_gpus) +
           " GPU(s) (run_config.required_gpus), this machine has " + std::to_string(gpu_count);
  }
  return std::nullopt;
}

std::string describe_command(const CommandSpec& command) {
  if (command.shell) return command.script;
  std::string text;
  for (const auto& arg : command.argv) text += (text.empty() ? "" : " ") + arg;
  return text;
}

std::string run_kind_label(bool warmup, int index, int num_warmup_runs, int num_measurement_runs) {
  if (warmup) return fmt::format("warmup run {} of {}", index + 1, num_warmup_runs);
  return fmt::format("measured run {} of {}", index - num_warmup_runs + 1, num_measurement_runs);
}

std::string file_slug(const std::string& name) {
  std::string slug = name;
  for (char& c : slug) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!safe) c = '_';
  }
  // File names have a limit (255 bytes on most file systems) that a long parameter value
  // would pass mid-suite: a long slug keeps its start and a digest of the whole name, so
  // it stays unique and every file name made from it stays well under the limit.
  if (slug.size() > kMaxFileSlug)
    slug = slug.substr(0, kMaxFileSlug - 17) + "-" + sha256_hex(name).substr(0, 16);
  return slug;
}

BenchmarkRunner::BenchmarkRunner(Executor& executor, fs::path results_dir,
                                 RunEnvironment environment, RunObserver* observer)
    : executor_(executor),
      results_dir_(fs::absolute(results_dir)),
      environment_(std::move(environment)),
      observer_(observer) {}

namespace {

/// Everything one state's runs share: the log, the environment, the hooks.
class StateRun {
 public:
  StateRun(Executor& executor, const BenchmarkState& state, const RunEnvironment& environment,
           fs::path log_path)
      : executor_(executor),
        state_(state),
        environment_(environment),
        log_path_(std::move(log_path)),
        cwd_(state.config->working_folder()) {}

  /// A counted run: the command wrapped by the counting backend, its counts left in
  /// `folder`, and its time limit the backend's allowance times the run's.
  struct Counted {
    const CounterBackend* backend = nullptr;
    fs::path folder;
  };

  ProcessResult execute(const CommandSpec& command, const std::string& label,
                        const std::map<std::string, std::string>& extra_env = {},
                        bool kill_escapees = false, const Counted* counted = nullptr) {
    return executor_.run(spec_for(command, label, extra_env, kill_escapees, counted));
  }

  ProcessSpec spec_for(const CommandSpec& command, const std::string& label,
                       const std::map<std::string, std::string>& extra_env, bool kill_escapees,
                       const Counted* counted) const {
    ProcessSpec spec;
    spec.kill_escapees = kill_escapees;
    spec.argv = command.to_argv();
    spec.cwd = cwd_;
    // posix_spawnp searches perfgate's own PATH; a config that sets PATH in env means its own.
    const auto path = state_.env.find("PATH");
    if (!command.shell && path != state_.env.end() &&
        spec.argv.front().find('/') == std::string::npos) {
      if (auto found = find_program(spec.argv.front(), path->second, cwd_))
        spec.argv.front() = found->string();
    }
    spec.log_header = "==> perfgate: " + label + ": " + describe_command(command) + "\n";
    spec.env = state_.env;
    for (const auto& [name, value] : extra_env) spec.env[name] = value;
    spec.timeout_s = environment_.timeout_s ? environment_.timeout_s : state_.config->run.timeout_s;
    // A bound the caller sets over every config ([history] timeout_s): never exceeded.
    if (environment_.timeout_cap_s &&
        (!spec.timeout_s || *spec.timeout_s > *environment_.timeout_cap_s))
      spec.timeout_s = environment_.timeout_cap_s;
    if (counted != nullptr) {
      spec.argv = counted->backend->wrap(spec.argv, counted->folder);
      for (const auto& [name, value] : counted->backend->environment()) spec.env[name] = value;
      if (spec.timeout_s) *spec.timeout_s *= counted->backend->slowdown_allowance();
    }
    spec.log_path = log_path_;
    spec.log_limit_bytes = environment_.log_limit_bytes;
    return spec;
  }

  /// Runs an optional hook; returns the failure text, or "" when it succeeded or is absent.
  std::string hook(const std::optional<CommandSpec>& command, const std::string& name) {
    if (!command) return "";
    const ProcessResult result = execute(*command, name);
    if (result.outcome == ProcessOutcome::kInterrupted) return name + " hook: " + result.reason();
    return result.succeeded() ? "" : name + " hook failed: " + result.reason();
  }

 private:
  Executor& executor_;
  const BenchmarkState& state_;
  const RunEnvironment& environment_;
  fs::path log_path_;
  fs::path cwd_;  ///< the config's working folder
};

}  // namespace

RawRecord BenchmarkRunner::run(const BenchmarkState& state) {
  const BenchmarkConfig& config = *state.config;
  RawRecord record;
  record.identity = {
      state.name,        config.benchmark_id,      config.config_schema_version, config.workload_id,
      config.variant_id, config.benchmark_version, state.parameter_values};
  record.config_path = config.source.string();
  record.perfgate_version = kVersion;
  record.num_warmup_runs = config.run.num_warmup_runs;
  record.num_measurement_runs = config.run.num_measurement_runs;
  record.regression_thresholds = Json::object();
  for (const auto& [metric, policy] : config.regression_thresholds) {
    record.regression_thresholds[metric] = policy_json(policy);
  }
  record.quality_metadata = config.quality_metadata;
  // The counting backend is chosen before anything runs: it is part of the recipe, and a
  // machine that cannot count fails the state before its first hook.
  const CounterBackend* counter = nullptr;
  std::string cannot_count;
  if (config.run.measure_counts) {
    if (!environment_.counters) {
      cannot_count = "this command cannot count instructions";
    } else {
      try {
        counter = &environment_.counters->get(config.run.counter);
      } catch (const Error& error) {
        cannot_count = error.what();
      }
    }
  }
  record.recipe =
      build_recipe(state, digest_inputs(config), counter ? counter->recipe() : Json(nullptr));
  record.recipe_fingerprint = fingerprint(record.recipe);
  record.provenance = environment_.provenance;

  const fs::path log_dir = results_dir_ / "worker_logs";
  fs::create_directories(log_dir);
  const fs::path log_path =
      log_dir / ("worker_" + file_slug(state.name) + "_" + environment_.file_stamp + ".log");
  record.worker_log_path = log_path.string();

  // The machine before the first hook and after the last: what the runs shared it with.
  std::optional<MachineSnapshot> before;
  if (environment_.host != nullptr) before = take_machine_snapshot(*environment_.host);
  ScratchFolder scratch;
  StateRun runner(executor_, state, environment_, log_path);
  std::vector<RunObservation> measured;
  std::vector<std::vector<ComponentReport>> components;
  // Once each, however many runs or children said it: the first message of each code, from
  // the program and from its children (a child's message names its pid).
  std::map<std::pair<std::string, bool>, std::string> probe_warnings;
  // Processes the runs left behind outside their process group, killed at each run's end.
  int escapees_killed = 0;
  bool escapes_untracked = false;

  std::string failure =
      cannot_count.empty() ? runner.hook(config.setup, "setup") : "counting: " + cannot_count;
  // run_config.measure without "time": only the counted runs.
  const int total =
      config.run.measure_time ? config.run.num_warmup_runs + config.run.num_measurement_runs : 0;
  // Runs are numbered from 1 within their kind, as the progress bar and the table count
  // them: "warmup run 1 of 2", "measured run 3 of 10".
  const auto timed_run_label = [&](int index) {
    return run_kind_label(index < config.run.num_warmup_runs, index, config.run.num_warmup_runs,
                          config.run.num_measurement_runs);
  };
  // The files a timed run may leave in the scratch folder: "metrics-3.jsonl", "probe-3.json".
  const auto run_file = [&](int index, const char* stem, const char* extension) {
    return scratch.path() / (stem + std::to_string(index) + extension);
  };
  const auto timed_run_spec = [&](int index) {
    const std::string run_name = std::to_string(index);
    const bool warmup = index < config.run.num_warmup_runs;
    return runner.spec_for(
        state.command, timed_run_label(index),
        {{"PERFGATE_METRICS_OUT", run_file(index, "metrics-", ".jsonl").string()},
         {"PERFGATE_PROBE_OUT", run_file(index, "probe-", ".json").string()},
         {"PERFGATE_RUN_INDEX", run_name},
         {"PERFGATE_WARMUP", warmup ? "1" : "0"}},
        /*kill_escapees=*/true, nullptr);
  };
  // The specs announced for the runs after this one, in order, which those runs then use
  // as they are.
  std::deque<ProcessSpec> announced;
  for (int index = 0; failure.empty() && index < total; ++index) {
    const bool warmup = index < config.run.num_warmup_runs;
    if (observer_) observer_->run_started(state, index, total, warmup);
    failure = runner.hook(config.prepare, "prepare");
    if (!failure.empty()) break;

    const std::string run_label = timed_run_label(index);
    const fs::path metrics_path = run_file(index, "metrics-", ".jsonl");
    const fs::path probe_path = run_file(index, "probe-", ".json");
    ProcessSpec spec;
    if (announced.empty()) {
      spec = timed_run_spec(index);
    } else {
      spec = std::move(announced.front());
      announced.pop_front();
    }
    // With no hook between two runs, the next runs are known now: the executor may start
    // each the moment the one before it ends, while perfgate reads the files of the runs
    // before.
    if (!config.prepare && !config.conclude) {
      for (int next = index + 1 + static_cast<int>(announced.size());
           next < total && announced.size() < executor_.runs_to_announce(); ++next) {
        announced.push_back(timed_run_spec(next));
        executor_.expect_after_next(announced.back());
      }
    }
    const ProcessResult result = executor_.run(spec);
    if (result.escapees_killed < 0) {
      escapes_untracked = true;
    } else {
      escapees_killed += result.escapees_killed;
    }
    RunObservation observation{
        index,         warmup,          result.succeeded(), "", result.wall_s,
        result.user_s, result.system_s, result.peak_rss_mb, {}};
    std::vector<ComponentReport> reports;
    // The scratch folder goes away with the state: a bad file is kept beside the worker
    // log, where the message points, so the field it names can be read.
    const auto keep_bad_file = [&](const fs::path& written, const std::string& prefix,
                                   const std::string& extension, const Error& error) {
      const fs::path kept =
          log_dir / (prefix + "_" + file_slug(state.name) + "_" + environment_.file_stamp + "_" +
                     file_slug(run_label) + extension);
      std::error_code ignored;
      fs::copy_file(written, kept, fs::copy_options::overwrite_existing, ignored);
      std::string message = error.what();
      if (const auto at = message.find(written.string()); at != std::string::npos) {
        message.replace(at, written.string().size(), kept.string());
      }
      return message;
    };
    if (!result.succeeded()) {
      observation.failure = result.reason();
    } else if (!scratch.holds_only_its_marker()) {
      // Most runs leave nothing there: one look at the folder stands for looking for each
      // file. What a run left is removed once read, so that the folder is empty again for
      // the next run, and a listing for a run's reports does not grow with the runs before.
      try {
        for (const auto& reported : read_metrics_file(metrics_path)) {
          reports.push_back({reported.name, reported.value, reported.unit.value_or(""),
                             reported.direction.value_or(Direction::kLowerIsBetter)});
        }
      } catch (const Error& error) {
        observation.ok = false;
        observation.failure =
            "invalid metrics file: " + keep_bad_file(metrics_path, "metrics", ".jsonl", error);
      }
      // The program's report, and those its forked children wrote beside it
      // (probe-0.json -> probe-0.<pid>.json): a child's regions are the program's too.
      const std::vector<fs::path> report_paths = probe_reports_of_run(probe_path);
      for (const fs::path& report_path : report_paths) {
        if (!observation.ok) break;
        try {
          const profile::ProbeReport report = profile::load_probe_report(report_path);
          add_components(reports, probe_components(config, report));
          for (const auto& warning : report.warnings) {
            const bool from_child = report_path != probe_path;
            probe_warnings.try_emplace({warning.code, from_child},
                                       probe_warning_line(warning, from_child));
          }
        } catch (const Error& error) {
          observation.ok = false;
          observation.failure =
              "invalid probe report: " + keep_bad_file(report_path, "probe", ".json", error);
        }
      }
      std::error_code ignored;
      fs::remove(metrics_path, ignored);
      for (const fs::path& report_path : report_paths) fs::remove(report_path, ignored);
    }
    reports = map_components(config, reports);
    for (const auto& report : reports) observation.reported[report.metric] = report.value;
    record.runs.push_back(observation);
    if (!observation.ok) {
      failure = run_label + ": " + observation.failure;
      break;
    }
    if (!warmup) {
      measured.push_back(observation);
      components.push_back(std::move(reports));
    }
    const std::string concluded = runner.hook(config.conclude, "conclude");
    if (!concluded.empty()) failure = concluded;
  }
  // The counted runs, after the timed ones (never timed themselves: a run under Valgrind
  // is many times slower), each in a fresh process like every run.
  std::map<std::string, std::vector<double>> counts;
  std::set<std::string> count_warnings;  // the same from every counted run: said once
  for (int index = 0; failure.empty() && counter != nullptr && index < config.run.num_count_runs;
       ++index) {
    if (observer_) observer_->counted_run_started(state, index, config.run.num_count_runs);
    failure = runner.hook(config.prepare, "prepare");
    if (!failure.empty()) break;
    const std::string label = fmt::format("counted run {} of {} ({})", index + 1,
                                          config.run.num_count_runs, counter->name());
    const StateRun::Counted counted{counter, scratch.path() / ("counts-" + std::to_string(index))};
    fs::create_directories(counted.folder);
    const ProcessResult result =
        runner.execute(state.command, label,
                       {{"PERFGATE_RUN_INDEX", std::to_string(total + index)},
                        {"PERFGATE_WARMUP", "0"},
                        {"PERFGATE_COUNTED_RUN", "1"}},
                       /*kill_escapees=*/true, &counted);
    if (result.escapees_killed < 0) {
      escapes_untracked = true;
    } else {
      escapees_killed += result.escapees_killed;
    }
    if (!result.succeeded()) {
      failure = label + ": " + result.reason();
      break;
    }
    try {
      const CountedRun counted_run = counter->collect(counted.folder);
      for (const auto& [metric, value] : counted_run.counts) counts[metric].push_back(value);
      for (const auto& region : region_count_components(config, counted_run.regions))
        counts[region.metric].push_back(region.value);
      for (const auto& warning : counted_run.regions.warnings) count_warnings.insert(warning);
    } catch (const Error& error) {
      failure = label + ": " + error.what();
      break;
    }
    failure = runner.hook(config.conclude, "conclude");
  }
  const std::string cleaned = runner.hook(config.cleanup, "cleanup");
  if (failure.empty()) failure = cleaned;
  if (const int signal = interruption_signal()) {
    // "measured run 2: interrupted by SIGTERM" -> "interrupted by SIGTERM during measured
    // run 2; ...". The executor started nothing after the signal, cleanup included.
    const std::string interrupted = describe_interruption(signal);
    const std::string suffix = ": " + interrupted;
    std::string during;
    if (failure.size() > suffix.size() &&
        failure.compare(failure.size() - suffix.size(), suffix.size(), suffix) == 0) {
      during = " during " + failure.substr(0, failure.size() - suffix.size());
    } else if (!failure.empty()) {
      during = " (" + failure + ")";
    }
    failure = interrupted + during + "; this record is incomplete";
  }

  AssembledMetrics assembled = assemble_metrics(config, measured, components);
  add_count_metrics(assembled, counts);
  record.metrics = std::move(assembled.metrics);
  record.missing_components = std::move(assembled.missing_components);
  record.warnings = std::move(assembled.warnings);
  for (const auto& [key, line] : probe_warnings) record.warnings.push_back(line);
  record.warnings.insert(record.warnings.end(), count_warnings.begin(), count_warnings.end());
  if (auto two_levels = two_levels_warning(record.metrics)) {
    record.warnings.push_back(std::move(*two_levels));
  }
  if (escapees_killed > 0) {
    record.warnings.push_back(fmt::format(
        "ESCAPED_PROCESSES: {} process(es) started by the runs left their process group (a "
        "daemon that double-forks) and outlived the run; perfgate killed them at its end. "
        "Their time after the run is not in latency; keep the work inside the measured process",
        escapees_killed));
  }
  if (escapes_untracked) {
    record.warnings.push_back(
        "ESCAPES_UNTRACKED: this kernel does not list a process's children "
        "(/proc/<pid>/task/<tid>/children, CONFIG_PROC_CHILDREN), so processes that left a "
        "run's process group could not be found and killed; a daemon the benchmark starts "
        "may still be running");
  }
  if (before) {
    const MachineSnapshot after = take_machine_snapshot(*environment_.host);
    const int cores = environment_.host->logical_cores();
    record.machine_state = machine_state_json(*before, after, cores);
  }
  record.static_verdict =
      check_static_thresholds(config.thresholds, environment_.provenance.device, record.metrics);
  record.success = failure.empty();
  record.failure_reason = failure;
  return record;
}

}  // namespace perfgate
