#include "probe/report_writer.hpp"

#include <fcntl.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <set>

#include "perfgate/probe.hpp"
#include "probe/json_writer.hpp"
#include "probe/registry.hpp"
#include "probe/report_snapshot.hpp"
#include "probe/self_cost.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

namespace {

/// `value` in decimal, at least `width` characters with leading zeros (a sign counted in the
/// width), as printf's %0*lld writes it.
void append_digits(std::string& text, std::int64_t value, int width) {
  char digits[24];
  int length = 0;
  // Negated digit by digit, so that no value (INT64_MIN included) overflows.
  std::int64_t rest = value;
  do {
    const int digit = static_cast<int>(rest % 10);
    digits[length++] = static_cast<char>('0' + (digit < 0 ? -digit : digit));
    rest /= 10;
  } while (rest != 0);
  if (value < 0) {
    text += '-';
    --width;
  }
  for (int pad = width - length; pad > 0; --pad) text += '0';
  while (length > 0) text += digits[--length];
}

}  // namespace

std::string utc_stamp(std::int64_t seconds) {
  // Calendar arithmetic only: strftime() and even glibc's gmtime_r() read the time zone
  // file first (tzset: six system calls at the exit of every instrumented program) for a
  // UTC stamp that needs none. The probe is C++17, so no std::chrono calendar: days to a
  // civil date as in Howard Hinnant's "chrono-compatible low-level date algorithms".
  std::int64_t days = seconds / 86400;
  std::int64_t of_day = seconds % 86400;
  if (of_day < 0) {
    of_day += 86400;
    --days;
  }
  const std::int64_t shifted = days + 719468;  // from 0000-03-01
  const std::int64_t era = (shifted >= 0 ? shifted : shifted - 146096) / 146097;
  const std::int64_t day_of_era = shifted - era * 146097;
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t month_from_march = (5 * day_of_year + 2) / 153;
  const std::int64_t day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
  const std::int64_t month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
  const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  // Written digit by digit rather than with snprintf: a program that never formats with
  // printf would otherwise fault in glibc's formatter (four pages) for this one line.
  std::string text;
  text.reserve(20);
  append_digits(text, year, 4);
  text += '-';
  append_digits(text, month, 2);
  text += '-';
  append_digits(text, day, 2);
  text += 'T';
  append_digits(text, of_day / 3600, 2);
  text += ':';
  append_digits(text, of_day / 60 % 60, 2);
  text += ':';
  append_digits(text, of_day % 60, 2);
  text += 'Z';
  return text;
}

namespace {

std::string utc_now() {
  return utc_stamp(static_cast<std::int64_t>(std::time(nullptr)));
}

/// The program's path: the absolute one it was started by (the auxiliary vector keeps it),
/// else what /proc/self/exe names. Reading that link costs a small program about 40 µs of its
/// report at exit here (procfs builds the process's entries on first lookup), and its
/// buffer another page of stack; the started path is free. A path from fexecve
/// (/dev/fd/N, /proc/self/fd/N) names no file, so the link is read then too.
std::string executable_path() {
  const auto* started = reinterpret_cast<const char*>(getauxval(AT_EXECFN));
  if (started != nullptr && started[0] == '/' && std::strncmp(started, "/dev/fd/", 8) != 0 &&
      std::strncmp(started, "/proc/", 6) != 0) {
    return started;
  }
  std::string path(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  path.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return path;
}

struct Totals {
  std::uint64_t calls = 0;
  double wall_ticks = 0;
  double self_ticks = 0;
  std::uint64_t runs = 0;
};

/// A run's rows by region id (two call sites may share one: their rows add up), with each
/// self time less the probe's cost of the region's direct children's calls.
struct RunRowSum {
  std::uint32_t region = kNoRegion;
  std::uint64_t calls = 0;
  std::uint64_t wall_ticks = 0;
  double self_ticks = 0;
  std::uint64_t cpu_ns = 0;
  double self_cpu_ns = 0;
};

class ReportRenderer {
 public:
  explicit ReportRenderer(Snapshot s) : s_(std::move(s)) {
    // A report of one region takes about 3 KB; one block for it rather than eight.
    w_.reserve(4095);
    hz_ = ticks_per_second(s_.anchor_ticks, s_.anchor_steady_ns);
    mark_warmups();
    cost_ticks_ = region_cost_ticks();
    by_id_.resize(s_.regions.size());
    totals_.resize(s_.regions.size());
    rank_.resize(s_.regions.size());
    for (std::uint32_t i = 0; i < s_.regions.size(); ++i) by_id_[i] = i;
    std::sort(by_id_.begin(), by_id_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return id(a) < id(b); });
    for (std::size_t i = 0; i < by_id_.size(); ++i) rank_[by_id_[i]] = i;
  }

  std::string render() {
    w_.begin_object();
    w_.key("schema_version").value(1);
    w_.key("created_at").value(utc_now());
    w_.key("perfgate_version").value(PERFGATE_PROBE_VERSION);
    config();
    target();
    runs();
    summary();
    regions();
    threads();
    key_averages();
    trace();
    warnings();
    w_.end_object();
    return w_.finish();
  }

 private:
  const std::string& id(std::uint32_t region) const { return s_.regions[region].id; }
  double us(std::uint64_t ticks) const { return static_cast<double>(ticks) * 1e6 / hz_; }
  double us(double ticks) const { return ticks * 1e6 / hz_; }
  bool tracing() const {
    return recording(kRecordTrace) || !s_.trace.empty() || s_.trace_dropped > 0;
  }

  /// Per thread, in the order its runs ended: the first warmup_runs runs when a count is
  /// set, else the first run when runs follow it (the implicit warmup, which absorbs the
  /// probe's first-use cost). A run is a warmup by its number on its thread (counted from
  /// 1), against the number of runs the thread ended, folded ones included.
  void mark_warmups() {
    warmup_.resize(s_.runs.size());
    for (std::size_t i = 0; i < s_.runs.size(); ++i) {
      const RunRecord& run = s_.runs[i];
      const std::uint64_t runs = s_.ended_runs[run.thread_index];
      const std::uint64_t warmups = warmups_of_thread(runs);
      warmup_[i] = run.number <= warmups;
      if (warmup_[i] && warmups == runs) all_warmup_threads_.insert(run.thread_index);
    }
  }

  void config() {
    w_.key("config").begin_object();
    w_.key("clock").value(g_clock_kind == ClockKind::kTsc ? "tsc" : "steady_clock");
    w_.key("clock_hz");
    if (g_clock_kind == ClockKind::kTsc) {
      w_.value(hz_);
    } else {
      w_.null();
    }
    w_.key("enabled").value(g_enabled.load());
    w_.key("disabled_by");
    if (g_disabled_by_environment) {
      w_.value("PERFGATE_PROBE=0");
    } else if (!g_enabled.load()) {
      w_.value("set_enabled(false)");
    } else {
      w_.null();
    }
    w_.key("trace").value(tracing());
    w_.key("cpu_time").value(recording(kRecordCpu));
    w_.key("region_cost_ns").value(cost_ticks_ * 1e9 / hz_);
    w_.key("warmup_runs");
    if (g_warmup_runs.load() == kWarmupRunsUnset) {
      w_.null();  // none set: the implicit warmup rule
    } else {
      w_.value(static_cast<std::uint64_t>(g_warmup_runs.load()));
    }
    w_.end_object();
  }

  void target() {
    const std::string exe = executable_path();
    w_.key("target").begin_object();
    w_.key("executable").value(exe);
    w_.key("pid").value(static_cast<std::int64_t>(getpid()));
    w_.key("process_name").value(exe.substr(exe.find_last_of('/') + 1));
    w_.end_object();
  }

  void runs() {
    counted_in_run_.assign(s_.regions.size(), 0);
    w_.key("runs").begin_array();
    for (std::size_t i = 0; i < s_.runs.size(); ++i) run(i, s_.runs[i]);
    w_.end_array();
    add_folded_totals();
  }

  /// Adds `row` to `sum`, its self time less the probe's cost of its children's calls.
  void add_row(RunRowSum& sum, const RunRow& row) const {
    sum.calls += row.calls;
    sum.wall_ticks += row.wall_ticks;
    sum.self_ticks += std::max(0.0, static_cast<double>(row.self_ticks) -
                                        static_cast<double>(row.child_calls) * cost_ticks_);
    sum.cpu_ns += row.cpu_ns;
    sum.self_cpu_ns +=
        std::max(0.0, static_cast<double>(row.self_cpu_ns) -
                          static_cast<double>(row.child_calls) * cost_ticks_ * 1e9 / hz_);
  }

  void count_in_totals(const RunRowSum& row, std::vector<std::uint32_t>& counted_in_run) {
    Totals& t = totals_[row.region];
    t.calls += row.calls;
    t.wall_ticks += row.wall_ticks;
    t.self_ticks += row.self_ticks;
    if (counted_in_run[row.region] != current_run_mark_) {
      counted_in_run[row.region] = current_run_mark_;
      ++t.runs;
    }
  }

  void run(std::size_t run_index, const RunRecord& run) {
    const bool warmup = warmup_[run_index];
    ++current_run_mark_;
    // In id order; two call sites of one id (same name, same parent) share a region index,
    // so their rows meet here and add up.
    std::map<std::size_t, RunRowSum> rows;  // by rank in id order
    std::uint64_t calls = 0;
    for (const RunRow& row : run.rows) {
      add_row(rows.try_emplace(rank_[row.region], RunRowSum{row.region}).first->second, row);
      calls += row.calls;
    }
    // Work other threads did for this run (AttachedRun), by thread and then id.
    std::map<std::pair<std::uint32_t, std::size_t>, RunRowSum> dispatched;
    if (const auto found = s_.dispatched.find({run.thread_index, run.number});
        found != s_.dispatched.end()) {
      matched_dispatched_.insert(found->first);
      for (const DispatchedWork& work : found->second) {
        for (const RunRow& row : work.rows) {
          add_row(
              dispatched.try_emplace({work.thread_index, rank_[row.region]}, RunRowSum{row.region})
                  .first->second,
              row);
        }
      }
    }
    if (!warmup) {
      for (const auto& [rank, row] : rows) count_in_totals(row, counted_in_run_);
      for (const auto& [key, row] : dispatched) count_in_totals(row, counted_in_run_);
    }
    const double wall = us(run.wall_ticks);
    const auto fraction = [&](double part) { return wall > 0 ? part / wall : 0.0; };
    w_.begin_object();
    w_.key("run_index").value(static_cast<std::uint64_t>(run_index));
    w_.key("thread_index").value(static_cast<std::uint64_t>(run.thread_index));
    w_.key("warmup").value(warmup);
    w_.key("timing").begin_object();
    w_.key("wall_time_us").value(wall);
    w_.key("cpu_time_us").value(static_cast<double>(run.cpu_ns) / 1e3);
    // The run's own thread: what its regions' CPU times and the CPU residual add up to.
    if (run.cpu_measured) {
      w_.key("thread_cpu_time_us").value(static_cast<double>(run.thread_cpu_ns) / 1e3);
    }
    w_.end_object();
    const double thread_cpu_us = static_cast<double>(run.thread_cpu_ns) / 1e3;
    const auto cpu_fraction = [&](double part) {
      return thread_cpu_us > 0 ? part / thread_cpu_us : 0.0;
    };
    const auto cpu_fields = [&](const RunRowSum& row, bool with_fraction) {
      if (!run.cpu_measured) return;
      w_.key("cpu_time_us").value(static_cast<double>(row.cpu_ns) / 1e3);
      w_.key("self_cpu_time_us").value(row.self_cpu_ns / 1e3);
      if (with_fraction) {
        w_.key("cpu_time_fraction").value(cpu_fraction(static_cast<double>(row.cpu_ns) / 1e3));
      }
    };
    w_.key("regions").begin_array();
    for (const auto& [rank, row] : rows) {
      w_.begin_object();
      w_.key("region_id").value(id(row.region));
      w_.key("calls").value(row.calls);
      w_.key("wall_time_us").value(us(row.wall_ticks));
      w_.key("self_wall_time_us").value(us(row.self_ticks));
      w_.key("wall_time_fraction").value(fraction(us(row.wall_ticks)));
      cpu_fields(row, true);
      w_.end_object();
    }
    w_.end_array();
    const double residual = std::max(0.0, wall - us(run.top_level_ticks));
    w_.key("residual").begin_object();
    w_.key("wall_time_us").value(residual);
    w_.key("wall_time_fraction").value(fraction(residual));
    if (run.cpu_measured) {
      const double cpu_residual =
          std::max(0.0, thread_cpu_us - static_cast<double>(run.top_level_cpu_ns) / 1e3);
      w_.key("cpu_time_us").value(cpu_residual);
      w_.key("cpu_time_fraction").value(cpu_fraction(cpu_residual));
    }
    w_.end_object();
    // Beside the run's own tree, not in it: this time passed on other threads, alongside
    // the run's, so it is no part of the run's 100%.
    w_.key("dispatched").begin_array();
    for (const auto& [key, row] : dispatched) {
      w_.begin_object();
      w_.key("thread_index").value(static_cast<std::uint64_t>(key.first));
      w_.key("region_id").value(id(row.region));
      w_.key("calls").value(row.calls);
      w_.key("wall_time_us").value(us(row.wall_ticks));
      w_.key("self_wall_time_us").value(us(row.self_ticks));
      w_.key("wall_time_fraction").value(fraction(us(row.wall_ticks)));
      cpu_fields(row, false);  // another thread's CPU: no share of this one's
      w_.end_object();
    }
    w_.end_array();
    // Where the probe's own time went: inside the enclosing regions' wall time (taken out
    // of their self times above) and, for top-level calls, inside the residual.
    const double cost = us(static_cast<double>(calls) * cost_ticks_);
    w_.key("probe").begin_object();
    w_.key("region_calls").value(calls);
    w_.key("cost_us").value(cost);
    w_.key("cost_fraction").value(fraction(cost));
    w_.end_object();
    w_.end_object();
  }

  double adjusted_self(std::uint64_t self_ticks, std::uint64_t child_calls) const {
    return std::max(
        0.0, static_cast<double>(self_ticks) - static_cast<double>(child_calls) * cost_ticks_);
  }

  /// Folded runs' regions into the key averages' totals. A region both run's own and
  /// dispatched counts the runs of the larger side (the two cannot be told apart).
  void add_folded_totals() {
    std::map<std::uint32_t, std::uint64_t> runs;
    for (const auto* folds : {&s_.folded.regions, &s_.folded.dispatched}) {
      for (const auto& [region, fold] : *folds) {
        Totals& t = totals_[region];
        t.calls += fold.calls;
        t.wall_ticks += static_cast<double>(fold.wall_ticks);
        t.self_ticks += adjusted_self(fold.self_ticks, fold.child_calls);
        runs[region] = std::max(runs[region], fold.runs);
      }
    }
    for (const auto& [region, n] : runs) totals_[region].runs += n;
  }

  struct Series {
    std::uint64_t calls = 0;
    std::uint64_t runs = 0;
    double wall_ticks = 0;
    double self_ticks = 0;
    std::vector<double> walls;  // per run that entered it, in exact mode
    LogHistogram histogram;     // with folded runs
  };

  /// The rank-th smallest (1-based) of `values` plus `zeros` zeros.
  static double ranked(std::vector<double>& values, std::uint64_t zeros, double q) {
    const std::uint64_t count = values.size() + zeros;
    if (count == 0) return 0;
    std::sort(values.begin(), values.end());
    const auto rank = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count))));
    return rank <= zeros ? 0 : values[rank - zeros - 1];
  }

  void distribution(Series& series, std::uint64_t measured, bool exact,
                    const std::vector<std::pair<const char*, double>>& quantiles) {
    for (const auto& [key, q] : quantiles) {
      double ticks = 0;
      if (exact) {
        ticks = ranked(series.walls, measured - series.walls.size(), q);
      } else {
        LogHistogram h = series.histogram;
        h.add_zeros(measured - h.count());
        ticks = h.quantile(q);
      }
      w_.key(key).value(us(ticks));
    }
  }

  /// Every measured run, listed or folded, summed up: the run's and each region's mean per
  /// run and distribution over the runs (exact from the listed runs alone, else from
  /// histograms of an eighth of an octave).
  void summary() {
    const bool exact = s_.folded.runs == 0;
    std::map<std::size_t, Series> own;    // by rank in id order
    std::map<std::size_t, Series> other;  // dispatched
    const auto seed = [&](std::map<std::size_t, Series>& into,
                          const std::map<std::uint32_t, RegionFold>& folds) {
      for (const auto& [region, fold] : folds) {
        Series& series = into[rank_[region]];
        series.calls += fold.calls;
        series.runs += fold.runs;
        series.wall_ticks += static_cast<double>(fold.wall_ticks);
        series.self_ticks += adjusted_self(fold.self_ticks, fold.child_calls);
        series.histogram = fold.per_run_wall_ticks;
      }
    };
    seed(own, s_.folded.regions);
    seed(other, s_.folded.dispatched);
    std::uint64_t measured = s_.folded.runs;
    double wall = static_cast<double>(s_.folded.wall_ticks);
    double cpu_ns = static_cast<double>(s_.folded.cpu_ns);
    double residual = std::max(0.0, static_cast<double>(s_.folded.wall_ticks) -
                                        static_cast<double>(s_.folded.top_level_ticks));
    Series runs_series;
    runs_series.histogram = s_.folded.run_wall_ticks;
    const auto add = [&](std::map<std::size_t, Series>& into, const std::vector<RunRow>& rows) {
      std::map<std::size_t, RunRowSum> sums;
      for (const RunRow& row : rows) {
        add_row(sums.try_emplace(rank_[row.region], RunRowSum{row.region}).first->second, row);
      }
      for (const auto& [rank, sum] : sums) {
        Series& series = into[rank];
        series.calls += sum.calls;
        ++series.runs;
        series.wall_ticks += static_cast<double>(sum.wall_ticks);
        series.self_ticks += sum.self_ticks;
        if (exact) {
          series.walls.push_back(static_cast<double>(sum.wall_ticks));
        } else {
          series.histogram.add(static_cast<double>(sum.wall_ticks));
        }
      }
    };
    for (std::size_t i = 0; i < s_.runs.size(); ++i) {
      if (warmup_[i]) continue;
      const RunRecord& run = s_.runs[i];
      ++measured;
      wall += static_cast<double>(run.wall_ticks);
      cpu_ns += static_cast<double>(run.cpu_ns);
      residual += std::max(
          0.0, static_cast<double>(run.wall_ticks) - static_cast<double>(run.top_level_ticks));
      if (exact) {
        runs_series.walls.push_back(static_cast<double>(run.wall_ticks));
      } else {
        runs_series.histogram.add(static_cast<double>(run.wall_ticks));
      }
      add(own, run.rows);
      if (const auto found = s_.dispatched.find({run.thread_index, run.number});
          found != s_.dispatched.end()) {
        std::vector<RunRow> rows;
        for (const DispatchedWork& work : found->second)
          rows.insert(rows.end(), work.rows.begin(), work.rows.end());
        add(other, rows);
      }
    }
    const double n = measured > 0 ? static_cast<double>(measured) : 1;
    const auto fraction = [&](double ticks) { return wall > 0 ? ticks / wall : 0.0; };
    w_.key("summary").begin_object();
    w_.key("runs").value(static_cast<std::uint64_t>(s_.runs.size()) + s_.folded.runs +
                         s_.folded.warmups);
    w_.key("measured_runs").value(measured);
    w_.key("listed_runs").value(static_cast<std::uint64_t>(s_.runs.size()));
    w_.key("quantiles").value(exact ? "exact" : "histogram");
    w_.key("wall_time_us").begin_object();
    w_.key("mean").value(us(wall / n));
    distribution(runs_series, measured, exact,
                 {{"min", 0.0}, {"median", 0.5}, {"p90", 0.9}, {"max", 1.0}});
    w_.end_object();
    w_.key("cpu_time_us").begin_object();
    w_.key("mean").value(cpu_ns / n / 1e3);
    w_.end_object();
    w_.key("residual").begin_object();
    w_.key("wall_time_us").value(us(residual / n));
    w_.key("wall_time_fraction").value(fraction(residual));
    w_.end_object();
    const auto rows = [&](const char* key, std::map<std::size_t, Series>& series_by_rank) {
      w_.key(key).begin_array();
      for (auto& [rank, series] : series_by_rank) {
        w_.begin_object();
        w_.key("region_id").value(id(by_id_[rank]));
        w_.key("runs").value(series.runs);
        w_.key("calls").value(static_cast<double>(series.calls) / n);
        w_.key("wall_time_us").value(us(series.wall_ticks / n));
        w_.key("self_wall_time_us").value(us(series.self_ticks / n));
        w_.key("wall_time_fraction").value(fraction(series.wall_ticks));
        w_.key("per_run_wall_time_us").begin_object();
        distribution(series, measured, exact, {{"median", 0.5}, {"p90", 0.9}, {"max", 1.0}});
        w_.end_object();
        w_.end_object();
      }
      w_.end_array();
    };
    rows("regions", own);
    rows("dispatched", other);
    w_.end_object();
  }

  void regions() {
    w_.key("regions").begin_array();
    for (const std::uint32_t region : by_id_) {
      const RegionInfo& info = s_.regions[region];
      const Site& site = s_.sites[info.site];
      w_.begin_object();
      w_.key("id").value(info.id);
      w_.key("name").value(info.name);
      w_.key("parent");
      if (info.parent == kNoRegion) {
        w_.null();
      } else {
        w_.value(id(info.parent));
      }
      w_.key("depth").value(info.depth);
      w_.key("file").value(site.file);
      w_.key("line").value(site.line);
      w_.key("function").value(site.function);
      w_.end_object();
    }
    w_.end_array();
  }

  void threads() {
    w_.key("threads").begin_array();
    for (const auto& [index, name] : s_.threads) {
      w_.begin_object();
      w_.key("thread_index").value(static_cast<std::uint64_t>(index));
      w_.key("name").value(name);
      w_.end_object();
    }
    w_.end_array();
  }

  void key_average_view(const char* view, double Totals::*sort_key) {
    // The 20 largest by the key, ties in id order: (key, rank in id order) pairs, so a
    // program with 100,000 regions sorts numbers, not map lookups.
    struct Entry {
      double key;
      std::size_t rank;
      std::uint32_t region;
    };
    std::vector<Entry> entries;
    for (std::size_t rank = 0; rank < by_id_.size(); ++rank) {
      const std::uint32_t region = by_id_[rank];
      if (totals_[region].runs != 0) entries.push_back({totals_[region].*sort_key, rank, region});
    }
    constexpr std::size_t kRowsPerView = 20;
    const std::size_t shown = std::min(entries.size(), kRowsPerView);
    std::partial_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(shown),
                      entries.end(), [](const Entry& a, const Entry& b) {
                        return a.key != b.key ? a.key > b.key : a.rank < b.rank;
                      });
    std::vector<std::uint32_t> order;
    for (std::size_t i = 0; i < shown; ++i) order.push_back(entries[i].region);
    w_.key(view).begin_array();
    for (const std::uint32_t region : order) {
      const Totals& t = totals_[region];
      w_.begin_object();
      w_.key("region_id").value(id(region));
      w_.key("calls").value(t.calls);
      w_.key("self_wall_time_us").value(us(t.self_ticks));
      w_.key("wall_time_us").value(us(t.wall_ticks));
      w_.key("runs").value(t.runs);
      w_.end_object();
    }
    w_.end_array();
  }

  /// All the time in each name, from any caller: the sum of its ids' totals. Recursion
  /// is folded into the outer call, so an id never contains its own name and the
  /// inclusive times of one name's ids do not overlap on a thread.
  void key_averages_by_name() {
    struct ByName {
      Totals totals;
      std::uint64_t ids = 0;
    };
    std::map<std::string, ByName> names;
    for (std::uint32_t region = 0; region < s_.regions.size(); ++region) {
      const Totals& t = totals_[region];
      if (t.runs == 0) continue;
      ByName& by_name = names[s_.regions[region].name];
      by_name.totals.calls += t.calls;
      by_name.totals.wall_ticks += t.wall_ticks;
      by_name.totals.self_ticks += t.self_ticks;
      ++by_name.ids;
    }
    // Runs that saw the name: a run counts once however many of its ids it entered.
    std::map<std::string, std::uint64_t> runs_by_name;
    for (std::size_t i = 0; i < s_.runs.size(); ++i) {
      if (warmup_[i]) continue;
      std::vector<const std::string*> seen;
      const auto see = [&](const std::vector<RunRow>& rows) {
        for (const RunRow& row : rows) seen.push_back(&s_.regions[row.region].name);
      };
      see(s_.runs[i].rows);
      if (const auto found = s_.dispatched.find({s_.runs[i].thread_index, s_.runs[i].number});
          found != s_.dispatched.end()) {
        for (const DispatchedWork& work : found->second) see(work.rows);
      }
      std::sort(seen.begin(), seen.end(),
                [](const std::string* a, const std::string* b) { return *a < *b; });
      seen.erase(std::unique(seen.begin(), seen.end(),
                             [](const std::string* a, const std::string* b) { return *a == *b; }),
                 seen.end());
      for (const std::string* name : seen) ++runs_by_name[*name];
    }
    std::vector<bool> counted(s_.folded.name_runs.size(), false);
    for (const RegionInfo& info : s_.regions) {
      if (info.name_id >= counted.size() || counted[info.name_id]) continue;
      counted[info.name_id] = true;
      runs_by_name[info.name] += s_.folded.name_runs[info.name_id];
    }
    struct Entry {
      double self;
      const std::string* name;
      const ByName* totals;
    };
    std::vector<Entry> entries;
    for (const auto& [name, by_name] : names)
      entries.push_back({by_name.totals.self_ticks, &name, &by_name});
    constexpr std::size_t kRowsPerView = 20;
    const std::size_t shown = std::min(entries.size(), kRowsPerView);
    std::partial_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(shown),
                      entries.end(), [](const Entry& a, const Entry& b) {
                        return a.self != b.self ? a.self > b.self : *a.name < *b.name;
                      });
    w_.key("by_name").begin_array();
    for (std::size_t i = 0; i < shown; ++i) {
      const Totals& t = entries[i].totals->totals;
      w_.begin_object();
      w_.key("name").value(*entries[i].name);
      w_.key("calls").value(t.calls);
      w_.key("self_wall_time_us").value(us(t.self_ticks));
      w_.key("wall_time_us").value(us(t.wall_ticks));
      w_.key("runs").value(runs_by_name[*entries[i].name]);
      w_.key("ids").value(entries[i].totals->ids);
      w_.end_object();
    }
    w_.end_array();
  }

  void key_averages() {
    w_.key("key_averages").begin_object();
    key_average_view("self_time", &Totals::self_ticks);
    key_average_view("total_time", &Totals::wall_ticks);
    key_averages_by_name();
    w_.end_object();
  }

  void trace() {
    w_.key("trace");
    if (!tracing()) {
      w_.null();
      return;
    }
    std::stable_sort(
        s_.trace.begin(), s_.trace.end(),
        [](const TraceEvent& a, const TraceEvent& b) { return a.end_ticks < b.end_ticks; });
    w_.begin_object();
    w_.key("events").begin_array();
    for (const TraceEvent& event : s_.trace) {
      w_.begin_object();
      w_.key("region_id").value(id(event.region));
      w_.key("thread_index").value(static_cast<std::uint64_t>(event.thread_index));
      w_.key("start_us").value(us(event.start_ticks - s_.anchor_ticks));
      w_.key("duration_us").value(us(event.end_ticks - event.start_ticks));
      w_.end_object();
    }
    w_.end_array();
    w_.key("dropped").value(s_.trace_dropped);
    w_.end_object();
  }

  void warnings() {
    std::vector<Warning> all;
    if (g_clock_kind == ClockKind::kSteady) {
      all.push_back({"CLOCK_FALLBACK",
                     "the CPU reports no invariant time-stamp counter: regions were timed with "
                     "the monotonic clock (steady_clock), which costs more per region"});
    }
    all.insert(all.end(), s_.warnings.begin(), s_.warnings.end());
    for (const std::uint32_t region : by_id_) {
      const auto outside = s_.outside_run_calls.find(region);
      if (outside == s_.outside_run_calls.end()) continue;
      all.push_back({"REGION_OUTSIDE_RUN",
                     "region '" + id(region) + "' was called " + std::to_string(outside->second) +
                         " time(s) on a thread with no open Run; its time is in no run"});
    }
    for (const std::uint32_t region : by_id_) {
      const auto found = s_.region_ends.find(region);
      if (found == s_.region_ends.end()) continue;
      const RegionEnds& ends = found->second;
      if (ends.crossed_run > 0) {
        all.push_back({"REGION_CROSSES_RUN",
                       "region '" + id(region) +
                           "' was opened in a run and ended outside it "
                           "(after that run ended, or in a later run) " +
                           std::to_string(ends.crossed_run) +
                           " time(s); those calls are in no run, and regions entered inside "
                           "them while a later run was open count at that run's top level"});
      }
      if (ends.out_of_order > 0) {
        all.push_back({"REGION_END_MISMATCH",
                       "region '" + id(region) + "' ended " + std::to_string(ends.out_of_order) +
                           " time(s) while a region opened inside it was still open (a "
                           "coroutine suspended inside a region?); each such call is counted "
                           "up to its end, and the regions still open inside it were split "
                           "there: the rest of each is a call under its parent"});
      }
      if (ends.other_thread > 0) {
        all.push_back({"REGION_ENDED_ON_OTHER_THREAD",
                       "region '" + id(region) +
                           "' ended on another thread than the one that "
                           "opened it " +
                           std::to_string(ends.other_thread) +
                           " time(s) (a coroutine resumed elsewhere?); each such call is counted "
                           "on the thread that opened it, up to its end"});
      }
    }
    if (s_.dynamic_names_over_cap > 0) {
      all.push_back({"DYNAMIC_NAMES_CAPPED",
                     "more than " + std::to_string(s_.dynamic_name_cap) +
                         " distinct region names were given at run time; " +
                         std::to_string(s_.dynamic_names_over_cap) +
                         " call(s) with further names are counted as '(other names)'"});
    }
    for (const std::uint32_t region : by_id_) {
      const std::string& name = s_.regions[region].name;
      if (utf8_valid(name)) continue;
      all.push_back({"NAME_NOT_UTF8",
                     "a region name is not valid UTF-8: its other bytes are written as \\xNN ('" +
                         name + "')"});
    }
    if (s_.forks > 0) {
      all.push_back(
          {"FORKED", "the program forked " + std::to_string(s_.forks) +
                         " time(s); a child that recorded runs or regions after the fork wrote "
                         "its own report, named with its pid (probe.json -> probe.<pid>.json)"});
    }
    if (s_.forked_from != 0) {
      std::string message = "this report is of process " + std::to_string(getpid()) +
                            ", forked from process " + std::to_string(s_.forked_from) +
                            ": what was recorded before the fork is in the parent's report";
      if (s_.parent_run_dropped) {
        message +=
            "; the run open at the fork is the parent's, so the child's calls inside it "
            "are not counted here";
      }
      all.push_back({"FORKED_CHILD", message});
    }
    if (g_warmup_runs_refused[0] != '\0') {
      all.push_back({"WARMUP_RUNS_REFUSED", std::string("PERFGATE_PROBE_WARMUP_RUNS=") +
                                                g_warmup_runs_refused +
                                                " is not a count from 0 to 1000000; it was "
                                                "left unset"});
    }
    for (const std::uint32_t thread : all_warmup_threads_) {
      all.push_back({"NO_MEASURED_RUNS",
                     "every run of thread " + std::to_string(thread) +
                         " is a warmup (warmup_runs " + std::to_string(g_warmup_runs.load()) +
                         "), so none of them is in the key averages; run more iterations or "
                         "lower PERFGATE_PROBE_WARMUP_RUNS"});
    }
    std::uint64_t unmatched_work = 0;
    std::uint64_t unmatched_calls = 0;
    for (const auto& [key, pieces] : s_.dispatched) {
      if (matched_dispatched_.count(key) != 0) continue;
      for (const DispatchedWork& work : pieces) {
        ++unmatched_work;
        for (const RunRow& row : work.rows) unmatched_calls += row.calls;
      }
    }
    if (unmatched_work > 0) {
      all.push_back({"DISPATCHED_WITHOUT_RUN",
                     "work on " + std::to_string(unmatched_work) + " thread(s) with " +
                         std::to_string(unmatched_calls) +
                         " region call(s) was done in an AttachedRun for a run that is not in "
                         "the report (still open when it was written, or its process's "
                         "parent's); it is in no run"});
    }
    if (s_.folded.runs + s_.folded.warmups > 0) {
      all.push_back(
          {"RUNS_FOLDED", std::to_string(s_.folded.runs + s_.folded.warmups) +
                              " run(s) after the first " + std::to_string(s_.runs.size()) +
                              " are not listed in runs[]: they are in summary and key_averages (" +
                              std::to_string(s_.folded.warmups) + " of them warmups, left out)"});
    }
    if (s_.unmatched_ends > 0) {
      all.push_back({"REGION_END_WITHOUT_BEGIN",
                     std::to_string(s_.unmatched_ends) +
                         " region end(s) found no open region to end; they were ignored"});
    }
    if (s_.trace_dropped > 0) {
      all.push_back({"TRACE_EVENTS_DROPPED",
                     "the trace buffer was full: " + std::to_string(s_.trace_dropped) +
                         " events are missing from trace"});
    }
    w_.key("warnings").begin_array();
    for (const Warning& warning : all) {
      w_.begin_object();
      w_.key("code").value(warning.code);
      w_.key("message").value(warning.message);
      w_.end_object();
    }
    w_.end_array();
  }

  Snapshot s_;
  double hz_ = 1e9;
  double cost_ticks_ = 0;                       // the probe's own time per region call
  std::vector<std::uint32_t> by_id_;            // region indices ordered by id
  std::vector<Totals> totals_;                  // by region index; runs == 0: in no run
  std::vector<std::size_t> rank_;               // by region index: its position in by_id_
  std::vector<bool> warmup_;                    // by run
  std::set<std::uint32_t> all_warmup_threads_;  // threads whose every run is a warmup
  std::set<std::pair<std::uint32_t, std::uint32_t>> matched_dispatched_;  // runs in the report
  std::vector<std::uint32_t> counted_in_run_;  // by region: the last run mark that saw it
  std::uint32_t current_run_mark_ = 0;
  JsonWriter w_;
};

}  // namespace

std::string render_report(ReportMoment moment) {
  return ReportRenderer(take_snapshot(moment)).render();
}

bool write_report(const std::string& path, ReportMoment moment) {
  const std::string text = render_report(moment);
  // Written beside the report and renamed onto it, so that a reader never sees half of one.
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  const int file = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (file < 0) return false;
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t length = ::write(file, text.data() + written, text.size() - written);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) break;
    written += static_cast<std::size_t>(length);
  }
  const bool closed = ::close(file) == 0;
  // A report that is already there is removed first: ext4 (auto_da_alloc) writes a file's
  // data to disk before a rename replaces another file with it, which made every rerun of
  // a program with the same PERFGATE_PROBE_OUT wait about 0.6 ms for the disk at exit.
  if (closed && written == text.size() && (::unlink(path.c_str()) == 0 || errno == ENOENT) &&
      std::rename(temporary.c_str(), path.c_str()) == 0) {
    return true;
  }
  const int error = errno;  // what failed, for the caller's message; remove() may reset it
  std::remove(temporary.c_str());
  errno = error;
  return false;
}

}  // namespace perfgate::probe::detail
