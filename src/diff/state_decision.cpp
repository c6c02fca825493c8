// compare_states: from two timing summaries to SAME, FAST, SLOW, AMBG or ???? (seed 002).
// States without usable centers are not compared; the others go through the clear-gap
// tests and, without a gap, the SAME tests. The outcome always carries a reason.
#include <cmath>

#include "diff/decision_context.hpp"
#include "diff/reason_codes.hpp"
#include "diff/side_estimate.hpp"

namespace perfgate::diff {
namespace {

bool has_timing(const ingest::TimingSummary& s) {
  return s.min || s.max || s.mean || s.stdev_absolute || s.stdev_relative || s.q1 || s.median ||
         s.q3 || s.iqr_absolute || s.iqr_relative;
}

std::optional<DiffReason> unusable_centers(const SideTiming& ref, const SideTiming& cmp) {
  if (!ref.center || !cmp.center) {
    return DiffReason{"timing_center_missing",
                      "the " + sides(!ref.center, !cmp.center) + " side has no timing center", 0};
  }
  const bool ref_finite = std::isfinite(*ref.center);
  const bool cmp_finite = std::isfinite(*cmp.center);
  if (!ref_finite || !cmp_finite) {
    return DiffReason{"timing_center_nonfinite",
                      fmt::format("the timing center of the {} side is not finite ({} and {})",
                                  sides(!ref_finite, !cmp_finite), *ref.center, *cmp.center),
                      0};
  }
  if (*ref.center <= 0 || *cmp.center <= 0) {
    return DiffReason{
        "timing_center_nonpositive",
        fmt::format("the timing center of the {} side is not positive ({} and {})",
                    sides(*ref.center <= 0, *cmp.center <= 0), *ref.center, *cmp.center),
        0};
  }
  return std::nullopt;
}

/// One sample on a side has no spread: its interval is a point, so any difference of the
/// centers beyond the clear gap would read as FAST or SLOW, and any equality as SAME,
/// with nothing to show the run-to-run noise. AMBG unless the user accepts that.
std::optional<DiffReason> single_sample(const ingest::TimingSummary& reference,
                                        const ingest::TimingSummary& compare,
                                        const DiffThresholds& thresholds) {
  if (thresholds.allow_single_sample) return std::nullopt;
  const bool ref_single = reference.sample_size == 1;
  const bool cmp_single = compare.sample_size == 1;
  if (!ref_single && !cmp_single) return std::nullopt;
  return DiffReason{"single_sample",
                    "1 sample: no spread on the " + sides(ref_single, cmp_single) +
                        " side; repeat the benchmark (e.g. --benchmark_repetitions=10) or pass "
                        "--allow-single-sample to decide on the centers alone",
                    0};
}

std::optional<SideEstimate> shown(const SideTiming& side) {
  if (!side.center) return std::nullopt;
  SideEstimate estimate{*side.center, side.noise, std::nullopt};
  if (side.interval) estimate.interval = TimingInterval{side.interval->lower, side.interval->upper};
  return estimate;
}

}  // namespace

StateComparison compare_states(const ingest::TimingSummary& reference,
                               const ingest::TimingSummary& compare, LazySamples* ref_samples,
                               LazySamples* cmp_samples, bool format_has_clock,
                               const DiffThresholds& thresholds) {
  const bool ref_has_timing = has_timing(reference);
  const bool cmp_has_timing = has_timing(compare);
  if (!ref_has_timing || !cmp_has_timing) {
    return unknown_state(
        {"timing_summaries_missing",
         "the " + sides(!ref_has_timing, !cmp_has_timing) + " side has no timing summaries", 0});
  }

  const TimingEstimates estimates = estimate_timings(reference, compare);
  StateComparison result;
  result.robust = estimates.robust;
  result.reference = shown(estimates.reference);
  result.compare = shown(estimates.compare);
  if (std::optional<DiffReason> unusable =
          unusable_centers(estimates.reference, estimates.compare)) {
    result.reason = *unusable;
    return result;
  }
  if (std::optional<DiffReason> single = single_sample(reference, compare, thresholds)) {
    result.status = DiffStatus::kAmbiguous;
    result.reason = *single;
    result.evidence = evidence_of(result.reason.code);
    return result;
  }
  const double ref_center = *estimates.reference.center;
  result.difference = *estimates.compare.center - ref_center;
  result.relative_difference = *result.difference / ref_center;

  Decision decision{
      reference,        compare,    estimates, SideSamples(ref_samples), SideSamples(cmp_samples),
      format_has_clock, thresholds, result};
  std::optional<Outcome> outcome = decide_clear_gap(decision);
  if (!outcome) outcome = decide_same(decision);
  result.status = outcome->status;
  result.reason = outcome->reason;
  result.evidence = evidence_of(result.reason.code);
  return result;
}

StateComparison unknown_state(DiffReason reason) {
  StateComparison result;
  result.status = DiffStatus::kUnknown;
  result.reason = std::move(reason);
  return result;
}

}  // namespace perfgate::diff
