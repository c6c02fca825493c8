#pragma once
// Everything `perfgate ab` measured and concluded, as values: the runs of every scenario,
// their verdicts, and the results.json form of it (docs/ab.md, "results.json").
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ab/count_verdict.hpp"
#include "ab/paired_verdict.hpp"
#include "ab/scenario_plan.hpp"
#include "model/json.hpp"

namespace perfgate {

inline constexpr int kAbResultsSchemaVersion = 1;

/// One run of one side. Warmups have pair 0 and are never judged.
struct AbRunSample {
  AbSide side = AbSide::kBase;
  std::size_t pair = 0;                    ///< 0 for the warmup, 1..5 for measured pairs
  std::size_t sequence = 0;                ///< 1-based position among the scenario's runs
  double duration_s = 0;                   ///< wall clock, spawn to reap
  double cpu_s = 0;                        ///< user + system CPU of the process tree
  double rss_bytes = 0;                    ///< sampled peak RSS of the process tree
  std::string outcome;                     ///< ProcessResult::reason(): "ok", "exit status 3", ...
  std::vector<std::string> failed_checks;  ///< empty when the run is valid evidence
  std::string log_path;

  bool warmup() const { return pair == 0; }
  double value(AbMetric metric) const;
};

/// The extra profiled run of a confirmed regression's head.
struct CandidateProfile {
  std::string tool;  ///< "perf" or "callgrind"; empty when no profile was taken
  std::string path;  ///< the profile file (callgrind: a pattern with the pid); empty if none
  std::string note;  ///< why no profile was taken, or how the profiled run ended
};

/// One counted run of one side (ab --measure instructions): never timed.
struct AbCountRun {
  AbSide side = AbSide::kBase;
  std::size_t round = 0;                 ///< 1-based
  std::map<std::string, double> counts;  ///< instructions, and what else the backend counts
  std::string outcome;                   ///< ProcessResult::reason()
  std::string log_path;
};

/// The counted rounds of a scenario and their verdict.
struct AbCounts {
  std::string backend;  ///< "valgrind" or "hardware"
  Json counter;         ///< CounterBackend::recipe(): how the counts were made
  Budget budget;
  std::vector<AbCountRun> runs;
  std::optional<CountVerdict> verdict;

  /// Each side's instruction counts, by round.
  std::vector<double> instructions(AbSide side) const;
};

enum class ScenarioStatus {
  kRunning,
  kPass,
  kRegression,
  kInconclusive,
  kError,
  kInterrupted,  ///< perfgate was interrupted while this scenario ran
  kNotRun,       ///< perfgate was interrupted before this scenario started
};

/// "RUNNING", "PASS", "REGRESSION", "INCONCLUSIVE", "ERROR", "INTERRUPTED", "NOT RUN".
std::string_view status_name(ScenarioStatus status);

struct AbScenarioResult {
  std::string name;
  VerdictRules rules;
  std::array<std::vector<std::string>, 2> argv;  ///< what each side ran, by AbSide
  std::vector<AbRunSample> runs;
  std::optional<PairedVerdict> verdict;  ///< the latest judgement (after 3 or 5 pairs)
  std::string error;                     ///< invalid evidence: why the scenario failed
  std::optional<CandidateProfile> profile;
  bool finished = false;
  bool interrupted = false;  ///< perfgate stopped before this scenario finished
  /// Each run's time limit; for a derived default, the latest one (absent before the
  /// warmups, when the base warmup runs without one).
  std::optional<double> timeout_s;
  std::string timeout_source;         ///< "--timeout", "timeout_s" or "default"
  std::vector<std::string> warnings;  ///< PlannedScenario::warnings
  /// --measure without time: no warmups and no timed pairs; the verdict is the counts'.
  bool timed = true;
  std::optional<AbCounts> counts;  ///< --measure instructions

  ScenarioStatus status() const;
  /// Whether any run of it started: a timed run finished, or its counted rounds began.
  bool started() const { return !runs.empty() || counts.has_value(); }
  /// The measured (non-warmup) samples, by metric and pair.
  PairedRuns measured() const;
};

/// Exit code of a set of scenario statuses: the worst wins (SPEC §3): ERROR or
/// REGRESSION 1, INCONCLUSIVE 2, PASS 0.
int ab_exit_code(const std::vector<ScenarioStatus>& statuses);

struct AbReport {
  Json machine;                      ///< hardware and software profile of this machine
  Json method;                       ///< protocol constants, sampler, mode and the sides' sources
  std::string scenario_file;         ///< path, empty without one
  std::string scenario_file_sha256;  ///< empty without one
  std::vector<AbScenarioResult> scenarios;
  bool complete = false;           ///< false until every scenario finished (checkpoints say false)
  int interrupted_signal = 0;      ///< the signal that stopped perfgate, or 0
  std::string interrupted_reason;  ///< "interrupted by SIGTERM during scenario sort-1m"
  /// Per side ("base", "head"): {"commit", "dirty"} of its checkout's git tree; a side
  /// whose folder is not in a git tree (or a command) is absent.
  Json git = Json::object();
  std::string scenario_file_copy;  ///< the copy in the output folder, relative to it

  int exit_code() const;
};

Json to_json(const AbReport& report);

}  // namespace perfgate
