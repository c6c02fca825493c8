#pragma once
// Regression flags of a compatibility series (seed 003): diagnostic marks on the points
// whose median rose markedly over the previous point's. A heuristic, not a confidence
// interval, and never a merge gate. Pure function: values in, values out.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "config/history_config.hpp"

namespace perfgate::history {

/// One point of a series: a commit's median and MAD of one metric, in the series' unit.
struct SeriesPoint {
  double median = 0;
  double mad = 0;
};

/// Whether each point is flagged, in the order given (the series' commit order). Point i > 0
/// is flagged when its rise d = median[i] - median[i-1] is, all three at once:
/// - more than rule.percent of the previous median (compared as d * 100 > percent *
///   median[i-1], so a rise of exactly 10% is not flagged);
/// - more than rule.absolute_ms, converted to `unit` ("s": / 1000, "ms": as is,
///   "us" or "µs": * 1000, "ns": * 1e6);
/// - more than rule.mad_factor * (mad[i] + mad[i-1]).
/// All three comparisons are strict. Point 0 is never flagged. The rule is for timings and
/// for counts of work (unit "instructions" or "cycles", issue 36), which have no absolute
/// part; with any other unit (bytes, misses, ""), no point is flagged.
std::vector<bool> regression_flags(const std::vector<SeriesPoint>& points,
                                   const RegressionFlagRule& rule, const std::string& unit);

/// Whether `point` is flagged against `previous` by that rule.
bool rises_markedly(const SeriesPoint& previous, const SeriesPoint& point,
                    const RegressionFlagRule& rule, const std::string& unit);

/// The fewest rounds a pair of commits needs for paired_rise(): with five, the smallest of
/// their ratios is the median's lower bound (below), and with fewer there is none.
inline constexpr std::size_t kMinPairedRounds = 5;

/// Two commits' runs of one metric measured in alternation (`history measure`, one batch:
/// run k of each in round k), compared round by round.
struct PairedRise {
  std::size_t rounds = 0;  ///< rounds compared
  double change = 0;       ///< the median of the rounds' ratios, less 1 (0.4: 40% higher)
  double lower = 0;        ///< the median ratio's one-sided 95% lower bound, less 1
  double lower_rise = 0;   ///< the same bound of the rounds' differences, in their unit
  bool rises = false;      ///< the bounds are above the rule's two limits (below)
};

/// The rise of `current`'s runs over `previous`'s, paired by round; nullopt when they cannot
/// be paired: counts that differ or are under kMinPairedRounds, a value that is not positive
/// or not finite, or a unit the rule does not flag. The rounds' ratios current / previous
/// are sorted, and the median ratio's lower bound is the k-th smallest, k the largest with
/// P(Binomial(rounds, 1/2) < k) <= 5%: the sign test's distribution-free bound (Conover,
/// *Practical Nonparametric Statistics*, 3rd ed., 1999, §3.2), which needs no normal runs and
/// no symmetry, and which a few outlying rounds do not move (the 4th smallest of 15 rounds,
/// the smallest of 5); the rounds' differences current - previous get the same bound.
/// `rises` when the ratios' bound is above 1 + rule.percent / 100 and the differences'
/// above the absolute limit, both strict as in rises_markedly. A moment that slows both
/// commits' runs of a round alike (a load that comes and goes, a busy sibling core) moves
/// their ratio little, while it widens each commit's MAD: so a pair measured together shows
/// a rise that the points' MADs drown.
std::optional<PairedRise> paired_rise(const std::vector<double>& previous,
                                      const std::vector<double>& current,
                                      const RegressionFlagRule& rule, const std::string& unit);

}  // namespace perfgate::history
