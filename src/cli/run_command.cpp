#include "cli/run_command.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <future>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/progress_line.hpp"
#include "cli/project_lookup.hpp"
#include "cli/run_environment.hpp"
#include "cli/terminal.hpp"
#include "config/command_check.hpp"
#include "config/config_sections.hpp"
#include "config/project_config.hpp"
#include "config/project_location.hpp"
#include "config/suite_loader.hpp"
#include "measure/benchmark_runner.hpp"
#include "measure/duration_text.hpp"
#include "measure/host_provenance.hpp"
#include "measure/interruption.hpp"
#include "measure/local_git.hpp"
#include "measure/machine_state.hpp"
#include "measure/process_executor.hpp"
#include "measure/results_folder.hpp"
#include "measure/worker_log_tail.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"
#include "report/results_table.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

bool matches_filters(const BenchmarkState& state, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  for (const auto& pattern : filters) {
    // State names contain [ ], which a glob reads as a character class: match them literally too.
    if (pattern == state.name) return true;
    if (::fnmatch(pattern.c_str(), state.name.c_str(), 0) == 0) return true;
    if (::fnmatch(pattern.c_str(), state.config->benchmark_id.c_str(), 0) == 0) return true;
  }
  return false;
}

// A failed run and a static-threshold breach are both hard failures of `run`: the user
// reads the end of the worker log first, so it is printed with the reason.
void print_hard_failure(const RawRecord& record) {
  const std::string& id = record.identity.benchmark_id;
  if (!record.success) {
    std::cerr << "perfgate: " << id << " failed: " << record.failure_reason << "\n";
  } else {
    std::string breaches;
    for (const ThresholdCheck& check : record.static_verdict.checks) {
      if (!check.breached) continue;
      const auto series = record.metrics.find(check.metric);
      const DisplayUnit display =
          choose_display_unit(std::max(std::fabs(check.value), std::fabs(check.limit)),
                              series == record.metrics.end() ? "" : series->second.metric.unit);
      breaches += fmt::format("{}{} {} {} {} limit {}", breaches.empty() ? "" : "; ", check.metric,
                              check.statistic, format_in(check.value, display),
                              check.lower_bound ? "<" : ">", format_in(check.limit, display));
    }
    std::cerr << "perfgate: " << id << " breached its static thresholds: " << breaches << "\n";
  }
  print_worker_log_tail(std::cerr, id, record.worker_log_path, kWorkerLogTailLines);
}

/// Every run a state makes: warmups and measured runs (when it measures time), counted
/// runs (when it measures instructions).
int runs_of(const RunSettings& settings) {
  return (settings.measure_time ? settings.num_warmup_runs + settings.num_measurement_runs : 0) +
         (settings.measure_counts ? settings.num_count_runs : 0);
}

/// "1 warmup + 3 measured run(s) + 2 counted run(s) (valgrind)", as --dry-run says it.
std::string describe_runs(const RunSettings& settings, const RunEnvironment& environment) {
  std::string out;
  if (settings.measure_time) {
    out = fmt::format("{} warmup + {} measured run(s)", settings.num_warmup_runs,
                      settings.num_measurement_runs);
  }
  if (settings.measure_counts) {
    // Chosen already: execute_run checked every state's counter before the plan.
    const std::string backend =
        environment.counters ? environment.counters->get(settings.counter).name() : "?";
    out += fmt::format("{}{} counted run(s) ({})", out.empty() ? "" : " + ",
                       settings.num_count_runs, backend);
  }
  return out;
}

/// What --dry-run prints: every state with its runs and command, or why it is skipped.
std::string render_run_plan(const std::vector<BenchmarkState>& states,
                            const RunEnvironment& environment, const fs::path& results_dir) {
  std::string out;
  int runs = 0;
  int measured = 0;
  for (const auto& state : states) {
    const RunSettings& settings = state.config->run;
    if (auto reason = device_skip_reason(*state.config, environment.provenance.device,
                                         environment.gpu_count)) {
      out += fmt::format("{}  SKIPPED  {}\n", state.name, *reason);
      continue;
    }
    // --timeout overrides every config's timeout_s, as it will when the runs start.
    const std::optional<double> timeout =
        environment.timeout_s ? environment.timeout_s : settings.timeout_s;
    runs += runs_of(settings);
    if (settings.measure_time) measured += settings.num_measurement_runs;
    out +=
        fmt::format("{}  {}, {}\n  {}\n  in {}\n", state.name, describe_runs(settings, environment),
                    timeout ? fmt::format("timeout {:g} s", *timeout) : std::string("no timeout"),
                    describe_command(state.command), state.config->working_folder().string());
  }
  return out + fmt::format(
                   "would run {} state(s): {} run(s), {} of them measured; records would go to "
                   "{}/run-{}/\n",
                   states.size(), runs, measured, results_dir.string(), environment.file_stamp);
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunOptions& options) {
  CLI::App* run =
      app.add_subcommand("run", "Run a suite of benchmark configs and apply static thresholds");
  run->add_option("suite", options.suites,
                  "Config files or folders of configs (default: benchmarks/); or, after --, a "
                  "command to measure with no config");
  run->add_option("-f,--filter", options.filters,
                  "Only benchmarks whose id or state name matches this glob (repeatable)")
      ->allow_extra_args(false);  // --filter 'sort*' benchmarks/: the folder is a suite, not a glob
  run->add_option("-r,--results-dir", options.results_dir,
                  "Where each run's folder (run-<UTC stamp>/: raw records and worker logs) goes "
                  "(default: [run] results_dir of perfgate.toml, else .perfgate/results)");
  run->add_flag("--list", options.list, "Print the expanded benchmark states; run nothing");
  run->add_flag("--dry-run", options.dry_run,
                "Validate the suite, programs and results folder, print what would run; run "
                "nothing and write nothing");
  run->add_option("--run-source", options.run_source,
                  "pr, local, scheduled_main or unknown (default: inferred from CI variables)")
      ->check(CLI::IsMember({"pr", "local", "scheduled_main", "unknown"}));
  run->add_flag("--json", options.json,
                "Print the raw records as a JSON array instead of the table");
  run->add_flag("--no-progress", options.no_progress, "Do not draw the progress bar");
  run->add_option(
      "--timeout", options.timeout,
      "Time limit of every run and hook, e.g. 90s or 2m (overrides run_config.timeout_s)");
  run->add_option("--name", options.name,
                  "With -- CMD: the benchmark's id (default: the program's name)");
  run->add_option("--runs", options.runs,
                  "With -- CMD: measured runs (default: [run] of perfgate.toml, else 3)");
  run->add_option("--warmup", options.warmup,
                  "With -- CMD: warmup runs (default: [run] of perfgate.toml, else 1)");
  run->add_option("--measure", options.measure,
                  "What to measure, over every config's run_config.measure: time, "
                  "instructions, or both (--measure time,instructions). Instructions are "
                  "counted in runs of their own, under hardware counters or Valgrind")
      ->delimiter(',')
      ->allow_extra_args(false);  // --measure instructions benchmarks/: the folder is a suite
  run->footer(
      "Examples:\n"
      "  perfgate run benchmarks/\n"
      "  perfgate run -- ./build/sort --n 1000000     # ad hoc: no config, same records\n"
      "  perfgate run --runs 10 --name gzip9 -- gzip -9 -k -f data.bin\n"
      "  perfgate run --measure time,instructions benchmarks/   # also count instructions\n"
      "  perfgate run benchmarks/sort.toml --filter 'sort*' --results-dir out/ --json\n"
      "  perfgate run --list --filter 'sort*'\n"
      "  perfgate run --dry-run benchmarks/\n"
      "  PERFGATE_RUN_SOURCE=scheduled_main perfgate run benchmarks/\n\n"
      "Each benchmark's table is printed when it finishes; progress goes to standard error.\n\n"
      "Exit status: 0 all passed or skipped (or listed); 1 a threshold breach or a failed run;\n"
      "65 invalid config or a program that cannot run; 66 missing file, folder or\n"
      "program (or no counter for --measure instructions); 74 results folder not\n"
      "writable; 130, 143 or 129 interrupted by SIGINT,\n"
      "SIGTERM or SIGHUP (the runs it started are killed, records so far are kept).");
  return run;
}

namespace {

double timeout_flag(const std::string& text) {
  try {
    return parse_duration_text(text);
  } catch (const std::invalid_argument& error) {
    throw Error(ExitCode::kUsage, std::string("--timeout: ") + error.what());
  }
}

/// The id of an ad-hoc benchmark: --name, else the program's file name with every
/// character a benchmark id cannot hold made '-' ("./build/sort" -> "sort").
std::string adhoc_benchmark_id(const RunOptions& options, const CommandSpec& command) {
  if (!options.name.empty()) return options.name;
  std::string program =
      command.shell ? command.script.substr(0, command.script.find(' ')) : command.argv.front();
  program = fs::path(program).filename().string();
  std::string id;
  for (const char c : program) {
    const bool allowed =
        std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
    id += allowed ? c : '-';
  }
  while (!id.empty() && std::isalnum(static_cast<unsigned char>(id.front())) == 0) id.erase(0, 1);
  if (id.size() > 100) id.resize(100);
  return id.empty() ? "adhoc" : id;
}

/// `perfgate run -- CMD ARGS...`: one benchmark made from the command, run in the current
/// folder (as hyperfine runs it), with the project's [run] defaults and --runs/--warmup.
/// One word with a space in it is a shell command ("sleep 0.1 && true"), as hyperfine
/// takes it; several words are an argv, run as they are.
Suite adhoc_suite(const RunOptions& options, const std::optional<ProjectLocation>& project) {
  Suite suite;
  if (project && project->config) suite.project = load_project_config(*project->config);
  if (project) suite.project.root = project->root;
  BenchmarkConfig config;
  config.source = "(command line)";
  if (options.command.size() == 1 &&
      options.command.front().find_first_of(" \t\n;&|<>$`'\"") != std::string::npos) {
    config.command.shell = true;
    config.command.script = options.command.front();
  } else {
    config.command.argv = options.command;
  }
  config.benchmark_id = adhoc_benchmark_id(options, config.command);
  config.description = "perfgate run -- " + fmt::format("{}", fmt::join(options.command, " "));
  config.default_cwd = fs::current_path();
  apply_project_run_defaults(suite.project, config.run);
  if (options.runs) config.run.num_measurement_runs = *options.runs;
  if (options.warmup) config.run.num_warmup_runs = *options.warmup;
  // The same rules a config's values meet (docs/configs.md), said in the flags' names.
  if (const auto problem = benchmark_id_problem(config.benchmark_id)) {
    throw Error(ExitCode::kUsage, "--name '" + config.benchmark_id + "': not a benchmark id: it " +
                                      problem->first + ". " + problem->second);
  }
  if (config.run.num_measurement_runs < 1 || config.run.num_measurement_runs > kMaxRunsPerState) {
    throw Error(ExitCode::kUsage, fmt::format("--runs {}: give 1 to {} measured runs",
                                              config.run.num_measurement_runs, kMaxRunsPerState));
  }
  if (config.run.num_warmup_runs < 0 || config.run.num_warmup_runs > kMaxRunsPerState) {
    throw Error(ExitCode::kUsage, fmt::format("--warmup {}: give 0 to {} warmup runs",
                                              config.run.num_warmup_runs, kMaxRunsPerState));
  }
  suite.configs.push_back(std::move(config));
  return suite;
}

}  // namespace

void split_adhoc_command(int& argc, char** argv, RunOptions& options) {
  // Only for `run`, the first word that is not a flag (global flags such as --no-color
  // may come first).
  int i = 1;
  while (i < argc && argv[i][0] == '-' && std::string_view(argv[i]) != "--") ++i;
  if (i >= argc || std::string_view(argv[i]) != "run") return;
  for (int j = i + 1; j < argc; ++j) {
    if (std::string_view(argv[j]) != "--") continue;
    if (j + 1 == argc) {
      throw Error(ExitCode::kUsage,
                  "perfgate run --: nothing after --. Give the command to measure, e.g. "
                  "'perfgate run -- ./build/sort --n 1000'");
    }
    options.command.assign(argv + j + 1, argv + argc);
    argc = j;
    return;
  }
}

int execute_run(const RunOptions& options) {
  // From here on an interruption kills the runs' process groups instead of orphaning them.
  const InterruptionScope interruption;
  // The project is found from here upwards, as git finds a repository; only outside any
  // project does the suite's own folder decide (docs/configs.md, "The project").
  const std::optional<ProjectLocation> project = locate_project(fs::current_path());
  const bool adhoc = !options.command.empty();
  if (adhoc && !options.suites.empty()) {
    throw Error(ExitCode::kUsage,
                "perfgate run: give a suite or a command after --, not both (the suite: " +
                    options.suites.front() + "). Run the suite alone, or the command alone");
  }
  if (!adhoc && (!options.name.empty() || options.runs || options.warmup)) {
    throw Error(ExitCode::kUsage,
                "--name, --runs and --warmup are for a command given after --, e.g. 'perfgate "
                "run --runs 10 -- ./build/sort'. A config sets num_measurement_runs and "
                "num_warmup_runs in run_config");
  }
  std::vector<fs::path> paths;
  for (const auto& suite : options.suites) paths.emplace_back(suite);
  if (paths.empty()) {
    paths.push_back(project ? as_seen_from_here(project->root / "benchmarks")
                            : fs::path("benchmarks"));
  }
  Suite suite = adhoc ? adhoc_suite(options, project) : load_suite(paths, project);
  if (!options.measure.empty()) {
    const auto kinds = parse_measure_kinds(options.measure);
    if (!kinds) {
      throw Error(ExitCode::kUsage,
                  fmt::format("--measure {}: give time, instructions, or both, each once (e.g. "
                              "--measure time,instructions)",
                              fmt::join(options.measure, ",")));
    }
    for (auto& config : suite.configs) {
      config.run.measure_time = kinds->first;
      config.run.measure_counts = kinds->second;
    }
  }
  announce_project(suite.project);

  std::vector<BenchmarkState> states;
  for (const auto& config : suite.configs) {
    for (auto& state : expand_states(config)) {
      if (matches_filters(state, options.filters)) states.push_back(std::move(state));
    }
  }
  if (states.empty()) {
    throw Error(ExitCode::kUsage,
                "--filter: no benchmark of the suite matches. Run 'perfgate run --list' to see "
                "every benchmark state, then pass a glob such as 'sort*'.");
  }
  if (options.list) {
    for (const auto& state : states) std::cout << state.name << "\n";
    return static_cast<int>(ExitCode::kOk);
  }

  // perfgate-spawner starts while the host is described: each is a few ms of waiting for
  // processes to start (more on a busy machine), and they need not wait one after the other.
  std::future<SpawnerStart> spawner;
  if (!options.dry_run) spawner = start_spawner_ahead();
  RunEnvironment environment = describe_run_environment(suite, options.run_source);
  if (!options.timeout.empty()) environment.timeout_s = timeout_flag(options.timeout);
  std::vector<const BenchmarkState*> to_run;
  for (const auto& state : states) {
    if (!device_skip_reason(*state.config, environment.provenance.device, environment.gpu_count))
      to_run.push_back(&state);
  }
  check_commands_runnable(to_run);
  // A machine that cannot count refuses before anything runs, naming what to install or
  // allow (count/counter_backend.cpp), not one failed record per benchmark.
  for (const BenchmarkState* state : to_run) {
    if (state->config->run.measure_counts) environment.counters->get(state->config->run.counter);
  }
  const fs::path results_dir = project_results_dir(options.results_dir, suite.project);
  if (options.dry_run) {
    check_results_folder_writable(results_dir);
    std::cout << render_run_plan(states, environment, results_dir);
    return static_cast<int>(ExitCode::kOk);
  }
  const fs::path run_dir = create_run_folder(results_dir, environment.file_stamp);
  int total_runs = 0;
  for (const BenchmarkState* state : to_run) {
    total_runs += runs_of(state->config->run);
  }

  ProgressLine progress(stderr, total_runs, !options.no_progress && stderr_is_terminal());
  ProcessExecutor executor;
  executor.adopt_spawner(std::move(spawner));
  BenchmarkRunner runner(executor, run_dir, environment, &progress);
  const TableStyle style{stdout_supports_color(), stdout_columns()};
  std::vector<BenchmarkOutcome> outcomes;
  for (const auto& state : states) {
    if (interruption_signal() != 0) break;
    BenchmarkOutcome outcome;
    outcome.name = state.name;
    if (auto reason = device_skip_reason(*state.config, environment.provenance.device,
                                         environment.gpu_count)) {
      outcome.kind = BenchmarkOutcome::Kind::kSkipped;
      outcome.skip_reason = std::move(*reason);
    } else {
      outcome.record = runner.run(state);
      outcome.record_path =
          write_raw_record(run_dir, outcome.record, environment.file_stamp).string();
      if (!outcome.record.success || outcome.record.static_verdict.breached()) {
        progress.clear();
        print_hard_failure(outcome.record);
      }
    }
    // Each benchmark's table appears as soon as it is measured, not at the end of the suite.
    if (!options.json) {
      progress.clear();
      std::cout << render_outcome_block(outcome, style) << std::flush;
    }
    outcomes.push_back(std::move(outcome));
  }
  progress.clear();

  if (options.json) {
    Json records = Json::array();
    for (const auto& outcome : outcomes) {
      if (outcome.kind == BenchmarkOutcome::Kind::kMeasured)
        records.push_back(to_json(outcome.record));
    }
    std::cout << pretty_json(records);
  } else {
    std::cout << render_run_totals(outcomes) << "records: " << run_dir.string() << "\n";
  }
  if (const int signal = interruption_signal()) {
    std::cerr << fmt::format(
        "perfgate run: {} after {} of {} benchmarks; the runs it started were killed and a "
        "record cut short says it is incomplete ({})\n",
        describe_interruption(signal), outcomes.size(), states.size(), run_dir.string());
    return interrupted_exit_code(signal);
  }
  for (const auto& outcome : outcomes) {
    const std::string status = outcome.status();
    if (status == "FAILED" || status == "REGRESSION") return static_cast<int>(ExitCode::kFailure);
  }
  return static_cast<int>(ExitCode::kOk);
}

}  // namespace perfgate
