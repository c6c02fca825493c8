#pragma once
// What the two halves of the decision tree (clear gap, SAME) share: the state being
// decided, its samples loaded at most once per side, and the outcome type.
#include <fmt/format.h>

#include <optional>
#include <span>
#include <string>
#include <utility>

#include "diff/side_estimate.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {

/// A side's LazySamples, asked at most once per accessor however often the tree looks.
class SideSamples {
 public:
  explicit SideSamples(LazySamples* source) : source_(source) {}

  std::optional<std::span<const double>> times() {
    if (!times_) times_ = source_ != nullptr ? source_->times() : std::nullopt;
    return *times_;
  }
  std::optional<std::span<const double>> frequencies() {
    if (!frequencies_) frequencies_ = source_ != nullptr ? source_->frequencies() : std::nullopt;
    return *frequencies_;
  }

 private:
  LazySamples* source_;
  std::optional<std::optional<std::span<const double>>> times_;
  std::optional<std::optional<std::span<const double>>> frequencies_;
};

struct Outcome {
  DiffStatus status = DiffStatus::kAmbiguous;
  DiffReason reason;
};

inline Outcome ambiguous(std::string code, std::string message, double severity = 0) {
  return {DiffStatus::kAmbiguous, {std::move(code), std::move(message), severity}};
}

/// One matched pair while it is being decided. The tree records coverage figures and
/// decided_without_clock in `result`; compare_states fills in the rest.
struct Decision {
  const ingest::TimingSummary& reference;
  const ingest::TimingSummary& compare;
  const TimingEstimates& estimates;
  SideSamples ref_samples;
  SideSamples cmp_samples;
  bool format_has_clock = false;
  const DiffThresholds& thresholds;
  StateComparison& result;
};

/// FAST/SLOW or AMBG when the intervals have a clear gap; nullopt when there is no gap or
/// no intervals, and the SAME tests decide.
std::optional<Outcome> decide_clear_gap(Decision& decision);

/// SAME, or AMBG with the test that failed.
Outcome decide_same(Decision& decision);

// Numbers in reason messages.
inline std::string percent(double fraction) {
  return fmt::format("{:.2f}%", fraction * 100);
}
inline std::string interval_text(const CenteredInterval& interval) {
  return fmt::format("[{:.4g}, {:.4g}]", interval.lower, interval.upper);
}
/// "reference", "compare" or "reference and compare": the sides a problem was found on.
inline std::string sides(bool reference_bad, bool compare_bad) {
  if (reference_bad && compare_bad) return "reference and compare";
  return reference_bad ? "reference" : "compare";
}

}  // namespace perfgate::diff
