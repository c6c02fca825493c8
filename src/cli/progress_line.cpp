#include "cli/progress_line.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace perfgate {

ProgressLine::ProgressLine(std::FILE* stream, int total_runs, bool enabled, Clock clock)
    : stream_(stream), total_runs_(total_runs), enabled_(enabled), clock_(std::move(clock)) {}

ProgressLine::~ProgressLine() {
  clear();
}

void ProgressLine::run_started(const BenchmarkState& state, int run_index, int total_runs,
                               bool warmup) {
  if (!count_and_due()) return;
  const int warmups = state.config != nullptr ? state.config->run.num_warmup_runs : 0;
  draw(state.name, run_kind_label(warmup, run_index, warmups, total_runs - warmups));
}

void ProgressLine::counted_run_started(const BenchmarkState& state, int index, int total) {
  if (!count_and_due()) return;
  draw(state.name, fmt::format("counted run {} of {}", index + 1, total));
}

bool ProgressLine::count_and_due() {
  ++started_;
  if (!enabled_) return false;
  const auto now = clock_();
  if (drawn_ && now - last_drawn_ < kRedrawEvery) return false;
  last_drawn_ = now;
  return true;
}

void ProgressLine::draw(const std::string& name, const std::string& run) {
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
