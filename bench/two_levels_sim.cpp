// The TWO_LEVELS warning's test (src/stats/two_levels.cpp) on simulated records: how often
// it calls one level two (runs of normal scatter with 2% outliers at 1.5-3x; runs with a
// half-normal right tail) and how often it finds two (a third of the runs, on average, on a
// CPU 45% slower), by runs a record and the runs' CV. docs/measurement.md quotes it.
//
//   two_levels_sim [records per row, default 20000] [seed, default 5]
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "stats/two_levels.hpp"

int main(int argc, char** argv) {
  const int records = argc > 1 ? std::atoi(argv[1]) : 20000;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 5;
  std::mt19937_64 generator(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  fmt::print("TWO_LEVELS on simulated records, {} a row, seed {}\n", records, seed);
  fmt::print("{:>5} {:>5} | {:>22} {:>17} | {:>24}\n", "runs", "CV", "one level + outliers",
             "one level, tail", "two CPUs (1/3 at +45%)");
  for (const int runs : {6, 10, 15, 30, 100}) {
    for (const double cv : {0.01, 0.03, 0.10}) {
      int outliers = 0, tail = 0, two = 0;
      for (int r = 0; r < records; ++r) {
        std::vector<double> a, b, c;
        for (int i = 0; i < runs; ++i) {
          double value = std::exp(cv * normal(generator));
          if (uniform(generator) < 0.02) value *= 1.5 + 1.5 * uniform(generator);
          a.push_back(value);
          b.push_back(std::exp(3 * cv * std::fabs(normal(generator))));
          c.push_back(std::exp(cv * normal(generator)) * (uniform(generator) < 0.3 ? 1.45 : 1.0));
        }
        outliers += perfgate::stats::find_two_levels(a).has_value();
        tail += perfgate::stats::find_two_levels(b).has_value();
        two += perfgate::stats::find_two_levels(c).has_value();
      }
      const double n = records;
      fmt::print("{:>5} {:>4.0f}% | {:>22.4f} {:>17.4f} | {:>24.3f}\n", runs, cv * 100,
                 outliers / n, tail / n, two / n);
    }
  }
  fmt::print(
      "one level: the share of records called two levels (a false warning); two CPUs: the "
      "share found\n");
  return 0;
}
