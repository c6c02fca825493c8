#include "probe/report_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <map>
#include <mutex>

#include "perfgate/probe.hpp"
#include "probe/json_writer.hpp"
#include "probe/registry.hpp"
#include "probe/thread_state.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {
namespace {

struct Warning {
  std::string code;
  std::string message;
};

struct Snapshot {
  std::vector<Site> sites;
  std::vector<RegionInfo> regions;
  std::vector<RunRecord> runs;
  std::map<std::uint32_t, std::uint64_t> outside_run_calls;
  std::vector<TraceEvent> trace;
  std::uint64_t trace_dropped = 0;
  std::uint64_t anchor_ticks = 0;
  std::uint64_t anchor_steady_ns = 0;
  std::vector<std::pair<std::uint32_t, std::string>> threads;
  std::vector<Warning> warnings;  // about threads: open runs and regions, lost data
};

Snapshot take_snapshot(ReportMoment moment) {
  Registry& r = registry();
  ThreadState* const caller = this_thread_state_if_any();
  const std::lock_guard lock(r.mutex);
  if (caller != nullptr) caller->hand_over(r);
  Snapshot s{r.sites,
             r.regions,
             r.runs,
             r.outside_run_calls,
             r.trace,
             r.trace_dropped,
             r.anchor_ticks,
             r.anchor_steady_ns,
             {},
             {}};
  for (const auto& state : r.threads) {
    s.threads.emplace_back(state->index, state->name);
    const std::string thread = std::to_string(state->index);
    if (state.get() != caller && !state->ended) {
      // A running thread's own data cannot be read without a lock on its hot path.
      if (moment == ReportMoment::kExit) {
        s.warnings.push_back(
            {"THREAD_NOT_FLUSHED", "thread " + thread + " ('" + state->name +
                                       "') was still running when the report was written at "
                                       "exit: what it recorded after its last finished run "
                                       "is missing"});
      }
      continue;
    }
    if (state->run_open()) {
      s.warnings.push_back({"RUN_OPEN_AT_EXIT", "a run on thread " + thread +
                                                    " was still open when the report was "
                                                    "written; it is not counted"});
    }
    for (const std::uint32_t region : state->open_regions()) {
      s.warnings.push_back({"REGION_OPEN_AT_EXIT", "region '" + r.regions[region].id +
                                                       "' on thread " + thread +
                                                       " was still open when the report was "
                                                       "written; that call is not counted"});
    }
  }
  return s;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string executable_path() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

struct Totals {
  std::uint64_t calls = 0;
  std::uint64_t wall_ticks = 0;
  std::uint64_t self_ticks = 0;
  std::uint64_t runs = 0;
};

class ReportRenderer {
 public:
  explicit ReportRenderer(Snapshot s) : s_(std::move(s)) {
    hz_ = ticks_per_second(s_.anchor_ticks, s_.anchor_steady_ns);
    by_id_.resize(s_.regions.size());
    for (std::uint32_t i = 0; i < s_.regions.size(); ++i) by_id_[i] = i;
    std::sort(by_id_.begin(), by_id_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return id(a) < id(b); });
  }

  std::string render() {
    w_.begin_object();
    w_.key("schema_version").value(1);
    w_.key("created_at").value(utc_now());
    w_.key("perfgate_version").value(PERFGATE_PROBE_VERSION);
    config();
    target();
    runs();
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
  bool tracing() const { return g_trace.load() || !s_.trace.empty() || s_.trace_dropped > 0; }

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
    w_.key("trace").value(tracing());
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
    w_.key("runs").begin_array();
    for (std::size_t i = 0; i < s_.runs.size(); ++i) run(i, s_.runs[i]);
    w_.end_array();
  }

  void run(std::size_t run_index, const RunRecord& run) {
    // Two call sites may share a region id: their rows add up.
    std::map<std::string, RunRow> rows;
    for (const RunRow& row : run.rows) {
      RunRow& sum = rows.try_emplace(id(row.region), RunRow{row.region}).first->second;
      sum.calls += row.calls;
      sum.wall_ticks += row.wall_ticks;
      sum.self_ticks += row.self_ticks;
    }
    for (const auto& [name, row] : rows) {
      Totals& t = totals_[row.region];
      t.calls += row.calls;
      t.wall_ticks += row.wall_ticks;
      t.self_ticks += row.self_ticks;
      ++t.runs;
    }
    const double wall = us(run.wall_ticks);
    const auto fraction = [&](double part) { return wall > 0 ? part / wall : 0.0; };
    w_.begin_object();
    w_.key("run_index").value(static_cast<std::uint64_t>(run_index));
    w_.key("thread_index").value(static_cast<std::uint64_t>(run.thread_index));
    w_.key("timing").begin_object();
    w_.key("wall_time_us").value(wall);
    w_.key("cpu_time_us").value(static_cast<double>(run.cpu_ns) / 1e3);
    w_.end_object();
    w_.key("regions").begin_array();
    for (const auto& [name, row] : rows) {
      w_.begin_object();
      w_.key("region_id").value(name);
      w_.key("calls").value(row.calls);
      w_.key("wall_time_us").value(us(row.wall_ticks));
      w_.key("self_wall_time_us").value(us(row.self_ticks));
      w_.key("wall_time_fraction").value(fraction(us(row.wall_ticks)));
      w_.end_object();
    }
    w_.end_array();
    const double residual = std::max(0.0, wall - us(run.top_level_ticks));
    w_.key("residual").begin_object();
    w_.key("wall_time_us").value(residual);
    w_.key("wall_time_fraction").value(fraction(residual));
    w_.end_object();
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

  void key_average_view(const char* view, std::uint64_t Totals::*sort_key) {
    std::vector<std::uint32_t> order;
    for (const std::uint32_t region : by_id_) {
      if (totals_.count(region) != 0) order.push_back(region);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return totals_[a].*sort_key > totals_[b].*sort_key;
    });
    constexpr std::size_t kRowsPerView = 20;
    if (order.size() > kRowsPerView) order.resize(kRowsPerView);
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

  void key_averages() {
    w_.key("key_averages").begin_object();
    key_average_view("self_time", &Totals::self_ticks);
    key_average_view("total_time", &Totals::wall_ticks);
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
  std::vector<std::uint32_t> by_id_;  // region indices ordered by id
  std::map<std::uint32_t, Totals> totals_;
  JsonWriter w_;
};

}  // namespace

std::string render_report(ReportMoment moment) {
  return ReportRenderer(take_snapshot(moment)).render();
}

bool write_report(const std::string& path, ReportMoment moment) {
  const std::string text = render_report(moment);
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return false;
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace perfgate::probe::detail
