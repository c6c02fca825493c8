#include "probe/run_fold.hpp"

#include <algorithm>
#include <cmath>

#include "probe/registry.hpp"

namespace perfgate::probe::detail {

void LogHistogram::add(double value) {
  if (count_ == 0) {
    min_ = max_ = value;
  } else {
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }
  ++count_;
  if (value <= 0) {
    ++zeros_;
    return;
  }
  ++buckets_[static_cast<int>(std::floor(std::log2(value) * 8))];
}

void LogHistogram::add_zeros(std::uint64_t n) {
  if (n == 0) return;
  if (count_ == 0) {
    min_ = max_ = 0;
  } else {
    min_ = std::min(min_, 0.0);
  }
  count_ += n;
  zeros_ += n;
}

double LogHistogram::quantile(double q) const {
  if (count_ == 0) return 0;
  if (q <= 0) return min_;
  if (q >= 1) return max_;
  // The value with rank ceil(q * count), 1-based: the median of 3 values is the second.
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  if (rank <= zeros_) return 0;
  std::uint64_t seen = zeros_;
  for (const auto& [bucket, n] : buckets_) {
    seen += n;
    if (seen >= rank) {
      const double mid = std::exp2((bucket + 0.5) / 8);
      return std::clamp(mid, min_, max_);
    }
  }
  return max_;
}

namespace {

/// A run's rows by region: two call sites of one id have a row each.
std::map<std::uint32_t, RunRow> by_region(const std::vector<RunRow>& rows) {
  std::map<std::uint32_t, RunRow> out;
  for (const RunRow& row : rows) {
    out.try_emplace(row.region, RunRow{row.region}).first->second.add(row);
  }
  return out;
}

void fold_rows(std::map<std::uint32_t, RegionFold>& into,
               const std::map<std::uint32_t, RunRow>& rows, bool as_run) {
  for (const auto& [region, row] : rows) {
    RegionFold& fold = into[region];
    fold.calls += row.calls;
    fold.wall_ticks += row.wall_ticks;
    fold.self_ticks += row.self_ticks;
    fold.child_calls += row.child_calls;
    if (as_run) {
      ++fold.runs;
      fold.per_run_wall_ticks.add(static_cast<double>(row.wall_ticks));
    }
  }
}

}  // namespace

void RunFold::add(const RunRecord& run, const std::vector<DispatchedWork>& work,
                  const std::vector<RegionInfo>& region_table) {
  ++runs;
  wall_ticks += run.wall_ticks;
  cpu_ns += run.cpu_ns;
  top_level_ticks += run.top_level_ticks;
  run_wall_ticks.add(static_cast<double>(run.wall_ticks));
  const auto own = by_region(run.rows);
  fold_rows(regions, own, true);
  std::vector<RunRow> others;
  for (const DispatchedWork& piece : work) {
    others.insert(others.end(), piece.rows.begin(), piece.rows.end());
  }
  const auto dispatched_rows = by_region(others);
  fold_rows(dispatched, dispatched_rows, true);
  // Each name once per run, however many of its ids the run entered.
  std::vector<std::uint32_t> names;
  for (const auto& [region, row] : own) names.push_back(region_table[region].name_id);
  for (const auto& [region, row] : dispatched_rows) names.push_back(region_table[region].name_id);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const std::uint32_t name : names) {
    if (name >= name_runs.size()) name_runs.resize(name + 1, 0);
    ++name_runs[name];
  }
}

void RunFold::add_late(const DispatchedWork& work) {
  fold_rows(dispatched, by_region(work.rows), false);
}

}  // namespace perfgate::probe::detail
