#include "cli/ab_command.hpp"

#include "config/benchmark_config.hpp"
#include "count/counter_backend.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ab/checkout_commit.hpp"
#include "ab/output_folder.hpp"
#include "ab/protocol.hpp"
#include "ab/scenario_plan.hpp"
#include "measure/duration_text.hpp"
#include "measure/host_profile.hpp"
#include "measure/interruption.hpp"
#include "measure/machine_state.hpp"
#include "measure/process_executor.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/visible_text.hpp"
#include "report/ab_markdown.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void usage(const std::string& message) {
  throw Error(ExitCode::kUsage, message);
}

std::array<SideSource, 2> read_sides(const AbOptions& options) {
  const bool commands = !options.base.empty() || !options.head.empty();
  const bool checkouts = !options.base_dir.empty() || !options.head_dir.empty();
  if (commands == checkouts) {
    usage(
        "give either --base and --head (two commands) or --base-dir and --head-dir (two "
        "checkouts), not both and not neither");
  }
  SideSource base, head;
  if (commands) {
    base.command = options.base;
    head.command = options.head;
  } else {
    if (!options.base_dir.empty()) base.dir = fs::path(options.base_dir);
    if (!options.head_dir.empty()) head.dir = fs::path(options.head_dir);
  }
  const bool base_set = commands ? !base.command.empty() : base.dir.has_value();
  const bool head_set = commands ? !head.command.empty() : head.dir.has_value();
  const char* base_flag = commands ? "--base" : "--base-dir";
  const char* head_flag = commands ? "--head" : "--head-dir";
  if (!base_set) usage(fmt::format("{} is missing. Name the base side", base_flag));
  if (options.repeat_check) {
    if (head_set) {
      usage(fmt::format("--repeat-check runs the base side as both base and head; leave out {}",
                        head_flag));
    }
    head = base;
  } else if (!head_set) {
    usage(
        fmt::format("{} is missing. Name the head side, or pass --repeat-check for an A/A "
                    "check of the base side",
                    head_flag));
  }
  for (const auto& side : {base, head}) {
    std::error_code ec;
    if (side.dir && !fs::is_directory(*side.dir, ec)) {
      throw Error(ExitCode::kNoInput,
                  fmt::format("{}: is not a folder. Name the checkout to run the scenarios in",
                              side.dir->string()));
    }
  }
  return {base, head};
}

/// --budget instructions=...: the counted rounds' budget (issue 36), or nullopt for a
/// budget of another metric.
std::optional<Budget> instruction_budget_flag(const std::string& text) {
  try {
    return parse_instruction_budget(text);
  } catch (const std::invalid_argument&) {
    usage("--budget " + text +
          ": give the instructions budget as a percentage and an optional count, e.g. "
          "instructions=1% or instructions=2%,1000");
  }
}

RuleOverrides read_rule_flags(const AbOptions& options) {
  RuleOverrides overrides;
  try {
    for (const auto& text : options.budgets) {
      if (instruction_budget_flag(text)) continue;  // the counted rounds' (apply_measure_flag)
      const BudgetSetting setting = parse_budget_setting(text);
      overrides.budgets[static_cast<std::size_t>(setting.metric)] = setting.budget;
    }
  } catch (const std::invalid_argument& error) {
    usage(std::string("--budget: ") + error.what());
  }
  if (!options.noise_limit.empty()) {
    try {
      overrides.noise_limit = parse_noise_limit(options.noise_limit);
    } catch (const std::invalid_argument& error) {
      usage(std::string("--noise-limit: ") + error.what());
    }
  }
  return overrides;
}

/// --method, --alpha and --max-pairs, checked before anything runs: an alpha of 5 (meant
/// as 5%) or a handful of pairs would give verdicts without the error rate they claim.
void apply_method_flags(const AbOptions& options, VerdictRules& rules) {
  const bool stat = options.method == "stat";
  if (!stat && (options.alpha != kDefaultAlpha ||
                options.max_pairs != static_cast<long long>(kDefaultMaxPairs))) {
    usage("--alpha and --max-pairs set the statistical rule: pass --method stat with them");
  }
  if (!(options.alpha > 0 && options.alpha <= 0.2)) {
    usage(
        fmt::format("--alpha {:g}: the chance of a wrong verdict is a fraction above 0 and "
                    "at most 0.2. Pass e.g. 0.01 for 1%",
                    options.alpha));
  }
  if (options.max_pairs < 6 || options.max_pairs > 10000) {
    usage(
        fmt::format("--max-pairs {}: the statistical rule needs at least 6 pairs to decide "
                    "anything and takes at most 10000. Pass e.g. 60",
                    options.max_pairs));
  }
  rules.method = stat ? AbMethod::kStat : AbMethod::kPairs;
  rules.alpha = options.alpha;
  rules.max_pairs = static_cast<std::size_t>(options.max_pairs);
}

/// --measure and the instructions budget, onto every scenario; the counter is chosen
/// here, before the output folder exists, so a machine that cannot count refuses first.
void apply_measure_flag(const AbOptions& options, std::vector<PlannedScenario>& scenarios,
                        CounterChoices& counters, AbReport& report) {
  std::optional<Budget> budget;
  for (const auto& text : options.budgets) {
    if (auto parsed = instruction_budget_flag(text)) budget = parsed;
  }
  bool time = true;
  bool instructions = false;
  if (!options.measure.empty()) {
    const auto kinds = parse_measure_kinds(options.measure);
    if (!kinds) {
      usage(
          fmt::format("--measure {}: give time, instructions, or both, each once (e.g. "
                      "--measure instructions)",
                      fmt::join(options.measure, ",")));
    }
    std::tie(time, instructions) = *kinds;
  }
  if (budget && !instructions) {
    usage("--budget instructions=...: instructions are measured with --measure instructions");
  }
  const CounterBackend* counter = instructions ? &counters.get("auto") : nullptr;
  for (auto& scenario : scenarios) {
    scenario.measure_time = time;
    scenario.counter = counter;
    if (budget) scenario.instruction_budget = *budget;
  }
  Json kinds = Json::array();
  if (time) kinds.push_back("time");
  if (instructions) kinds.push_back("instructions");
  report.method["measure"] = kinds;
  if (counter != nullptr) {
    report.method["counter"] = counter->recipe();
    report.method["counts"] = fmt::format(
        "{}{} counted run per side and round, never timed, the leader alternating; 2 rounds "
        "(one and its confirmation) decide a deterministic program (each side's counts within "
        "{:g}% of each other), one whose counts vary gets rounds until a confidence sequence "
        "decides, up to {}",
        time ? "after the timed pairs, " : "no timed runs; ", 1, kDeterministicSpread * 100,
        std::max(kCountRounds, static_cast<std::size_t>(options.max_pairs)));
  }
}

std::string describe_side(const SideSource& side) {
  return side.dir ? fs::absolute(*side.dir).lexically_normal().string() : side.command;
}

Json describe_machine() {
  const HostProbe& host = real_host();
  return {{"hardware", collect_hardware_profile(host).to_json()},
          {"software", collect_software_profile(host, {}).to_json()}};
}

Json describe_method(const AbOptions& options, const std::array<SideSource, 2>& sides) {
  return {{"mode", sides[0].dir ? "checkouts (--base-dir/--head-dir)" : "commands (--base/--head)"},
          {"base", describe_side(sides[0])},
          {"head", options.repeat_check ? describe_side(sides[1]) + " (--repeat-check: the base "
                                                                    "side again)"
                                        : describe_side(sides[1])},
          {"repeat_check", options.repeat_check},
          {"suite", options.scenario.empty() ? options.suite : "--scenario " + options.scenario},
          {"protocol",
           options.method == "stat"
               ? fmt::format("1 excluded warmup per side; measured pairs alternating which side "
                             "runs first (pair 1 base first), judged after each by an "
                             "anytime-valid confidence sequence at {:g}% confidence, up to {} "
                             "pairs (--method stat)",
                             (1 - options.alpha) * 100, options.max_pairs)
               : std::string("1 excluded warmup per side; 3 measured pairs alternating which "
                             "side runs first (pair 1 base first); 2 confirmation pairs when the "
                             "first 3 are not conclusive")},
          {"warmups_per_side", 1},
          {"initial_pairs", kInitialPairs},
          {"confirmation_pairs", kConfirmationPairs},
          {"sampler",
           "wall clock spawn to reap; user+system CPU of the process tree; peak RSS of the "
           "process tree from a /proc sampler every 10 ms, getrusage and cgroup memory.peak "
           "where available"}};
}

// Prints one line per run and rewrites results.json after every run and verdict.
class CheckpointingObserver final : public AbObserver {
 public:
  CheckpointingObserver(AbReport& report, fs::path results)
      : report_(report), results_(std::move(results)) {}

  void run_finished(const AbScenarioResult& scenario, const AbRunSample& sample) override {
    std::cerr << fmt::format(
        "perfgate ab: {} {} {:<7} {:>10}  cpu_time {:>10}  memory {:>10}  {}\n", scenario.name,
        side_name(sample.side), sample.warmup() ? "warmup" : fmt::format("pair {}", sample.pair),
        format_metric_value(AbMetric::kDuration, sample.duration_s),
        format_metric_value(AbMetric::kCpu, sample.cpu_s),
        format_metric_value(AbMetric::kRss, sample.rss_bytes),
        sample.failed_checks.empty() ? "ok" : "INVALID");
    checkpoint();
  }
  void scenario_updated(const AbScenarioResult&) override { checkpoint(); }
  void count_run_finished(const AbScenarioResult& scenario, const AbCountRun& run) override {
    const auto instructions = run.counts.find("instructions");
    std::cerr << fmt::format("perfgate ab: {} {} count {:<3} {:>16}  {}\n", scenario.name,
                             side_name(run.side), run.round,
                             instructions == run.counts.end()
                                 ? std::string("—")
                                 : fmt::format("{:.0f} instructions", instructions->second),
                             run.outcome);
    checkpoint();
  }
  void checkpoint() { replace_file_atomically(results_, pretty_json(to_json(report_))); }

 private:
  AbReport& report_;
  fs::path results_;
};

// Keys are absolute, normalized paths: the same file whatever folder perfgate ran in, and
// never confused with a file of another checkout.
std::string checksum_key(const fs::path& file) {
  return fs::absolute(file).lexically_normal().string();
}

Json checksums(const std::optional<ScenarioFile>& file) {
  Json files = Json::object();
  if (file) {
    files[checksum_key(file->path)] = sha256_file(file->path.string());
    for (const auto& scenario : file->scenarios) {
      for (const auto& fixture : scenario.fixtures)
        files[checksum_key(fixture)] = sha256_file(fixture.string());
    }
  }
  return Json{{"schema_version", 1}, {"algorithm", "sha256"}, {"files", files}};
}

// A copy of the scenarios file travels with the results, so the rules they were judged by
// can be read even after the file changed.
std::string copy_scenario_file(const fs::path& out, const ScenarioFile& file) {
  const std::string name = "scenarios" + file.path.extension().string();
  std::ifstream in(file.path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  replace_file_atomically(out / name, text.str());
  return name;
}

void print_verdict(std::ostream& out, const AbScenarioResult& scenario) {
  out << fmt::format("{}  {}\n", visible_text(scenario.name), status_name(scenario.status()));
  if (!scenario.error.empty()) out << "  " << visible_text(scenario.error) << "\n";
  if (scenario.verdict) {
    // After an error the verdict is the one that asked for confirmation pairs: say so, so
    // its reasons are not read as the error's.
    const bool superseded = !scenario.error.empty();
    for (const auto& reason : scenario.verdict->reasons) {
      out << "  " << (superseded ? "confirmation pairs were needed: " : "") << visible_text(reason)
          << "\n";
    }
  }
  if (scenario.status() == ScenarioStatus::kInconclusive) {
    out << "  not a regression and not a pass: rerun on a quieter machine before relying on "
           "it\n";
  }
  if (scenario.profile) {
    out << "  profile: "
        << (scenario.profile->path.empty() ? scenario.profile->note : scenario.profile->path)
        << "\n";
  }
}

std::string overall_verdict(const AbReport& report) {
  if (report.interrupted_signal != 0) return "INTERRUPTED";
  switch (report.exit_code()) {
    case 0:
      return "PASS";
    case 2:
      return "INCONCLUSIVE";
    default:
      break;
  }
  for (const auto& scenario : report.scenarios) {
    if (scenario.status() == ScenarioStatus::kError) return "ERROR";
  }
  return "REGRESSION";
}

// --json: one object on stdout, documented in docs/ab.md ("--json").
Json verdict_json(const AbReport& report, const fs::path& out, int exit_code) {
  Json scenarios = Json::array();
  for (const auto& scenario : report.scenarios) {
    scenarios.push_back(
        {{"name", scenario.name},
         {"status", status_name(scenario.status())},
         {"reasons", scenario.verdict ? Json(scenario.verdict->reasons) : Json::array()},
         {"error", scenario.error.empty() ? Json(nullptr) : Json(scenario.error)},
         {"warnings", scenario.warnings}});
  }
  const Json full = to_json(report);
  return {{"schema_version", 1},
          {"verdict", overall_verdict(report)},
          {"exit_code", exit_code},
          {"complete", report.complete},
          {"interrupted", full["interrupted"]},
          {"results", (out / "results.json").string()},
          {"report", (out / "report.md").string()},
          {"git", report.git},
          {"scenarios", scenarios}};
}

// GitHub Actions shows this file on the job's page; appending keeps other steps' summaries.
void append_step_summary(const std::string& markdown) {
  const char* summary = std::getenv("GITHUB_STEP_SUMMARY");
  if (summary == nullptr || *summary == '\0') return;
  std::ofstream file(summary, std::ios::app);
  file << markdown << "\n";
  if (!file) {
    std::cerr << fmt::format(
        "perfgate: warning: GITHUB_STEP_SUMMARY {}: cannot append the report\n", summary);
  }
}

}  // namespace

CLI::App* add_ab_command(CLI::App& app, AbOptions& options) {
  CLI::App* ab = app.add_subcommand(
      "ab", "Measure a base and a head side in alternating pairs and judge the head");
  ab->add_option("--base", options.base, "Base command (run with /bin/sh -c)");
  ab->add_option("--head", options.head, "Head command (run with /bin/sh -c)");
  ab->add_option("--base-dir", options.base_dir, "Base checkout: scenario commands run in it");
  ab->add_option("--head-dir", options.head_dir, "Head checkout: scenario commands run in it");
  ab->add_option("--scenario-file", options.scenario_file,
                 "TOML file of named scenarios (see docs/ab.md); without it --base/--head form "
                 "one scenario named 'adhoc'");
  ab->add_option("--suite", options.suite, "Scenarios of this suite (default: basic)")
      ->check(CLI::IsMember({"basic", "full"}));
  ab->add_option("--scenario", options.scenario, "Only this scenario, whatever its suites");
  ab->add_option("--budget", options.budgets,
                 "METRIC=RELATIVE%,ABSOLUTE, e.g. latency=5%,1ms cpu_time=10%,0.1s "
                 "memory=20%,32MB (repeatable; overrides the scenarios file; duration, cpu and "
                 "rss are aliases)")
      ->allow_extra_args(false);
  ab->add_option("--noise-limit", options.noise_limit,
                 "Largest range of a side, in percent of its median (default 30%)");
  ab->add_option("--out", options.out, "New folder for results.json, report.md and logs")
      ->required();
  ab->add_flag("--repeat-check", options.repeat_check,
               "Run the base side as both base and head: an A/A check of this machine's noise");
  ab->add_option("--timeout", options.timeout,
                 "Time limit of every run, e.g. 90s or 2m (overrides timeout_s; default: 10x "
                 "the slowest warmup, at least 60s)");
  ab->add_option("--method", options.method,
                 "pairs: the 3-pair protocol, 3 pairs and 2 more to confirm a change, counted "
                 "(default); stat: a pair at a time until a confidence sequence decides "
                 "(docs/ab.md)")
      // `seed`, the 3-pair protocol's first name, still works.
      ->transform(CLI::Validator(
          [](std::string& value) {
            if (value == "seed") value = "pairs";
            return std::string();
          },
          ""))
      ->check(CLI::IsMember({"pairs", "stat"}));
  ab->add_option("--alpha", options.alpha,
                 "--method stat: the chance of a wrong verdict it allows (default 0.01)");
  ab->add_option("--max-pairs", options.max_pairs,
                 "--method stat: pairs before an undecided scenario is INCONCLUSIVE (default 60)");
  ab->add_option("--measure", options.measure,
                 "time (the timed pairs, default), instructions (counted rounds: hardware "
                 "counters or Valgrind; a deterministic program decides in 2 rounds), or "
                 "time,instructions; --budget instructions=1% is the counts' budget (default)")
      ->delimiter(',')
      ->allow_extra_args(false);  // --measure instructions benchmarks/: the folder is a suite
  ab->add_flag("--json", options.json,
               "Print the verdict as one JSON object on stdout (progress and verdict lines go "
               "to stderr)");
  ab->footer(
      "Examples:\n"
      "  perfgate ab --base ./build-main/app --head ./build-pr/app --scenario-file "
      "perf/scenarios.toml --out perf-out/\n"
      "  perfgate ab --base-dir ../main --head-dir . --scenario-file perf/scenarios.toml "
      "--suite full --out perf-out/\n"
      "  perfgate ab --base 'sort --n 1e6' --head './sort-new --n 1e6' --timeout 2m --out "
      "perf-out/\n"
      "  perfgate ab --method stat --alpha 0.01 --max-pairs 60 --base ./old --head ./new --out "
      "perf-out/\n"
      "  perfgate ab --measure instructions --budget instructions=1% --base ./old --head ./new "
      "--out perf-out/\n\n"
      "Exit status: 0 PASS; 1 REGRESSION or an execution error; 2 INCONCLUSIVE;\n"
      "64 bad flags or an existing --out folder; 65 invalid scenarios file; 66 missing file;\n"
      "74 output folder not writable; 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP\n"
      "(the runs it started are killed; a partial report is written).");
  return ab;
}

int execute_ab(const AbOptions& options) {
  // From here on an interruption kills the runs' process groups instead of orphaning them.
  const InterruptionScope interruption;
  PlanRequest request;
  request.sides = read_sides(options);
  request.command_line = read_rule_flags(options);
  request.suite = options.suite;
  if (!options.timeout.empty()) {
    try {
      request.timeout_s = parse_duration_text(options.timeout);
    } catch (const std::invalid_argument& error) {
      usage(std::string("--timeout: ") + error.what());
    }
  }
  if (!options.scenario.empty()) request.scenario = options.scenario;
  if (!options.scenario_file.empty()) {
    request.file = load_scenario_file(options.scenario_file);
  } else if (request.sides[0].dir) {
    usage(
        "--base-dir/--head-dir need --scenario-file: the scenarios say what to run in each "
        "checkout");
  }
  std::vector<PlannedScenario> scenarios = plan_scenarios(request);
  for (auto& scenario : scenarios) {
    apply_method_flags(options, scenario.rules);
    // The noise limit is the seed rule's; the statistical rule weighs the spread itself.
    if (scenario.rules.method == AbMethod::kStat) scenario.warnings = {};
  }

  // Everything that can refuse the command is checked before the output folder exists.
  AbReport report;
  CounterChoices counters(machine_counter_sources);
  apply_measure_flag(options, scenarios, counters, report);
  if (request.file) {
    report.scenario_file = request.file->path.string();
    report.scenario_file_sha256 = sha256_file(report.scenario_file);
  }
  const Json file_checksums = checksums(request.file);
  for (const AbSide side : kAbSides) {
    const auto& source = request.sides[static_cast<std::size_t>(side)];
    if (!source.dir) continue;
    if (auto commit = describe_checkout_commit(*source.dir))
      report.git[std::string(side_name(side))] = std::move(*commit);
  }
  std::ostream& verdicts = options.json ? std::cerr : std::cout;
  for (const auto& scenario : scenarios) {
    for (const auto& warning : scenario.warnings)
      std::cerr << fmt::format("perfgate ab: warning: {}: {}\n", scenario.name, warning);
  }

  const fs::path out = output_folder_path(options.out);
  create_new_output_folder(out);
  std::cerr << busy_machine_notice(real_host());
  const MachineSnapshot machine_before = take_machine_snapshot(real_host());
  report.machine = describe_machine();
  const Json measured = report.method;  // apply_measure_flag's part
  report.method = describe_method(options, request.sides);
  report.method.update(measured);
  if (request.file) report.scenario_file_copy = copy_scenario_file(out, *request.file);
  replace_file_atomically(out / "checksums.json", pretty_json(file_checksums));
  report.scenarios.resize(scenarios.size());
  for (std::size_t i = 0; i < scenarios.size(); ++i) report.scenarios[i].name = scenarios[i].name;

  CheckpointingObserver observer(report, out / "results.json");
  observer.checkpoint();
  {
    ProcessExecutor executor;
    AbProtocol protocol(executor, out, observer);
    for (std::size_t i = 0; i < scenarios.size() && interruption_signal() == 0; ++i) {
      try {
        protocol.run(scenarios[i], report.scenarios[i]);
      } catch (const AbInterrupted&) {
        break;
      }
      if (interruption_signal() == 0) print_verdict(verdicts, report.scenarios[i]);
    }
  }
  // The machine around every pair: its load at the start and end, its clock and steal.
  report.machine["state"] = machine_state_json(machine_before, take_machine_snapshot(real_host()),
                                               real_host().logical_cores());
  int exit_code = 0;
  if (const int signal = interruption_signal()) {
    std::string during;
    for (auto& scenario : report.scenarios) {
      if (scenario.finished) continue;
      if (during.empty() && scenario.started()) during = " during scenario " + scenario.name;
      scenario.interrupted = true;
    }
    report.interrupted_signal = signal;
    report.interrupted_reason = describe_interruption(signal) + during +
                                "; the runs it started were killed and these results are partial";
    std::cerr << "perfgate ab: " << report.interrupted_reason << "\n";
    exit_code = interrupted_exit_code(signal);
  } else {
    report.complete = true;
    exit_code = report.exit_code();
  }
  observer.checkpoint();
  const std::string markdown = render_ab_markdown(report);
  replace_file_atomically(out / "report.md", markdown);
  append_step_summary(markdown);
  if (options.json) {
    std::cout << pretty_json(verdict_json(report, out, exit_code));
  } else {
    std::cout << fmt::format("results: {}  report: {}\n", (out / "results.json").string(),
                             (out / "report.md").string());
  }
  return exit_code;
}

}  // namespace perfgate
