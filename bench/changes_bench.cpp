// Change points (stats/change_points.hpp) at issue 16's size: a series of 10,000 points
// analysed from scratch (goal < 1 s), and points appended one at a time to a series of
// 10,000 (goal < 10 ms each). Two series: nine steps of 5% in 2% noise, and pure noise,
// whose whole length is the tail an append re-examines (the worst case). Each figure is
// printed beside its goal as a ratio.
//   changes_bench [POINTS] [APPENDS]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "stats/change_points.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<double> series(std::size_t points, bool steps) {
  std::mt19937_64 rng(16);
  std::normal_distribution<double> noise(0, 0.02);
  std::vector<double> values;
  for (std::size_t i = 0; i < points; ++i) {
    const bool high = steps && (i * 10 / points) % 2 == 1;
    values.push_back(100 * (high ? 1.05 : 1.0) * (1 + noise(rng)));
  }
  return values;
}

void measure(const char* name, const std::vector<double>& values, std::size_t appends) {
  const perfgate::stats::ChangePointOptions options;
  auto start = Clock::now();
  const auto found = perfgate::stats::find_change_points(values, options);
  const double scratch = ms_since(start);
  // The series but its last `appends` points, then those appended one at a time.
  perfgate::stats::ChangePointSeries growing(options);
  for (std::size_t i = 0; i + appends < values.size(); ++i) growing.append(values[i]);
  std::vector<double> each;
  for (std::size_t i = values.size() - appends; i < values.size(); ++i) {
    start = Clock::now();
    growing.append(values[i]);
    each.push_back(ms_since(start));
  }
  std::sort(each.begin(), each.end());
  std::string at;
  for (const auto& change : found) {
    at += fmt::format("{}{} ({:+.1f}%, p {:.2g})", at.empty() ? "" : ", ", change.index,
                      change.relative_change() * 100, change.p_value);
  }
  std::printf("%-34s %8.1f %8.2fx %10.2f %10.2f %8.2fx %7zu\n", name, scratch, scratch / 1000,
              each[each.size() / 2], each.back(), each.back() / 10, found.size());
  if (!found.empty()) std::printf("  changes at %s\n", at.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t points = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  const std::size_t appends = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 100;
  std::printf("%-34s %8s %9s %10s %10s %9s %7s\n", "", "scratch", "/ 1 s", "append p50",
              "append max", "/ 10 ms", "changes");
  measure("nine 5% steps in 2% noise", series(points, true), appends);
  measure("2% noise, no change", series(points, false), appends);
  std::printf("(milliseconds; %zu points; the last %zu appended one at a time)\n", points, appends);
}
