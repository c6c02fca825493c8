#include "ab/protocol.hpp"

#include "count/counter_backend.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ab/candidate_profile.hpp"
#include "ab/run_checks.hpp"
#include "ab/sequential_verdict.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

std::string read_output(const fs::path& log) {
  std::ifstream in(log, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string hash_or_missing(const fs::path& file) {
  try {
    return sha256_file(file.string());
  } catch (const Error&) {
    return "unreadable";
  }
}

void make_folder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw Error(ExitCode::kIoError, fmt::format("{}: cannot create the folder: {}. Check that the "
                                                "output folder is writable",
                                                dir.string(), ec.message()));
  }
}

std::string run_label(AbSide side, std::size_t pair) {
  return fmt::format("{}-{}", side_name(side),
                     pair == 0 ? std::string("warmup") : std::to_string(pair));
}

// Says once per scenario, in its warnings (results.json and the report), that runs left
// processes behind that perfgate killed, or that it could not look for them.
void note_escapees(const ProcessResult& outcome, const std::string& label,
                   AbScenarioResult& result) {
  if (outcome.escapees_killed == 0) return;
  const std::string code = outcome.escapees_killed > 0 ? "ESCAPED_PROCESSES" : "ESCAPES_UNTRACKED";
  for (const auto& warning : result.warnings) {
    if (warning.starts_with(code)) return;
  }
  result.warnings.push_back(
      outcome.escapees_killed > 0
          ? fmt::format("ESCAPED_PROCESSES: run {} left {} process(es) outside its process group "
                        "(a daemon that double-forks); perfgate killed them at the run's end, as "
                        "it does after every run",
                        label, outcome.escapees_killed)
          : "ESCAPES_UNTRACKED: this kernel does not list a process's children "
            "(CONFIG_PROC_CHILDREN), so processes that left a run's process group could not "
            "be found and killed");
}

/// Whether argv is a shell command (/bin/sh -c SCRIPT): its exit status then says what the
/// shell saw, and reason_under_shell() reads it.
bool runs_under_shell(const std::vector<std::string>& argv) {
  return argv.size() >= 2 && argv[0] == "/bin/sh" && argv[1] == "-c";
}

}  // namespace

AbProtocol::AbProtocol(Executor& executor, fs::path out_dir, AbObserver& observer)
    : executor_(executor), out_dir_(fs::absolute(out_dir)), observer_(observer) {}

void AbProtocol::run(const PlannedScenario& scenario, AbScenarioResult& result) {
  result.name = scenario.name;
  result.rules = scenario.rules;
  result.warnings = scenario.warnings;
  result.timeout_source = scenario.timeout_source.empty() ? "default" : scenario.timeout_source;
  result.timeout_s = scenario.side(AbSide::kBase).timeout_s;
  for (const AbSide side : kAbSides) {
    result.argv[static_cast<std::size_t>(side)] = scenario.side(side).argv;
  }
  fixture_hashes_.clear();
  for (const auto& fixture : scenario.fixtures) fixture_hashes_.push_back(hash_or_missing(fixture));

  result.timed = scenario.measure_time;
  const bool warm = scenario.measure_time && run_once(scenario, AbSide::kBase, 0, result) &&
                    run_once(scenario, AbSide::kHead, 0, result);
  if (warm && scenario.rules.method == AbMethod::kStat) {
    // One pair at a time, judged after each: the confidence sequence keeps its error rate
    // however often it is looked at, so the first decided look ends the scenario.
    for (std::size_t pair = 1; pair <= scenario.rules.max_pairs; ++pair) {
      if (!run_pairs(scenario, pair, pair, result)) break;
      result.verdict =
          judge_sequential(result.measured(), result.rules, pair == scenario.rules.max_pairs);
      observer_.scenario_updated(result);
      if (result.verdict->kind != VerdictKind::kNeedsConfirmation) break;
    }
  } else if (warm && run_pairs(scenario, 1, kInitialPairs, result)) {
    judge(result);
    if (result.verdict->kind == VerdictKind::kNeedsConfirmation &&
        run_pairs(scenario, kInitialPairs + 1, kAllPairs, result)) {
      judge(result);
    }
  }
  if (scenario.counter != nullptr && result.error.empty()) count_rounds(scenario, result);
  if (result.error.empty() && result.verdict && result.verdict->kind == VerdictKind::kRegression) {
    observer_.scenario_updated(result);
    result.profile =
        profile_candidate(executor_, scenario.side(AbSide::kHead), out_dir_ / "profile",
                          scenario.name, out_dir_ / "logs" / scenario.name / "head-profile.log",
                          scenario.side(AbSide::kHead).timeout_s.value_or(kDefaultProfileLimitS));
  }
  result.finished = true;
  observer_.scenario_updated(result);
}

bool AbProtocol::run_pairs(const PlannedScenario& scenario, std::size_t first, std::size_t last,
                           AbScenarioResult& result) {
  for (std::size_t pair = first; pair <= last; ++pair) {
    // Odd pairs run base first, even pairs head first, so a drift of the machine over
    // time (warming up, throttling) does not always favour the same side.
    const AbSide leader = pair % 2 == 1 ? AbSide::kBase : AbSide::kHead;
    const AbSide follower = leader == AbSide::kBase ? AbSide::kHead : AbSide::kBase;
    if (!run_once(scenario, leader, pair, result) || !run_once(scenario, follower, pair, result)) {
      return false;
    }
  }
  return true;
}

bool AbProtocol::run_once(const PlannedScenario& scenario, AbSide side, std::size_t pair,
                          AbScenarioResult& result) {
  const std::string label = run_label(side, pair);
  const fs::path log_dir = out_dir_ / "logs" / scenario.name;
  const fs::path output_dir = out_dir_ / "runs" / scenario.name / label;
  make_folder(log_dir);
  make_folder(output_dir);

  ProcessSpec spec = scenario.side(side);
  const bool derived_limit = !spec.timeout_s;
  if (derived_limit) spec.timeout_s = result.timeout_s;
  spec.log_path = log_dir / (label + ".log");
  spec.env["PERFGATE_AB_OUTPUT_DIR"] = output_dir.string();
  spec.kill_escapees = true;
  const ProcessResult outcome = executor_.run(spec);
  if (outcome.outcome == ProcessOutcome::kInterrupted) throw AbInterrupted{outcome.signal};
  note_escapees(outcome, label, result);
  // The slowest warmup so far sets every later run's limit; one that ran out of time or
  // failed ends the scenario anyway, and would only state a meaningless limit.
  if (derived_limit && pair == 0 && outcome.outcome == ProcessOutcome::kExited) {
    double slowest = outcome.wall_s;
    for (const auto& run : result.runs) {
      if (run.warmup()) slowest = std::max(slowest, run.duration_s);
    }
    result.timeout_s = default_run_limit_s(slowest);
  }
  const bool via_shell = runs_under_shell(spec.argv);

  AbRunSample sample;
  sample.side = side;
  sample.pair = pair;
  sample.sequence = result.runs.size() + 1;
  sample.duration_s = outcome.wall_s;
  sample.cpu_s = outcome.cpu_s();
  sample.rss_bytes = outcome.peak_rss_mb * 1024.0 * 1024.0;
  sample.outcome = outcome.reason();
  sample.log_path = spec.log_path->string();
  sample.failed_checks =
      failed_run_checks(outcome, read_output(*spec.log_path),
                        {scenario.expect_exit, scenario.expect_output, via_shell});

  check_outputs(scenario, side, label, output_dir, sample.failed_checks, result);

  if (!sample.failed_checks.empty()) {
    // A confirmation pair's failure is its own reason, apart from why pairs 4 and 5 ran.
    const std::string which =
        pair == 0 ? fmt::format("the {} warmup run", side_name(side))
        : pair > kInitialPairs && scenario.rules.method == AbMethod::kPairs
            ? fmt::format("the {} run of confirmation pair {}", side_name(side), pair)
            : fmt::format("the {} run of pair {}", side_name(side), pair);
    result.error = fmt::format("{} is invalid evidence: {} (log: {})", which,
                               fmt::join(sample.failed_checks, "; "), sample.log_path);
  }
  result.runs.push_back(std::move(sample));
  observer_.run_finished(result, result.runs.back());
  return result.error.empty();
}

void AbProtocol::check_outputs(const PlannedScenario& scenario, AbSide side,
                               const std::string& label, const fs::path& output_dir,
                               std::vector<std::string>& failed_checks, AbScenarioResult& result) {
  const fs::path log_dir = out_dir_ / "logs" / scenario.name;
  if (const auto& validator = scenario.validator[static_cast<std::size_t>(side)];
      validator && failed_checks.empty()) {
    ProcessSpec check = *validator;
    check.env["PERFGATE_AB_OUTPUT_DIR"] = output_dir.string();
    check.log_path = log_dir / (label + ".validator.log");
    if (!check.timeout_s) check.timeout_s = result.timeout_s;
    const ProcessResult verdict = executor_.run(check);
    if (verdict.outcome == ProcessOutcome::kInterrupted) throw AbInterrupted{verdict.signal};
    if (!verdict.succeeded()) {
      const bool validator_via_shell = runs_under_shell(check.argv);
      failed_checks.push_back(
          fmt::format("validator failed: {} (see {})",
                      validator_via_shell ? verdict.reason_under_shell() : verdict.reason(),
                      check.log_path->string()));
    }
  }
  for (std::size_t i = 0; i < scenario.fixtures.size(); ++i) {
    if (hash_or_missing(scenario.fixtures[i]) != fixture_hashes_[i]) {
      failed_checks.push_back(
          fmt::format("fixture {} changed during the run", scenario.fixtures[i].string()));
    }
  }
}

void AbProtocol::count_rounds(const PlannedScenario& scenario, AbScenarioResult& result) {
  AbCounts& counts = result.counts.emplace();
  counts.backend = scenario.counter->name();
  counts.counter = scenario.counter->recipe();
  counts.budget = scenario.instruction_budget;
  // A deterministic program decides in two rounds; one whose counts vary gets rounds as
  // --method stat gets pairs, up to the same limit.
  const std::size_t max_rounds = std::max(kCountRounds, scenario.rules.max_pairs);
  for (std::size_t round = 1; round <= max_rounds; ++round) {
    const AbSide leader = round % 2 == 1 ? AbSide::kBase : AbSide::kHead;
    const AbSide follower = leader == AbSide::kBase ? AbSide::kHead : AbSide::kBase;
    if (!count_once(scenario, leader, round, result) ||
        !count_once(scenario, follower, round, result)) {
      return;
    }
    counts.verdict =
        judge_counts(counts.instructions(AbSide::kBase), counts.instructions(AbSide::kHead),
                     counts.budget, scenario.rules.alpha, round == max_rounds);
    observer_.scenario_updated(result);
    if (counts.verdict->kind != VerdictKind::kNeedsConfirmation) break;
  }
  // The scenario's verdict: the counts' alone, or the worse of the times' and the counts'.
  const CountVerdict& counted = *counts.verdict;
  std::vector<std::string> reasons;
  for (const auto& reason : counted.reasons) reasons.push_back("instructions: " + reason);
  if (!result.verdict) {
    result.verdict = PairedVerdict{counted.kind, {}, reasons};
    return;
  }
  const auto rank = [](VerdictKind kind) {
    return kind == VerdictKind::kRegression ? 2 : kind == VerdictKind::kPass ? 0 : 1;
  };
  if (rank(counted.kind) > rank(result.verdict->kind)) result.verdict->kind = counted.kind;
  result.verdict->reasons.insert(result.verdict->reasons.end(), reasons.begin(), reasons.end());
}

bool AbProtocol::count_once(const PlannedScenario& scenario, AbSide side, std::size_t round,
                            AbScenarioResult& result) {
  const std::string label = fmt::format("{}-count-{}", side_name(side), round);
  const fs::path log_dir = out_dir_ / "logs" / scenario.name;
  const fs::path output_dir = out_dir_ / "runs" / scenario.name / label;
  const fs::path counts_dir = out_dir_ / "counts" / scenario.name / label;
  make_folder(log_dir);
  make_folder(output_dir);
  make_folder(counts_dir);

  ProcessSpec spec = scenario.side(side);
  const bool via_shell = runs_under_shell(spec.argv);
  spec.argv = scenario.counter->wrap(spec.argv, counts_dir);
  // A counted run may take the backend's allowance times a timed run's limit (Valgrind is
  // many times slower); with no limit set or derived (counts alone: no warmups), none.
  if (!spec.timeout_s) spec.timeout_s = result.timeout_s;
  if (spec.timeout_s) *spec.timeout_s *= scenario.counter->slowdown_allowance();
  spec.log_path = log_dir / (label + ".log");
  spec.env["PERFGATE_AB_OUTPUT_DIR"] = output_dir.string();
  spec.env["PERFGATE_COUNTED_RUN"] = "1";
  for (const auto& [name, value] : scenario.counter->environment()) spec.env[name] = value;
  spec.kill_escapees = true;
  const ProcessResult outcome = executor_.run(spec);
  if (outcome.outcome == ProcessOutcome::kInterrupted) throw AbInterrupted{outcome.signal};
  note_escapees(outcome, label, result);

  AbCountRun run;
  run.side = side;
  run.round = round;
  run.outcome = outcome.reason();
  run.log_path = spec.log_path->string();
  std::vector<std::string> failed_checks =
      failed_run_checks(outcome, read_output(*spec.log_path),
                        {scenario.expect_exit, scenario.expect_output, via_shell});
  check_outputs(scenario, side, label, output_dir, failed_checks, result);
  if (failed_checks.empty()) {
    try {
      // The program's whole counts: ab judges the run, not its regions.
      run.counts = scenario.counter->collect(counts_dir).counts;
    } catch (const Error& error) {
      failed_checks.push_back(error.what());
    }
  }
  if (!failed_checks.empty()) {
    result.error =
        fmt::format("the {} counted run of round {} is invalid evidence: {} (log: {})",
                    side_name(side), round, fmt::join(failed_checks, "; "), run.log_path);
  }
  result.counts->runs.push_back(std::move(run));
  observer_.count_run_finished(result, result.counts->runs.back());
  return result.error.empty();
}

void AbProtocol::judge(AbScenarioResult& result) {
  result.verdict = judge_pairs(result.measured(), result.rules);
  observer_.scenario_updated(result);
}

}  // namespace perfgate
