#pragma once
// Whether a record's runs took two distinct levels: a group of fast runs and a group of slow
// ones, with a jump between them far larger than either group's own scatter. A virtual
// machine whose CPUs run at different speeds does this (docs/measurement.md, "A machine
// whose CPUs differ": 9.6 ms on one CPU, 14.3 ms on the other), and so does a run that now
// and then waits a time slice behind another program. The record's median then follows the
// share of runs that landed in each group, which changes from one moment to the next, and
// the user should know it before trusting a comparison of two such records.
#include <cstddef>
#include <optional>
#include <span>

namespace perfgate::stats {

struct TwoLevels {
  std::size_t fast_runs = 0;
  std::size_t slow_runs = 0;
  double fast_median = 0;
  double slow_median = 0;
};

/// The two levels of `samples`, or nullopt when they are one. Two levels need at least six
/// runs, at least a fifth of them (and three) in each group, a slow group whose median is at
/// least 10% above the fast group's, and a gap between the fastest slow run and the slowest
/// fast run over six times the larger of the two groups' median absolute deviations: runs
/// spread evenly, or a few outliers beyond the rest, are one level. Values that are not all
/// positive are one level. Simulated (docs/measurement.md): one level of normal scatter with
/// 2% outliers is called two at most 2% of the time at 10 runs and a 10% CV, 0.2% at 3%;
/// runs a third of which land on a CPU 45% slower are found 85% of the time at 15 runs.
std::optional<TwoLevels> find_two_levels(std::span<const double> samples);

}  // namespace perfgate::stats
