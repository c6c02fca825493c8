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
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "stats/level_shift.hpp"

namespace {

struct Setting {
  std::size_t baseline_records;
  std::size_t runs;
  double between;           // SD of a record's log level
  double within;            // SD of a run's log value around its record's level
  std::size_t history = 0;  // older eligible records beside the baseline, for the spread
  // Records that met a disturbance (a daemon, a build beside them): each record, the
  // current one too, is `slow_factor` times slower with probability `slow_share`; or, with
  // `one_slow`, exactly one of the baseline's and history's records is.
  double slow_share = 0;
  double slow_factor = 1.2;
  bool one_slow = false;
  // A machine whose level moves between moments: the baseline's and history's records were
  // measured back to back (only `between` apart), the current record at a later moment whose
  // level is off by a draw of this SD, and a confirmation at yet another (drawn apart).
  double drift = 0;
  // The older history records (beyond the baseline) each measured at a moment of its own
  // (a draw of `drift`), as a cohort's nightly records are: the baseline re-seeded back to
  // back among a history that holds the machine's movement.
  bool history_moments = false;
  // The older history records' level (log) against the baseline's: a re-seed after a
  // change the team accepted (log(1.2): the program was 20% slower before it).
  double older_level = 0;
  // How many of the baseline's records the re-seed approved (the newest); the rest of the
  // baseline is at the older level too. 0: all of them.
  std::size_t reseeded = 0;
};

// A baseline of five records measured back to back (0.5% apart, runs 2%) among 15 older
// records of the history: at moments `drift` apart (0: back to back as well), `older_ratio`
// times the baseline's level (a re-seed when not 1), of which the newest `reseeded` (0: all
// five) are at the new level.
Setting among_history(double drift, double older_ratio = 1, std::size_t reseeded = 0) {
  Setting s{5, 10, 0.005, 0.02, 15};
  s.drift = drift;
  s.history_moments = drift > 0;
  s.older_level = std::log(older_ratio);
  s.reseeded = reseeded;
  return s;
}

struct Machine {
  std::mt19937_64 generator;
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;

  // `moment`: how far (in log) the machine's level is from the baseline's at this record.
  std::vector<double> record(const Setting& s, double truth, bool slow = false, double moment = 0) {
    double level = std::log1p(truth) + moment + s.between * normal(generator);
    if (slow || uniform(generator) < s.slow_share) level += std::log(s.slow_factor);
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
  int confirmed_regression = 0;  ///< REGRESSION after `compare --confirm 5`
};

// How far (in log) the machine's level has moved at a later moment, drawn only where the
// setting has drift, so that the other rows' streams are as they were.
double moved(Machine& machine, const Setting& s) {
  return s.drift > 0 ? s.drift * machine.normal(machine.generator) : 0;
}

// The gate of rolling_baseline.cpp on a lower-is-better metric with threshold `pct`.
// `confirming` draws the confirmations' runs (its own stream, so that the rows' other
// figures do not depend on how many were needed).
Tally run(Machine& machine, Machine& confirming, const Setting& s, double truth, int tries,
          double pct) {
  Tally tally;
  for (int t = 0; t < tries; ++t) {
    // With one_slow, the disturbed record is the oldest of the history (or of the baseline,
    // when there is no older history): the case that used to keep every verdict open.
    const std::size_t slow_one = s.one_slow ? s.baseline_records + s.history - 1 : SIZE_MAX;
    std::vector<std::vector<double>> baseline;
    for (std::size_t k = 0; k < s.baseline_records; ++k) {
      const bool older = s.reseeded > 0 && k >= s.reseeded;
      baseline.push_back(machine.record(s, 0, k == slow_one, older ? s.older_level : 0));
    }
    std::vector<std::vector<double>> history = baseline;
    for (std::size_t k = 0; k < s.history; ++k) {
      const double moment = s.older_level + (s.history_moments ? moved(machine, s) : 0);
      history.push_back(machine.record(s, 0, s.baseline_records + k == slow_one, moment));
    }
    std::vector<std::vector<double>> parts{machine.record(s, truth, false, moved(machine, s))};
    const auto shift = perfgate::stats::estimate_level_shift(parts, baseline, 0.95, history);
    if (shift.low <= truth && truth <= shift.high) ++tally.covered;
    if (shift.low > pct)
      ++tally.regression;
    else if (shift.high <= pct)
      ++tally.pass;
    else
      ++tally.inconclusive;
    // compare --confirm 5: a record that did not pass is measured again, five runs at
    // another moment of the machine, and decided on both parts.
    if (shift.high > pct) {
      Setting five = s;
      five.runs = 5;
      parts.push_back(confirming.record(five, truth, false, moved(confirming, s)));
      if (perfgate::stats::estimate_level_shift(parts, baseline, 0.95, history).low > pct)
        ++tally.confirmed_regression;
    }
  }
  return tally;
}

// The "disturbed" column: what the setting's records met.
std::string disturbance(const Setting& s) {
  if (s.one_slow) return "one";
  if (s.slow_share > 0) return fmt::format("{:.0f}%", s.slow_share * 100);
  std::string said;
  if (s.older_level != 0) {
    said = fmt::format("rs{}{:+.0f}%", s.reseeded > 0 ? std::to_string(s.reseeded) : "",
                       std::expm1(s.older_level) * 100);
  }
  if (s.history_moments) {
    return said.empty() ? fmt::format("hist {:.0f}%", s.drift * 100)
                        : fmt::format("{} h{:.0f}%", said, s.drift * 100);
  }
  if (s.drift > 0) return fmt::format("moved {:.0f}%", s.drift * 100);
  return said.empty() ? "-" : said;
}

}  // namespace

int main(int argc, char** argv) {
  const int tries = argc > 1 ? std::atoi(argv[1]) : 4000;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 34;
  Machine machine{std::mt19937_64(seed), {}, {}};
  Machine confirming{std::mt19937_64(seed + 1), {}, {}};
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
      // A quiet machine (1% between records, 2% between runs) whose records sometimes met a
      // disturbance that made them 20% slower: one in ten records, or exactly one of the
      // baseline's and history's records (the current one undisturbed).
      {5, 10, 0.01, 0.02, 5, 0.10},
      {5, 10, 0.01, 0.02, 15, 0.10},
      {5, 10, 0.01, 0.02, 5, 0, 1.2, true},
      {5, 10, 0.01, 0.02, 15, 0, 1.2, true},
      {5, 10, 0.01, 0.02, 0, 0, 1.2, true},
      // Ten records measured back to back on a quiet machine (0.5% apart), the current one at
      // a moment when the machine's level has moved by 1%, 2% or 4% (SD).
      {5, 10, 0.005, 0.02, 5, 0, 1.2, false, 0.01},
      {5, 10, 0.005, 0.02, 5, 0, 1.2, false, 0.02},
      {5, 10, 0.005, 0.02, 5, 0, 1.2, false, 0.04},
      // The baseline re-seeded back to back (0.5% apart) among 15 older records each measured
      // at its own moment, the current record at another: the history holds the machine's
      // movement that the baseline cannot show.
      among_history(0.01),
      among_history(0.02),
      among_history(0.04),
      // The same after a change the team accepted: the older records 20% slower (a re-seed),
      // measured back to back, or at moments 2% apart; and a 5% change.
      among_history(0, 1.2),
      among_history(0.02, 1.2),
      among_history(0.02, 1.05),
      // A re-seed of three records: two of the baseline's five still at the old level.
      among_history(0, 1.2, 3),
      among_history(0.02, 1.2, 3),
  };
  constexpr double kThreshold = 0.05;
  fmt::print(
      "compare --method stat: 95% interval coverage and gate decisions at a {:.0f}% "
      "threshold, {} tries per row, seed {}; runs have 2% outliers at 1.5-3x\n",
      kThreshold * 100, tries, seed);
  fmt::print(
      "{:>8} {:>7} {:>5} {:>8} {:>7} {:>12} | {:>9} {:>11} | {:>16} {:>16} {:>9} | {:>9} {:>9}\n",
      "records", "history", "runs", "between", "within", "disturbed", "coverage", "A/A REGR",
      "10% slower REGR", "10% slower INCO", "10% PASS", "conf A/A", "conf 10%");
  for (const Setting& s : settings) {
    const Tally same = run(machine, confirming, s, 0.0, tries, kThreshold);
    const Tally slower = run(machine, confirming, s, 0.10, tries, kThreshold);
    const double n = tries;
    fmt::print(
        "{:>8} {:>7} {:>5} {:>7.1f}% {:>6.1f}% {:>12} | {:>9.3f} {:>11.4f} | {:>16.3f} {:>16.3f} "
        "{:>9.4f} | {:>9.4f} {:>9.3f}\n",
        s.baseline_records, s.baseline_records + s.history, s.runs, s.between * 100, s.within * 100,
        disturbance(s), (same.covered + slower.covered) / (2 * n), same.regression / n,
        slower.regression / n, slower.inconclusive / n, slower.pass / n,
        same.confirmed_regression / n, slower.confirmed_regression / n);
  }
  fmt::print(
      "coverage: the true change inside the 95% interval (no change and 10% slower "
      "together); A/A REGR: REGRESSION when nothing changed (goal: none); disturbed: records "
      "20% slower (a share of all, or one of the baseline's and history's), or moved: the "
      "current record at a moment when the machine's level has moved by that SD; hist: the "
      "baseline's five back to back among older records each at its own moment (that SD); "
      "rs+20%: a re-seed, the older records 20% slower (rs3: three of the baseline's five "
      "re-seeded; h2%: with hist 2%); conf: REGRESSION after --confirm 5\n");
  return 0;
}
