// The clear-gap half of the decision tree (seed 002 steps 1 and 2): a gap between the
// timing intervals decides FAST/SLOW only once it holds in cycle space, from bulk cycles
// when every sample file is there, else from the mean clock rates. Formats without any
// clock decide on the timing gap alone.
#include "diff/clear_gap.hpp"
#include "diff/cycle_confirmation.hpp"
#include "diff/decision_context.hpp"

namespace perfgate::diff {
namespace {

std::string direction(DiffStatus status) {
  return status == DiffStatus::kFast ? "below" : "above";
}

std::string gap_text(double gap) {
  return gap > 0 ? percent(gap) + " apart" : "overlapping";
}

bool present(const std::optional<std::span<const double>>& samples) {
  return samples && !samples->empty();
}

/// nullopt when a side lacks sample times or frequencies: the summaries confirm instead.
std::optional<Outcome> confirm_with_bulk_cycles(Decision& d, DiffStatus status, double gap) {
  const auto ref_times = d.ref_samples.times();
  if (!present(ref_times)) return std::nullopt;
  const auto ref_frequencies = d.ref_samples.frequencies();
  if (!present(ref_frequencies)) return std::nullopt;
  const auto cmp_times = d.cmp_samples.times();
  if (!present(cmp_times)) return std::nullopt;
  const auto cmp_frequencies = d.cmp_samples.frequencies();
  if (!present(cmp_frequencies)) return std::nullopt;

  const auto ref_cycles = bulk_cycles(*ref_times, *ref_frequencies);
  const auto cmp_cycles = bulk_cycles(*cmp_times, *cmp_frequencies);
  if (!ref_cycles || !cmp_cycles) {
    return ambiguous("bulk_cycle_data_unusable",
                     "the " + sides(!ref_cycles, !cmp_cycles) +
                         " sample times and frequencies differ in count or hold a zero, "
                         "negative or non-finite value, so the timing gap of " +
                         percent(gap) + " cannot be checked in cycles");
  }
  const CenteredInterval ref_interval = sample_interval(*ref_cycles);
  const CenteredInterval cmp_interval = sample_interval(*cmp_cycles);
  const double cycle_gap = relative_gap(ref_interval, cmp_interval);
  const std::string figures = fmt::format(
      "bulk cycle intervals {} and {} are {} (needs {})", interval_text(ref_interval),
      interval_text(cmp_interval), gap_text(cycle_gap), percent(d.thresholds.clear_gap_relative));
  if (clear_gap(ref_interval, cmp_interval, d.thresholds.clear_gap_relative) == status) {
    return Outcome{status,
                   {"clear_gap_confirmed_by_bulk_cycles",
                    "the timing gap of " + percent(gap) + " holds in cycles: " + figures, 0}};
  }
  return ambiguous("bulk_cycle_gap_not_confirmed",
                   "the timing gap of " + percent(gap) + " does not hold in cycles: " + figures);
}

Outcome confirm_with_summary_clock(const Decision& d, DiffStatus status, double gap) {
  const std::optional<double>& ref_clock = d.reference.clock_rate_mean;
  const std::optional<double>& cmp_clock = d.compare.clock_rate_mean;
  if (!ref_clock || !cmp_clock) {
    return ambiguous("missing_clock_rate",
                     "the timing gap of " + percent(gap) + " cannot be checked in cycles: the " +
                         sides(!ref_clock, !cmp_clock) +
                         " side has no mean clock rate, and bulk sample frequencies are not "
                         "available on both sides");
  }
  const auto ref_cycles = summary_cycles(*d.estimates.reference.interval, *ref_clock);
  const auto cmp_cycles = summary_cycles(*d.estimates.compare.interval, *cmp_clock);
  if (!ref_cycles || !cmp_cycles) {
    return ambiguous(
        "invalid_clock_rate",
        fmt::format("the mean clock rate of the {} side ({:.6g} Hz and {:.6g} Hz "
                    "given) is not a positive finite rate, so the timing gap of {} "
                    "cannot be checked in cycles",
                    sides(!ref_cycles, !cmp_cycles), *ref_clock, *cmp_clock, percent(gap)));
  }
  const double cycle_gap = relative_gap(*ref_cycles, *cmp_cycles);
  const std::string figures =
      fmt::format("intervals × mean clock rate are {} (needs {})", gap_text(cycle_gap),
                  percent(d.thresholds.clear_gap_relative));
  if (clear_gap(*ref_cycles, *cmp_cycles, d.thresholds.clear_gap_relative) == status) {
    return {status,
            {"clear_gap_confirmed_by_summary_cycles",
             "the timing gap of " + percent(gap) + " holds in cycles: " + figures, 0}};
  }
  return ambiguous("summary_cycle_gap_not_confirmed",
                   "the timing gap of " + percent(gap) + " does not hold in cycles: " + figures);
}

}  // namespace

std::optional<Outcome> decide_clear_gap(Decision& d) {
  if (!d.estimates.has_intervals()) return std::nullopt;
  const CenteredInterval& ref = *d.estimates.reference.interval;
  const CenteredInterval& cmp = *d.estimates.compare.interval;
  const std::optional<DiffStatus> status = clear_gap(ref, cmp, d.thresholds.clear_gap_relative);
  if (!status) return std::nullopt;
  const double gap = relative_gap(ref, cmp);

  if (!d.format_has_clock) {
    d.result.decided_without_clock = true;
    return Outcome{*status,
                   {"clear_gap_without_clock",
                    fmt::format("compare interval {} lies {} {} reference interval {} "
                                "(needs {}); the format has no clock, so the timing gap alone "
                                "decides",
                                interval_text(cmp), percent(gap), direction(*status),
                                interval_text(ref), percent(d.thresholds.clear_gap_relative)),
                    0}};
  }
  if (std::optional<Outcome> bulk = confirm_with_bulk_cycles(d, *status, gap)) return bulk;
  return confirm_with_summary_clock(d, *status, gap);
}

}  // namespace perfgate::diff
