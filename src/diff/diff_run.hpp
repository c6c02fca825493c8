#pragma once
// One whole `perfgate diff`: match the states of two result files and decide each pair.
// No printing; the displays render the outcome.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "diff/diff_config.hpp"
#include "diff/state_comparison.hpp"
#include "diff/state_matching.hpp"
#include "ingest/result_file.hpp"

namespace perfgate::diff {

/// A metric decided beside the primary timing, the same way.
enum class BesideMetric {
  /// CPU time, as Google Benchmark's compare.py shows it: only when both states carry a CPU
  /// time per repetition.
  kCpuTime,
  /// perfgate's instruction counts (counted runs, issue 36): when both states carry one.
  kInstructions,
};
inline constexpr BesideMetric kBesideMetrics[] = {BesideMetric::kCpuTime,
                                                  BesideMetric::kInstructions};
/// "cpu_time" or "instructions": the metric's name, and its key in the JSON.
std::string_view beside_name(BesideMetric metric);
/// "CPU time" or "Instructions": its heading.
std::string_view beside_title(BesideMetric metric);

struct DiffRow {
  MatchedState match;
  StateComparison comparison;
  std::optional<StateComparison> cpu;           ///< BesideMetric::kCpuTime
  std::optional<StateComparison> instructions;  ///< BesideMetric::kInstructions

  const std::optional<StateComparison>& beside(BesideMetric metric) const {
    return metric == BesideMetric::kCpuTime ? cpu : instructions;
  }
};

struct DiffSection {
  std::string benchmark;
  std::optional<ingest::ResultDevice> reference_device;
  std::optional<ingest::ResultDevice> compare_device;
  std::vector<std::string> axis_names;
  std::vector<DiffRow> rows;
};

/// How often a reason was given, with the message of its most severe example.
struct ReasonCount {
  std::size_t count = 0;
  std::string message;
  double severity = 0;
};

/// Matches are states found in both files; total counts them only, and the five
/// statuses add up to it. A state found in one file only is counted apart.
struct DiffCounts {
  std::size_t total = 0;
  std::size_t same = 0;
  std::size_t fast = 0;
  std::size_t slow = 0;
  std::size_t ambiguous = 0;
  std::size_t unknown = 0;            ///< matches that are ???? (skipped, unusable timing)
  std::size_t only_in_reference = 0;  ///< ???? rows: no partner in the compare file
  std::size_t only_in_compare = 0;    ///< ???? rows: no partner in the reference file
  /// The matches whose CPU time or instructions were compared too (DiffRow::cpu,
  /// DiffRow::instructions), by status.
  struct Beside {
    std::size_t total = 0, same = 0, fast = 0, slow = 0, ambiguous = 0, unknown = 0;
    void add(const Beside& other) {
      total += other.total;
      same += other.same;
      fast += other.fast;
      slow += other.slow;
      ambiguous += other.ambiguous;
      unknown += other.unknown;
    }
  };
  Beside cpu;
  Beside instructions;

  /// SLOW and AMBG decisions of the primary timing and of every metric beside it: what
  /// `--fail-on` counts, each as much as the timing itself.
  std::size_t slow_anywhere() const { return slow + cpu.slow + instructions.slow; }
  std::size_t ambiguous_anywhere() const {
    return ambiguous + cpu.ambiguous + instructions.ambiguous;
  }

  const Beside& beside(BesideMetric metric) const {
    return metric == BesideMetric::kCpuTime ? cpu : instructions;
  }
  Beside& beside(BesideMetric metric) {
    return metric == BesideMetric::kCpuTime ? cpu : instructions;
  }
  std::map<std::string, ReasonCount> ambiguous_reasons;  ///< by reason code
  std::map<std::string, ReasonCount> reasons;            ///< every reason, for the legend
};

struct DiffOutcome {
  std::vector<DiffSection> sections;
  DiffCounts counts;
  std::vector<std::string> warnings;  ///< device mismatches ignored, bulk files unreadable...
};

/// Told how many pairs are decided so far, out of how many; called from one thread, a few
/// hundred times at most over a whole diff.
using DiffProgress = std::function<void(std::size_t decided, std::size_t total)>;

/// One pair decided: the primary timing, and CPU time and instructions where both states
/// carry them.
struct DecidedPair {
  StateComparison timing;
  std::optional<StateComparison> cpu;
  std::optional<StateComparison> instructions;
};

/// Decides one pair (either side may be missing); a bulk file that cannot be read adds a
/// warning and the pair falls back to its summaries. Safe to call from several threads.
DecidedPair decide_pair(const MatchedState& match, bool has_clock, const DiffThresholds& thresholds,
                        std::vector<std::string>& warnings);

/// Pairs decided before run_diff, found by their two states (diff/early_decisions.hpp).
class EarlyDecisions;

/// Matches and decides. `reference` and `compare` must outlive the outcome (rows point at
/// their states). Errors as match_states; Error(kDataError) when the files cannot be
/// compared at all (a per-device format against a host-only one). A pair `early` decided
/// already, with the same clock and thresholds, is taken from it as it is.
DiffOutcome run_diff(const ingest::ResultFile& reference, const ingest::ResultFile& compare,
                     const MatchOptions& options, const DiffThresholds& thresholds,
                     const DiffProgress& progress = {}, const EarlyDecisions* early = nullptr);

}  // namespace perfgate::diff
