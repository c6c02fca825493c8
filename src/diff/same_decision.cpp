// The SAME half of the decision tree (seed 002 steps 3 to 5). The summary tests (close
// centers, strong overlap) come first, as in nvbench-compare itself: nearest-neighbour
// coverage of distinct values alone can pass for two wide distributions whose centers are
// several percent apart, so it confirms SAME, it never overrules the centers. Bulk
// samples, when both sides have them, then decide by coverage in time and cycles; without
// samples the summaries decide, within the noise ceiling, confirmed in cycles when mean
// clock rates exist.
#include <algorithm>

#include "diff/cycle_confirmation.hpp"
#include "diff/decision_context.hpp"
#include "diff/sample_coverage.hpp"
#include "diff/summary_same.hpp"

namespace perfgate::diff {
namespace {

std::string coverage_text(const CoverageFigures& f, const DiffThresholds& t) {
  return fmt::format(
      "samples covered {} of reference, {} of compare (needs {}); distinct values {} and {} "
      "(needs {})",
      percent(f.sample_ref_in_cmp), percent(f.sample_cmp_in_ref), percent(t.bulk_sample_coverage),
      percent(f.support_ref_in_cmp), percent(f.support_cmp_in_ref),
      percent(t.bulk_support_coverage));
}

struct SameCodes {
  const char* without_clock;  ///< SAME when a mean clock rate is missing
  const char* with_clock;     ///< SAME confirmed by the mean clock rates
  const char* basis;          ///< what already showed SAME, for the messages
};

/// SAME that the timing already showed, checked again with the intervals × mean clock
/// rates when both sides have one.
Outcome confirm_same_with_summary_clock(const Decision& d, const SameCodes& codes) {
  const std::optional<double>& ref_clock = d.reference.clock_rate_mean;
  const std::optional<double>& cmp_clock = d.compare.clock_rate_mean;
  if (!ref_clock || !cmp_clock) {
    return {DiffStatus::kSame,
            {codes.without_clock,
             std::string(codes.basis) + "; the " + sides(!ref_clock, !cmp_clock) +
                 " side has no mean clock rate to check it in cycles",
             0}};
  }
  const auto ref_cycles = summary_cycles(*d.estimates.reference.interval, *ref_clock);
  const auto cmp_cycles = summary_cycles(*d.estimates.compare.interval, *cmp_clock);
  if (!ref_cycles || !cmp_cycles) {
    return ambiguous(
        "invalid_clock_rate",
        fmt::format("{}, but the mean clock rate of the {} side ({:.6g} Hz and "
                    "{:.6g} Hz given) is not a positive finite rate",
                    codes.basis, sides(!ref_cycles, !cmp_cycles), *ref_clock, *cmp_clock));
  }
  const double difference = center_difference(ref_cycles->center, cmp_cycles->center);
  const double overlap = overlap_fraction(*ref_cycles, *cmp_cycles);
  const std::string figures = fmt::format(
      "in cycles the centers differ by {} (needs <= {}) and the intervals overlap {} "
      "(needs >= {})",
      percent(difference), percent(d.thresholds.same_center_relative), percent(overlap),
      percent(d.thresholds.same_overlap_fraction));
  if (summary_same(*ref_cycles, *cmp_cycles, d.thresholds) == SummarySame::kSame) {
    return {DiffStatus::kSame, {codes.with_clock, std::string(codes.basis) + "; " + figures, 0}};
  }
  return ambiguous("cycle_same_not_confirmed", std::string(codes.basis) + ", but " + figures);
}

/// nullopt when a side has no sample times: the summaries decide instead.
std::optional<Outcome> bulk_same(Decision& d) {
  const auto ref_times = d.ref_samples.times();
  if (!ref_times) return std::nullopt;
  const auto cmp_times = d.cmp_samples.times();
  if (!cmp_times) return std::nullopt;
  const bool ref_usable = usable_samples(*ref_times);
  const bool cmp_usable = usable_samples(*cmp_times);
  if (!ref_usable || !cmp_usable) {
    return ambiguous("bulk_time_data_unusable",
                     "the " + sides(!ref_usable, !cmp_usable) +
                         " sample times are empty or hold a zero, negative or non-finite value");
  }
  const CoverageFigures times = sample_coverage(*ref_times, *cmp_times, d.thresholds);
  d.result.time_coverage = times;
  if (!coverage_supports_same(times, d.thresholds)) {
    return ambiguous("bulk_time_support_mismatch",
                     "sample times do not cover each other: " + coverage_text(times, d.thresholds),
                     coverage_shortfall(times, d.thresholds));
  }
  if (!d.format_has_clock) {
    return Outcome{DiffStatus::kSame,
                   {"bulk_time_same",
                    "sample times cover each other: " + coverage_text(times, d.thresholds), 0}};
  }

  const auto ref_frequencies = d.ref_samples.frequencies();
  const auto cmp_frequencies = ref_frequencies ? d.cmp_samples.frequencies() : std::nullopt;
  if (!ref_frequencies || !cmp_frequencies) {
    return confirm_same_with_summary_clock(
        d, {"bulk_time_same_without_cycles", "bulk_time_same_confirmed_by_summary_cycles",
            "sample times cover each other but sample frequencies are missing"});
  }
  const auto ref_cycles = bulk_cycles(*ref_times, *ref_frequencies);
  const auto cmp_cycles = bulk_cycles(*cmp_times, *cmp_frequencies);
  if (!ref_cycles || !cmp_cycles) {
    return ambiguous("bulk_cycle_data_unusable",
                     "the " + sides(!ref_cycles, !cmp_cycles) +
                         " sample times and frequencies differ in count or hold a zero, "
                         "negative or non-finite value");
  }
  const CoverageFigures cycles = sample_coverage(*ref_cycles, *cmp_cycles, d.thresholds);
  d.result.cycle_coverage = cycles;
  if (!coverage_supports_same(cycles, d.thresholds)) {
    return ambiguous(
        "bulk_cycle_support_mismatch",
        "sample times cover each other but cycles do not: " + coverage_text(cycles, d.thresholds),
        coverage_shortfall(cycles, d.thresholds));
  }
  return Outcome{
      DiffStatus::kSame,
      {"bulk_same",
       "sample times and cycles cover each other; cycles: " + coverage_text(cycles, d.thresholds),
       0}};
}

}  // namespace

Outcome decide_same(Decision& d) {
  const SideTiming& ref = d.estimates.reference;
  const SideTiming& cmp = d.estimates.compare;
  const DiffThresholds& t = d.thresholds;
  const bool ref_noise_usable = usable_noise(ref.noise);
  const bool cmp_noise_usable = usable_noise(cmp.noise);
  if (!ref_noise_usable || !cmp_noise_usable) {
    return ambiguous("noise_unavailable", "the relative dispersion of the " +
                                              sides(!ref_noise_usable, !cmp_noise_usable) +
                                              " side is missing, negative or non-finite");
  }
  if (!d.estimates.has_intervals()) {
    return ambiguous("missing_interval",
                     "no timing interval can be formed for the " +
                         sides(!ref.interval, !cmp.interval) +
                         " side (robust needs min <= q1 <= median <= q3 on both sides, "
                         "classical a mean and stdev on both sides)");
  }
  const double difference = center_difference(ref.interval->center, cmp.interval->center);
  const double overlap = overlap_fraction(*ref.interval, *cmp.interval);
  switch (summary_same(*ref.interval, *cmp.interval, t)) {
    case SummarySame::kCentersNotClose:
      return ambiguous("centers_not_close",
                       "the intervals have no clear gap, but the centers differ by " +
                           percent(difference) +
                           " (SAME needs <= " + percent(t.same_center_relative) + ")",
                       difference - t.same_center_relative);
    case SummarySame::kWeakOverlap:
      return ambiguous(
          "weak_interval_overlap",
          "the intervals overlap " + percent(overlap) +
              " of the narrower one (SAME needs >= " + percent(t.same_overlap_fraction) + ")",
          t.same_overlap_fraction - overlap);
    case SummarySame::kSame:
      break;
  }

  std::optional<Outcome> bulk = bulk_same(d);
  const double noise = std::max(*ref.noise, *cmp.noise);
  if (noise > t.same_relative_dispersion_ceiling) {
    if (bulk) return *bulk;
    return ambiguous("noise_too_high",
                     "the centers and intervals agree, but the relative dispersion " +
                         percent(noise) + " is above the ceiling of " +
                         percent(t.same_relative_dispersion_ceiling) +
                         " and no sample times can show SAME",
                     noise - t.same_relative_dispersion_ceiling);
  }
  if (bulk) return *bulk;

  const std::string basis = fmt::format(
      "the centers differ by {} (<= {}), the intervals overlap {} (>= {}) and the relative "
      "dispersion is {} (<= {})",
      percent(difference), percent(t.same_center_relative), percent(overlap),
      percent(t.same_overlap_fraction), percent(noise),
      percent(t.same_relative_dispersion_ceiling));
  if (!d.format_has_clock) return {DiffStatus::kSame, {"same_summary", basis, 0}};
  return confirm_same_with_summary_clock(
      d, {"same_without_clock_rate", "same_confirmed_by_cycles", basis.c_str()});
}

}  // namespace perfgate::diff
