// The decision rule of the statistical A/B mode (stats/confidence_sequence.hpp) on
// simulated pairs: Gaussian log-ratios with a spread of 1%, 3% or 5% per pair, a head as
// fast as the base, 3% slower or 10% slower, a 5% budget, alpha 1%, a look after every pair
// and at most 60 pairs. Prints how often each verdict came out and the median number of
// pairs to a verdict, beside issue 16's goals (identical: REGRESSION <= 1%; 10% slower:
// REGRESSION >= 95% with a median of at most 20 pairs; 3% slower: never REGRESSION beyond
// alpha). Real timings are not Gaussian: `perfgate ab --method stat` will be checked on
// recorded ones: given the results.json of a long A/A run (bench/run.sh records one of the
// 30 ms busy loop, 300 pairs), the same table is printed again with each try's pairs drawn
// from the recorded pairs' log-ratios (with replacement), the head's slowdown added.
//   ab_stat_sim [TRIES] [SEED] [RECORDED_RESULTS_JSON]
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/json.hpp"
#include "stats/confidence_sequence.hpp"

using perfgate::stats::BudgetDecision;

namespace {

/// Tries of at most 60 pairs, each pair's log-ratio from `draw`; prints one table row.
template <class Draw>
void row(const std::string& label, int tries, double slower, Draw&& draw) {
  const double threshold = std::log(1.05);
  int regression = 0, pass = 0, inconclusive = 0;
  std::vector<int> pairs;
  for (int i = 0; i < tries; ++i) {
    std::vector<double> values;
    BudgetDecision decision = BudgetDecision::kUndecided;
    int n = 1;
    for (; n <= 60; ++n) {
      values.push_back(std::log(slower) + draw());
      decision = perfgate::stats::decide_against_budget(values, threshold, 0.01);
      if (decision != BudgetDecision::kUndecided) break;
    }
    if (decision == BudgetDecision::kAboveBudget) {
      ++regression;
      pairs.push_back(n);
    } else if (decision == BudgetDecision::kBelowBudget) {
      ++pass;
      pairs.push_back(n);
    } else {
      ++inconclusive;
    }
  }
  std::sort(pairs.begin(), pairs.end());
  const double share = 100.0 / tries;
  fmt::print("{:<34}{:>11.1f}%{:>7.1f}%{:>13.1f}%{:>14}\n",
             fmt::format("{}, head {:+.0f}%", label, (slower - 1) * 100), regression * share,
             pass * share, inconclusive * share, pairs.empty() ? 0 : pairs[pairs.size() / 2]);
}

/// The measured pairs' log(head / base) of the duration in an A/A results.json.
std::vector<double> recorded_log_ratios(const std::string& path) {
  std::ifstream in(path);
  const perfgate::Json results = perfgate::Json::parse(in);
  std::map<int, std::pair<double, double>> by_pair;  // base, head
  for (const auto& run : results["scenarios"][0]["runs"]) {
    if (run["warmup"].get<bool>()) continue;
    auto& pair = by_pair[run["pair"].get<int>()];
    (run["side"] == "base" ? pair.first : pair.second) = run["duration_s"].get<double>();
  }
  std::vector<double> ratios;
  for (const auto& [n, pair] : by_pair) ratios.push_back(std::log(pair.second / pair.first));
  return ratios;
}

}  // namespace

int main(int argc, char** argv) {
  const int tries = argc > 1 ? std::atoi(argv[1]) : 2000;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 5;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss(0, 1);
  fmt::print("{} tries each, budget 5%, alpha 0.01, at most 60 pairs (seed {})\n", tries, seed);
  fmt::print("{:<34}{:>12}{:>8}{:>14}{:>14}\n", "", "REGRESSION", "PASS", "INCONCLUSIVE",
             "median pairs");
  for (const double spread : {0.01, 0.03, 0.05}) {
    for (const double slower : {1.0, 1.03, 1.10}) {
      row(fmt::format("gaussian, spread {:.0f}%", spread * 100), tries, slower,
          [&] { return spread * gauss(rng); });
    }
  }
  if (argc > 3) {
    const std::vector<double> ratios = recorded_log_ratios(argv[3]);
    std::uniform_int_distribution<std::size_t> pick(0, ratios.size() - 1);
    for (const double slower : {1.0, 1.03, 1.10}) {
      row(fmt::format("recorded ({} pairs)", ratios.size()), tries, slower,
          [&] { return ratios[pick(rng)]; });
    }
  }
}
