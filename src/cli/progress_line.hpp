#pragma once
// A one-line progress bar on standard error, redrawn in place, only on a terminal.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "measure/benchmark_runner.hpp"

namespace perfgate {

class ProgressLine final : public RunObserver {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  /// The line is redrawn at most this often: a run of a millisecond would otherwise cost a
  /// write to the terminal, and the terminal's drawing, each.
  static constexpr std::chrono::milliseconds kRedrawEvery{100};

  /// `total_runs`: warmups, measured and counted runs of every state that will run.
  ProgressLine(std::FILE* stream, int total_runs, bool enabled,
               Clock clock = std::chrono::steady_clock::now);
  ~ProgressLine() override;

  void run_started(const BenchmarkState& state, int run_index, int total_runs,
                   bool warmup) override;
  void counted_run_started(const BenchmarkState& state, int index, int total) override;
  /// Erases the line so that other output starts on a clean line.
  void clear();

 private:
  std::FILE* stream_;
  int total_runs_;
  int started_ = 0;
  bool enabled_;
  bool drawn_ = false;
  Clock clock_;
  std::chrono::steady_clock::time_point last_drawn_{};

  /// Counts a run; true when the line is due to be redrawn for it.
  bool count_and_due();
  void draw(const std::string& name, const std::string& run);
};

}  // namespace perfgate
