#pragma once
// An Executor for tests of the code above the executor: records what it was asked to run
// and answers from a script, without starting any process.
#include <deque>
#include <functional>
#include <vector>

#include "measure/executor.hpp"

namespace perfgate {

class FakeExecutor : public Executor {
 public:
  FakeExecutor() {
    default_result.outcome = ProcessOutcome::kExited;
    default_result.exit_code = 0;
    default_result.wall_s = 0.1;
    default_result.user_s = 0.05;
    default_result.system_s = 0.01;
    default_result.peak_rss_mb = 10;
  }

  /// Records the spec, calls on_run (e.g. to write a metrics file the way a benchmark
  /// would), then returns the front of `script`, or `default_result` once it is empty.
  ProcessResult run(const ProcessSpec& spec) override {
    calls.push_back(spec);
    if (on_run) on_run(spec);
    if (script.empty()) return default_result;
    ProcessResult result = script.front();
    script.pop_front();
    return result;
  }

  /// Records what the runner announced (the runs after the next one).
  void expect_after_next(const ProcessSpec& spec) override { announced.push_back(spec); }
  std::size_t runs_to_announce() const override { return to_announce; }

  std::vector<ProcessSpec> calls;
  std::vector<ProcessSpec> announced;
  std::deque<ProcessResult> script;
  ProcessResult default_result;
  std::size_t to_announce = 1;
  std::function<void(const ProcessSpec&)> on_run;
};

}  // namespace perfgate
