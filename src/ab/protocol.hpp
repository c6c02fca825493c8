#pragma once
// The paired A/B protocol of one scenario (SPEC §7): one excluded warmup per side, three
// measured pairs alternating which side runs first (pair 1 base first, pair 2 head first,
// ...), two confirmation pairs when the first three settle nothing, correctness checks on
// every run, and a profiled head run after a regression. Processes go through an Executor,
// so the protocol is tested with a fake one.
#include <filesystem>

#include "ab/ab_results.hpp"
#include "ab/scenario_plan.hpp"
#include "measure/executor.hpp"

namespace perfgate {

/// Told about progress, e.g. to print a line and checkpoint results.json.
class AbObserver {
 public:
  virtual ~AbObserver() = default;
  /// After every run (warmups included), with `sample` already in `scenario.runs`.
  virtual void run_finished(const AbScenarioResult& scenario, const AbRunSample& sample) = 0;
  /// After a verdict, an error or a profile was recorded.
  virtual void scenario_updated(const AbScenarioResult& scenario) = 0;
  /// After every counted run (--measure instructions), with `run` already in
  /// `scenario.counts->runs`.
  virtual void count_run_finished(const AbScenarioResult& scenario, const AbCountRun& run) {
    (void)run;
    scenario_updated(scenario);
  }
};

/// Time limit of the profiled run when the scenario sets no timeout_s.
inline constexpr double kDefaultProfileLimitS = 120;

/// Thrown by AbProtocol::run when perfgate was interrupted (measure/interruption.hpp)
/// during a run: the scenario is left unfinished, the run that was killed is not recorded.
struct AbInterrupted {
  int signal = 0;
};

class AbProtocol {
 public:
  /// Logs go to <out_dir>/logs/<scenario>/<side>-<n>.log (n: "warmup", 1..5), run output
  /// folders to <out_dir>/runs/<scenario>/<side>-<n>/, profiles to <out_dir>/profile/;
  /// all as absolute paths, since a run's working folder may be a checkout elsewhere.
  AbProtocol(Executor& executor, std::filesystem::path out_dir, AbObserver& observer);

  /// Runs `scenario`, filling `result` as it goes; result.finished is set at the end.
  /// A failed check stops the scenario with result.error set. Throws AbInterrupted when
  /// perfgate was interrupted, and Error(kIoError) for perfgate's own I/O.
  void run(const PlannedScenario& scenario, AbScenarioResult& result);

 private:
  /// One run of one side; false when it is not valid evidence (result.error is set).
  bool run_once(const PlannedScenario& scenario, AbSide side, std::size_t pair,
                AbScenarioResult& result);
  bool run_pairs(const PlannedScenario& scenario, std::size_t first, std::size_t last,
                 AbScenarioResult& result);
  void judge(AbScenarioResult& result);
  /// --measure instructions: counted rounds (base and head, the leader alternating) until
  /// judge_counts decides; the verdict joins the timed one (the worse wins).
  void count_rounds(const PlannedScenario& scenario, AbScenarioResult& result);
  bool count_once(const PlannedScenario& scenario, AbSide side, std::size_t round,
                  AbScenarioResult& result);
  /// The checks of a run that finished: the scenario's validator and its fixtures.
  void check_outputs(const PlannedScenario& scenario, AbSide side, const std::string& label,
                     const std::filesystem::path& output_dir,
                     std::vector<std::string>& failed_checks, AbScenarioResult& result);

  Executor& executor_;
  std::filesystem::path out_dir_;
  AbObserver& observer_;
  std::vector<std::string> fixture_hashes_;  ///< of the scenario running, taken at its start
};

}  // namespace perfgate
