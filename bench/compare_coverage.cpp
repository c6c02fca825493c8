// compare --method stat's interval (src/stats/level_shift.cpp) on simulated records:
// how often the 95% interval holds the true change (coverage), and how often the gate's
// decision is REGRESSION, INCONCLUSIVE or PASS when the truth is "no change" and when it
// is "10% slower", at a 5% threshold. Each record is a level drawn around the truth
// (the between-record noise of a busy machine), then runs drawn around the level (the
// within-record noise), with 2% of the runs slowed 1.5-3x (outliers). docs/compare.md
// quotes these figures.
//
//   compare_coverage [tries per setting, default 4000] [seed, default 34]
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "stats/level_shift.hpp"

namespace {

struct Setting {
  std::size_t baseline_records;
  std::size_t runs;
  double between;           // SD of a record's log level
  double within;            // SD of a run's log value around its record's level
  std::size_t history = 0;  // older eligible records beside the baseline, for the spread
};

struct Machine {
  std::mt19937_64 generator;
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;

  std::vector<double> record(const Setting& s, double truth) {
    const double level = std::log1p(truth) + s.between * normal(generator);
    std::vector<double> runs;
    for (std::size_t i = 0; i < s.runs; ++i) {
      double value = std::exp(level + s.within * normal(generator));
      if (uniform(generator) < 0.02) value *= 1.5 + 1.5 * uniform(generator);
      runs.push_back(value);
    }
    return runs;
  }
};

struct Tally {
  int covered = 0;
  int regression = 0;
  int inconclusive = 0;
  int pass = 0;
};

// The gate of rolling_baseline.cpp on a lower-is-better metric with threshold `pct`.
Tally run(Machine& machine, const Setting& s, double truth, int tries, double pct) {
  Tally tally;
  for (int t = 0; t < tries; ++t) {
    std::vector<std::vector<double>> baseline;
    for (std::size_t k = 0; k < s.baseline_records; ++k) baseline.push_back(machine.record(s, 0));
    std::vector<std::vector<double>> history = baseline;
    for (std::size_t k = 0; k < s.history; ++k) history.push_back(machine.record(s, 0));
    const auto shift =
        perfgate::stats::estimate_level_shift(machine.record(s, truth), baseline, 0.95, history);
    if (shift.low <= truth && truth <= shift.high) ++tally.covered;
    if (shift.low > pct)
      ++tally.regression;
    else if (shift.high <= pct)
      ++tally.pass;
    else
      ++tally.inconclusive;
  }
  return tally;
}

}  // namespace

int main(int argc, char** argv) {
  const int tries = argc > 1 ? std::atoi(argv[1]) : 4000;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 34;
  Machine machine{std::mt19937_64(seed), {}, {}};
  const std::vector<Setting> settings = {
      {5, 10, 0.0, 0.01},
      {5, 10, 0.005, 0.01},
      {5, 10, 0.03, 0.02},
      {5, 10, 0.10, 0.05},
      {5, 5, 0.03, 0.02},
      {5, 30, 0.03, 0.02},
      {3, 10, 0.03, 0.02},
      {2, 10, 0.03, 0.02},
      {1, 10, 0.0, 0.02},
      {1, 10, 0.03, 0.02},
      {5, 1, 0.03, 0.0},
      // The cohort's history (20 records in all) estimates the spread.
      {5, 10, 0.005, 0.01, 15},
      {5, 10, 0.03, 0.02, 15},
      {5, 10, 0.10, 0.05, 15},
  };
  constexpr double kThreshold = 0.05;
  fmt::print(
      "compare --method stat: 95% interval coverage and gate decisions at a {:.0f}% "
      "threshold, {} tries per row, seed {}; runs have 2% outliers at 1.5-3x\n",
      kThreshold * 100, tries, seed);
  fmt::print("{:>8} {:>7} {:>5} {:>8} {:>7} | {:>9} {:>11} | {:>16} {:>16} {:>9}\n", "records",
             "history", "runs", "between", "within", "coverage", "A/A REGR", "10% slower REGR",
             "10% slower INCO", "10% PASS");
  for (const Setting& s : settings) {
    const Tally same = run(machine, s, 0.0, tries, kThreshold);
    const Tally slower = run(machine, s, 0.10, tries, kThreshold);
    const double n = tries;
    fmt::print(
        "{:>8} {:>7} {:>5} {:>7.1f}% {:>6.1f}% | {:>9.3f} {:>11.4f} | {:>16.3f} {:>16.3f} "
        "{:>9.4f}\n",
        s.baseline_records, s.baseline_records + s.history, s.runs, s.between * 100, s.within * 100,
        (same.covered + slower.covered) / (2 * n), same.regression / n, slower.regression / n,
        slower.inconclusive / n, slower.pass / n);
  }
  fmt::print(
      "coverage: the true change inside the 95% interval (no change and 10% slower "
      "together); A/A REGR: REGRESSION when nothing changed (goal: none)\n");
  return 0;
}
