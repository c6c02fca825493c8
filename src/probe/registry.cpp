#include "probe/registry.hpp"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "perfgate/probe.hpp"
#include "probe/count_marks.hpp"
#include "probe/json_writer.hpp"
#include "probe/report_writer.hpp"
#include "probe/thread_state.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

std::atomic<bool> g_enabled{true};
std::atomic<unsigned> g_region_extras{0};
std::atomic<unsigned> g_warmup_runs{kWarmupRunsUnset};
char g_warmup_runs_refused[64] = {};
bool g_disabled_by_environment = false;

namespace {

/// A name as one step of a region id, one to one, so that ids are unique by construction:
/// - ids are paths joined by '/', so a '/' inside a name (and the '%' that escapes it) is
///   percent-encoded; otherwise "a/b" entered at the top would collide with "b" in "a";
/// - a byte that is not UTF-8 is percent-encoded too: the report's strings show such a
///   byte as the text `\xff`, which would collide with a name holding that text;
/// - the empty name gets a visible id, `(unnamed)`, so a name that is that text has its
///   '(' encoded.
std::string id_step(const std::string& name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  if (name.empty()) return "(unnamed)";
  std::string step;
  const auto encode = [&step](unsigned char byte) {
    step += '%';
    step += kHex[byte >> 4];
    step += kHex[byte & 0xf];
  };
  for (std::size_t i = 0; i < name.size();) {
    const auto byte = static_cast<unsigned char>(name[i]);
    if (byte >= 0x80) {
      const std::size_t length = utf8_sequence_length(name, i);
      if (length == 0) {
        encode(byte);
        ++i;
      } else {
        step.append(name, i, length);
        i += length;
      }
      continue;
    }
    if (byte == '%' || byte == '/' || (i == 0 && name == "(unnamed)")) {
      encode(byte);
    } else {
      step += name[i];
    }
    ++i;
  }
  return step;
}

}  // namespace

std::uint32_t Registry::region_for(std::uint32_t parent, std::uint32_t site) {
  const std::string& name = sites[site].name;
  const auto [it, inserted] =
      region_by_path.try_emplace({parent, name}, static_cast<std::uint32_t>(regions.size()));
  if (inserted) {
    RegionInfo info;
    info.name = name;
    info.name_id =
        name_ids.try_emplace(name, static_cast<std::uint32_t>(name_ids.size())).first->second;
    info.parent = parent;
    info.site = site;
    if (parent == kNoRegion) {
      info.id = id_step(name);
    } else {
      info.id = regions[parent].id + "/" + id_step(name);
      info.depth = regions[parent].depth + 1;
    }
    regions.push_back(std::move(info));
  }
  return it->second;
}

void Registry::keep_run(RunRecord run, ThreadState& state) {
  state.ended_runs = run.number;
  const auto work = dispatched.find({run.thread_index, run.number});
  if (runs.size() < run_detail_cap) {
    runs.push_back(std::move(run));
    return;  // its work stays in `dispatched` for the report
  }
  if (state.first_folded_run == 0) state.first_folded_run = run.number;
  // Beyond the cap, with no count set, a thread's first run is its warmup even if no run
  // follows it: its rows are folded now, so it cannot wait to see.
  if (is_warmup_before_the_end(run.number)) {
    ++folded.warmups;
  } else {
    static const std::vector<DispatchedWork> kNone;
    folded.add(run, work != dispatched.end() ? work->second : kNone, regions);
  }
  if (work != dispatched.end()) dispatched.erase(work);
}

namespace {
bool longer(const TraceEvent& a, const TraceEvent& b) {
  return a.end_ticks - a.start_ticks > b.end_ticks - b.start_ticks;
}
}  // namespace

void Registry::keep_trace(const TraceEvent& event) {
  if (trace.size() < trace_cap) {
    trace.push_back(event);
    if (trace.size() == trace_cap) std::make_heap(trace.begin(), trace.end(), longer);
    return;
  }
  ++trace_dropped;
  if (trace.empty() || !longer(event, trace.front())) return;
  std::pop_heap(trace.begin(), trace.end(), longer);
  trace.back() = event;
  std::push_heap(trace.begin(), trace.end(), longer);
}

void Registry::keep_dispatched(DispatchedWork work) {
  const ThreadState* owner = nullptr;
  for (const auto& state : threads) {
    if (state->index == work.owner_thread) owner = state.get();
  }
  if (owner != nullptr && owner->first_folded_run != 0 &&
      work.owner_run >= owner->first_folded_run && work.owner_run <= owner->ended_runs) {
    // Its run is folded already: its time still counts, as no further run.
    if (!is_warmup_before_the_end(work.owner_run)) folded.add_late(work);
    return;
  }
  auto& pieces = dispatched[{work.owner_thread, work.owner_run}];
  for (DispatchedWork& piece : pieces) {
    if (piece.thread_index != work.thread_index) continue;
    // The same worker again (an AttachedRun per task): rows merge, so a run that hands out
    // a million tasks keeps one entry per worker and region.
    for (const RunRow& row : work.rows) {
      const auto same = std::find_if(piece.rows.begin(), piece.rows.end(),
                                     [&](const RunRow& r) { return r.region == row.region; });
      if (same == piece.rows.end()) {
        piece.rows.push_back(row);
      } else {
        same->add(row);
      }
    }
    return;
  }
  pieces.push_back(std::move(work));
}

namespace {

/// PERFGATE_PROBE_WARMUP_RUNS: a count of at most a million. Anything else is refused
/// with one line on stderr and a report warning, not read as some number it resembles.
void read_warmup_runs() {
  const char* text = std::getenv("PERFGATE_PROBE_WARMUP_RUNS");
  if (text == nullptr || *text == '\0') return;
  unsigned long count = 0;
  bool valid = std::strlen(text) <= 7;
  for (const char* c = text; valid && *c != '\0'; ++c) {
    valid = *c >= '0' && *c <= '9';
    count = count * 10 + static_cast<unsigned long>(*c - '0');
  }
  if (valid && count <= 1000000) {
    g_warmup_runs.store(static_cast<unsigned>(count));
    return;
  }
  std::snprintf(g_warmup_runs_refused, sizeof g_warmup_runs_refused, "%s", text);
  std::fprintf(stderr,
               "perfgate-probe: PERFGATE_PROBE_WARMUP_RUNS=%s is not a count from 0 to "
               "1000000; it is left unset (the first run of each thread is a warmup when "
               "runs follow it)\n",
               text);
}

bool env_is(const char* name, const char* value) {
  const char* set = std::getenv(name);
  return set != nullptr && std::strcmp(set, value) == 0;
}

/// A forked child writes a report of its own only when it recorded something after the
/// fork: a child that only execs or exits would otherwise leave an empty file per fork.
bool forked_child_recorded_nothing() {
  Registry& r = registry();
  ThreadState* const caller = this_thread_state_if_any();
  const std::lock_guard lock(r.mutex);
  if (r.forked_from == 0) return false;
  if (caller != nullptr) caller->hand_over(r);
  return r.runs.empty() && r.folded.runs == 0 && r.dispatched.empty() &&
         r.outside_run_calls.empty() && r.region_ends.empty();
}

// Run from the program's .fini_array, after the handlers exit() runs (atexit and C++
// static destructors): so regions that those handlers enter are in the report, and start-up
// registers nothing (atexit's first call faulted in a page of libc, about 20 µs of a small
// program's report). It runs when main returns or exit() is called (the probe's shared
// library stays loaded after dlclose()); not after _exit(), abort() or a crash.
[[gnu::destructor]] void write_report_at_exit() {
  const char* path = std::getenv("PERFGATE_PROBE_OUT");
  if (path == nullptr || *path == '\0') return;
  if (forked_child_recorded_nothing()) return;
  const std::string where = report_path_for_this_process(path);
  if (!write_report(where, ReportMoment::kExit)) {
    // One line, so that a measured program's own output stays readable; nothing else can
    // tell the user that the report they asked for is missing.
    const int error = errno;
    std::fprintf(stderr, "perfgate-probe: cannot write the report to %s (PERFGATE_PROBE_OUT): %s\n",
                 where.c_str(), std::strerror(error));
  }
}

// fork(): the child is a process of its own. It keeps the forking thread's open regions
// (its code goes on inside them) but none of what the parent recorded, which stays in the
// parent's report, and no other thread's state (those threads do not exist in the child).
// The registry lock is held across the fork so that the child never inherits it locked.
void before_fork() {
  registry().mutex.lock();
}

void after_fork_in_parent() {
  Registry& r = registry();
  ++r.forks;
  r.mutex.unlock();
}

void after_fork_in_child() {
  Registry& r = registry();
  ThreadState* const caller = this_thread_state_if_any();
  r.forked_from = static_cast<std::int64_t>(getppid());
  r.forks = 0;
  r.runs.clear();
  r.folded = RunFold{};
  r.dispatched.clear();
  r.outside_run_calls.clear();
  r.region_ends.clear();
  r.unmatched_ends = 0;
  r.trace.clear();
  r.trace_dropped = 0;
  r.dynamic_names_over_cap = 0;
  r.threads.erase(std::remove_if(r.threads.begin(), r.threads.end(),
                                 [&](const auto& state) { return state.get() != caller; }),
                  r.threads.end());
  r.parent_run_dropped = caller != nullptr && caller->run_open();
  if (caller != nullptr) caller->forget_recorded();
  r.mutex.unlock();
}

Registry* make_registry() {
  auto* r = new Registry;
  r->trace_cap = kTraceEvents;
  if (env_is("PERFGATE_PROBE", "0")) {
    g_enabled.store(false);
    g_disabled_by_environment = true;
  }
  if (env_is("PERFGATE_PROBE_TRACE", "1")) set_recording(kRecordTrace, true);
  if (env_is("PERFGATE_PROBE_CPU", "1")) set_recording(kRecordCpu, true);
  if (count_marks_wanted()) set_recording(kRecordCount, true);
  read_warmup_runs();
  choose_clock();
  r->anchor_steady_ns = steady_ns();
  r->anchor_ticks = now_ticks();
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
  return r;
}

// Made while the program starts, so that PERFGATE_PROBE=0 applies before the first region
// and a program that never reaches a region still leaves a report.
[[maybe_unused]] const Registry& g_made_at_start = registry();

}  // namespace

namespace {

std::atomic<Registry*> g_registry{nullptr};

/// Makes the registry once, whichever thread asks first; the others wait for it. Not a
/// function-local static: its guard (__cxa_guard_acquire) is a page of libstdc++ that a
/// small program would fault in for this alone.
[[gnu::noinline, gnu::cold]] Registry& make_registry_once() {
  static std::atomic<bool> making{false};
  bool first = false;
  if (making.compare_exchange_strong(first, true)) {
    g_registry.store(make_registry(), std::memory_order_release);
  } else {
    while (g_registry.load(std::memory_order_acquire) == nullptr) sched_yield();
  }
  return *g_registry.load(std::memory_order_acquire);
}

}  // namespace

Registry& registry() {
  Registry* const made = g_registry.load(std::memory_order_acquire);
  if (__builtin_expect(made != nullptr, 1)) return *made;
  return make_registry_once();
}

std::uint32_t register_site(const char* name, const char* file, int line, const char* function) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.sites.push_back(Site{name, file, line, function});
  return static_cast<std::uint32_t>(r.sites.size() - 1);
}

std::uint32_t Registry::dynamic_site_for(const std::string& name, const std::string& file, int line,
                                         const std::string& function) {
  const auto key = std::make_tuple(name, file, line);
  if (const auto found = dynamic_sites.find(key); found != dynamic_sites.end()) {
    return found->second;
  }
  if (dynamic_sites.size() >= dynamic_name_cap) {
    // Bounded: a program that names regions after its data (a path, a user id) would
    // otherwise grow the report and the probe's memory without end.
    ++dynamic_names_over_cap;
    if (!overflow_site) {
      sites.push_back(Site{"(other names)", "", 0, ""});
      overflow_site = static_cast<std::uint32_t>(sites.size() - 1);
    }
    return *overflow_site;
  }
  sites.push_back(Site{name, file, line, function});
  const auto site = static_cast<std::uint32_t>(sites.size() - 1);
  dynamic_sites.emplace(key, site);
  return site;
}

std::string report_path_for_this_process(const std::string& path) {
  const Registry& r = registry();
  if (r.forked_from == 0) return path;
  const std::string pid = std::to_string(getpid());
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
      dot == (slash == std::string::npos ? 0 : slash + 1)) {
    return path + "." + pid;
  }
  return path.substr(0, dot) + "." + pid + path.substr(dot);
}

}  // namespace perfgate::probe::detail

namespace perfgate::probe {

void set_enabled(bool on) noexcept {
  detail::g_enabled.store(on);
}
bool enabled() noexcept {
  return detail::g_enabled.load();
}
void set_trace(bool on) noexcept {
  detail::set_recording(detail::kRecordTrace, on);
}
void set_cpu_time(bool on) noexcept {
  detail::set_recording(detail::kRecordCpu, on);
}
void set_warmup_runs(unsigned count) noexcept {
  detail::g_warmup_runs.store(count);
}

void set_thread_name(std::string_view name) {
  detail::ThreadState& state = detail::this_thread_state();
  detail::Registry& r = detail::registry();
  const std::lock_guard lock(r.mutex);
  state.name = std::string(name);
}

bool flush(const std::string& path) {
  return detail::write_report(path, detail::ReportMoment::kFlush);
}

}  // namespace perfgate::probe
