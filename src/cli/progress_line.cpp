#include "cli/progress_line.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfgate {

ProgressLine::ProgressLine(std::FILE* stream, int total_runs, bool enabled)
    : stream_(stream), total_runs_(total_runs), enabled_(enabled) {}

ProgressLine::~ProgressLine() {
  clear();
}

void ProgressLine::run_started(const BenchmarkState& state, int run_index, int total_runs,
                               bool warmup) {
  const int warmups = state.config != nullptr ? state.config->run.num_warmup_runs : 0;
  draw(state.name, run_kind_label(warmup, run_index, warmups, total_runs - warmups));
}

void ProgressLine::counted_run_started(const BenchmarkState& state, int index, int total) {
  draw(state.name, fmt::format("counted run {} of {}", index + 1, total));
}

void ProgressLine::draw(const std::string& name, const std::string& run) {
  ++started_;
  if (!enabled_) return;
  constexpr int kWidth = 24;
  const int filled =
      total_runs_ > 0 ? std::min(started_ - 1, total_runs_) * kWidth / total_runs_ : 0;
  const std::string bar = std::string(static_cast<std::size_t>(filled), '#') +
                          std::string(static_cast<std::size_t>(kWidth - filled), '.');
  const std::string line = fmt::format("[{}] {}/{} {} · {}", bar, started_, total_runs_, name, run);
  std::fputs(("\r\x1b[K" + line).c_str(), stream_);
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stream_);
  std::fflush(stream_);
  drawn_ = false;
}

}  // namespace perfgate
