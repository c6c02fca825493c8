#include "profile/chrome_trace.hpp"

#include <cmath>
#include <set>

#include "model/error.hpp"

namespace perfgate::profile {
namespace {

/// Microseconds with whole nanoseconds: the clock's own resolution, without the binary
/// noise of a double printed to 17 digits.
double whole_nanoseconds(double microseconds) {
  return std::round(microseconds * 1000) / 1000;
}

Json name_event(const char* kind, long long pid, long long tid, const std::string& name) {
  return {{"name", kind}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

Json chrome_trace(const ProbeReport& report, const std::string& source) {
  if (!report.trace) {
    // Run spans alone would show nothing the Markdown view does not; a trace needs events.
    throw Error(ExitCode::kDataError,
                source +
                    ": trace: no trace events: the report was written without tracing. Run the "
                    "program with PERFGATE_PROBE_TRACE=1 and export its new report");
  }
  // Each thread under its own program's pid: a merged report of several processes shows
  // one process track per program, as the processes ran.
  std::set<long long> threads;
  for (const auto& thread : report.threads) threads.insert(thread.thread_index);
  for (const auto& event : report.trace->events) threads.insert(event.thread_index);
  const auto pid_of = [&](long long thread) { return report.thread_target(thread).pid; };

  Json events = Json::array();
  std::set<long long> named;
  const auto name_process = [&](const ProbeTarget& target) {
    if (named.insert(target.pid).second) {
      events.push_back(name_event("process_name", target.pid, 0, target.process_name));
    }
  };
  name_process(report.target);
  for (const auto& merged : report.targets) name_process(merged.target);
  for (const long long thread : threads) {
    const ThreadInfo* info = nullptr;
    for (const auto& t : report.threads) {
      if (t.thread_index == thread) info = &t;
    }
    // The track already sits under its process: the plain thread name is enough.
    const std::string name =
        info != nullptr && !info->name.empty() ? info->name : "thread " + std::to_string(thread);
    events.push_back(name_event("thread_name", pid_of(thread), thread, name));
  }
  for (const auto& event : report.trace->events) {
    // The reader has checked that every traced region is described in regions[].
    const RegionInfo& region = *report.region(event.region_id);
    events.push_back({{"name", region.name},
                      {"cat", "region"},
                      {"ph", "X"},
                      {"ts", whole_nanoseconds(event.start_us)},
                      {"dur", whole_nanoseconds(event.duration_us)},
                      {"pid", pid_of(event.thread_index)},
                      {"tid", event.thread_index},
                      {"args", {{"region_id", event.region_id}}}});
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace perfgate::profile
