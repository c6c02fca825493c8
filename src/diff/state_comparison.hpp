#pragma once
// The decision of `perfgate diff` for one pair of matched states (seed 002): SAME, FAST,
// SLOW, AMBG or ????, always with a reason. Pure functions over summaries and samples;
// reading files and matching states happen elsewhere.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "diff/diff_config.hpp"
#include "ingest/result_file.hpp"

namespace perfgate::diff {

enum class DiffStatus { kSame, kFast, kSlow, kAmbiguous, kUnknown };

/// "SAME", "FAST", "SLOW", "AMBG", "????".
std::string_view to_string(DiffStatus status);

/// Why a state got its status. `code` is a stable snake_case identifier (e.g.
/// "clear_gap_confirmed_by_bulk_cycles", "no_clear_gap", "missing_clock_rate",
/// "noise_too_high", "state_skipped", "only_in_reference"); `message` says it in words
/// with the numbers that decided it. `severity` orders reasons of the same code when a
/// summary shows one example (larger = further from the threshold).
struct DiffReason {
  std::string code;
  std::string message;
  double severity = 0;
};

/// The short code tables show for a reason ("bc-gap", "no-gap", ...); the code itself for
/// codes without a short form.
std::string_view short_reason_code(std::string_view code);

struct TimingInterval {
  double lower = 0;
  double upper = 0;
};

/// How one side's timing is estimated.
struct SideEstimate {
  double center = 0;                       ///< median (robust) or mean (classical)
  std::optional<double> noise;             ///< relative dispersion; nullopt when unavailable
  std::optional<TimingInterval> interval;  ///< nullopt when the summaries cannot form one
};

/// Where the evidence of the decision came from.
enum class Evidence {
  kNone,
  kSummaries,     ///< summary statistics only
  kBulkTimes,     ///< sample times, no clock
  kBulkCycles,    ///< sample times and frequencies (cycles)
  kSummaryClock,  ///< summaries confirmed with the mean clock rate
};
std::string_view to_string(Evidence evidence);

/// Coverage figures of the bulk SAME test (fractions, both directions), for explain.
struct CoverageFigures {
  double sample_ref_in_cmp = 0;
  double sample_cmp_in_ref = 0;
  double support_ref_in_cmp = 0;
  double support_cmp_in_ref = 0;
};

struct StateComparison {
  DiffStatus status = DiffStatus::kUnknown;
  DiffReason reason;
  bool robust = false;  ///< robust summaries (median, IQR, [min, q3]) were used on both sides
  std::optional<SideEstimate> reference;
  std::optional<SideEstimate> compare;
  std::optional<double> difference;           ///< cmp.center - ref.center, seconds
  std::optional<double> relative_difference;  ///< difference / ref.center
  Evidence evidence = Evidence::kNone;
  std::optional<CoverageFigures> time_coverage;
  std::optional<CoverageFigures> cycle_coverage;
  /// True when the format has no clock, so a clear gap decided FAST/SLOW on its own; the
  /// explain display says so.
  bool decided_without_clock = false;
  /// For formats without a clock (Google Benchmark repetitions, hyperfine, pyperf), when
  /// both sides hold at least two samples: the two-sided Mann-Whitney U test of the
  /// samples, shown beside the verdict as Google Benchmark's compare.py shows it. It
  /// informs; the decision tree alone sets the status.
  struct UTest {
    double p_value = 1;
    double u = 0;
    bool exact = false;
    std::size_t reference_count = 0;
    std::size_t compare_count = 0;
  };
  std::optional<UTest> u_test;
};

/// Loads bulk samples only when the decision needs them: the comparator calls it at most
/// once per side. Returning nullopt means unavailable (the reason goes to warnings).
struct LazySamples {
  virtual ~LazySamples() = default;
  virtual std::optional<std::span<const double>> times() = 0;
  virtual std::optional<std::span<const double>> frequencies() = 0;
};

/// Decides one matched pair. `format_has_clock` is false for formats that carry no clock
/// at all (a clear gap then decides FAST/SLOW alone). `ref_samples`/`cmp_samples` may be
/// null (no samples of any kind).
StateComparison compare_states(const ingest::TimingSummary& reference,
                               const ingest::TimingSummary& compare, LazySamples* ref_samples,
                               LazySamples* cmp_samples, bool format_has_clock,
                               const DiffThresholds& thresholds);

/// A state present on one side only, skipped, or without usable summaries: ????.
StateComparison unknown_state(DiffReason reason);

}  // namespace perfgate::diff
