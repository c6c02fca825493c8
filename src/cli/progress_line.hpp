#pragma once
// A one-line progress bar on standard error, redrawn in place, only on a terminal.
#include <cstdio>
#include <string>

#include "measure/benchmark_runner.hpp"

namespace perfgate {

class ProgressLine final : public RunObserver {
 public:
  /// `total_runs`: warmups, measured and counted runs of every state that will run.
  ProgressLine(std::FILE* stream, int total_runs, bool enabled);
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

  void draw(const std::string& name, const std::string& run);
};

}  // namespace perfgate
