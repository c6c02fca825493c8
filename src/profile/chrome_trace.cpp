#include "profile/chrome_trace.hpp"

#include <cmath>
#include <map>
#include <set>
#include <string>

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

/// One event per line, written as it is made: a trace of millions of events never becomes
/// a document in memory (the text alone is what the file needs).
void append_event(std::string& out, bool& first, const Json& event) {
  out += first ? "\n" : ",\n";
  first = false;
  out += event.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

std::string chrome_trace(const ProbeReport& report, const std::string& source) {
  if (!report.trace) {
    // Run spans alone would show nothing the Markdown view does not; a trace needs events.
    throw Error(ExitCode::kDataError,
                source +
                    ": trace: no trace events: the report was written without tracing. Run the "
                    "program with PERFGATE_PROBE_TRACE=1 and export its new report");
  }
  // Each thread under its own program's pid: a merged report of several processes shows
  // one process track per program, as the processes ran.
  std::map<long long, const ThreadInfo*> threads;
  for (const auto& thread : report.threads) threads[thread.thread_index] = &thread;
  for (const auto& event : report.trace->events) threads.emplace(event.thread_index, nullptr);
  const auto pid_of = [&](long long thread) { return report.thread_target(thread).pid; };

  std::string out = "{\"traceEvents\": [";
  bool first = true;
  std::set<long long> named;
  const auto name_process = [&](const ProbeTarget& target) {
    if (named.insert(target.pid).second) {
      append_event(out, first, name_event("process_name", target.pid, 0, target.process_name));
    }
  };
  name_process(report.target);
  for (const auto& merged : report.targets) name_process(merged.target);
  for (const auto& [thread, info] : threads) {
    // The track already sits under its process: the plain thread name is enough.
    const std::string name =
        info != nullptr && !info->name.empty() ? info->name : "thread " + std::to_string(thread);
    append_event(out, first, name_event("thread_name", pid_of(thread), thread, name));
  }
  for (const auto& event : report.trace->events) {
    // The reader has checked that every traced region is described in regions[].
    const RegionInfo& region = *report.region(event.region_id);
    append_event(out, first,
                 {{"name", region.name},
                  {"cat", "region"},
                  {"ph", "X"},
                  {"ts", whole_nanoseconds(event.start_us)},
                  {"dur", whole_nanoseconds(event.duration_us)},
                  {"pid", pid_of(event.thread_index)},
                  {"tid", event.thread_index},
                  {"args", {{"region_id", event.region_id}}}});
  }
  out += "\n], \"displayTimeUnit\": \"ns\"}\n";
  return out;
}

}  // namespace perfgate::profile
