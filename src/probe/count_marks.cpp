#include "probe/count_marks.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "probe/registry.hpp"

// The client requests are macros of Valgrind's own headers (package valgrind); without
// them the probe builds with marking off.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>
#define PERFGATE_PROBE_HAS_CALLGRIND 1
#else
#define PERFGATE_PROBE_HAS_CALLGRIND 0
#endif

namespace perfgate::probe::detail {
namespace {

std::atomic<unsigned long> g_marks{0};
std::atomic<CountMarkSink> g_sink{nullptr};

void dump(const std::string& name) {
  if (const CountMarkSink sink = g_sink.load(std::memory_order_relaxed)) {
    sink(name);
    return;
  }
#if PERFGATE_PROBE_HAS_CALLGRIND
  CALLGRIND_DUMP_STATS_AT(name.c_str());
#else
  (void)name;
#endif
}

}  // namespace

void set_count_mark_sink_for_testing(CountMarkSink sink) noexcept {
  g_sink.store(sink);
  g_marks.store(0);
}

bool running_on_valgrind() noexcept {
#if PERFGATE_PROBE_HAS_CALLGRIND
  return RUNNING_ON_VALGRIND != 0;
#else
  return false;
#endif
}

void count_mark(const std::string& text) noexcept {
  const unsigned long mark = g_marks.fetch_add(1, std::memory_order_relaxed);
  if (mark > kMaxCountMarks) return;
  try {
    if (mark == kMaxCountMarks) {
      dump("perfgate-probe capped " + std::to_string(kMaxCountMarks));
      // Marking stops here, so region calls go back to the common path instead of making
      // marks nobody sends (calls opened before still end through count_mark, and return).
      set_recording(kRecordCount, false);
    } else {
      dump("perfgate-probe " + text);
    }
  } catch (...) {
    // Out of memory for a string: one boundary unmarked, which the reader tolerates.
  }
}

}  // namespace perfgate::probe::detail
