#pragma once
// Region boundaries marked for Valgrind's callgrind in a counted run: perfgate runs the
// program under callgrind with PERFGATE_COUNT_REGIONS=1, and the probe then asks for a dump
// (CALLGRIND_DUMP_STATS_AT) at each run and region boundary, named after it. Each dump holds
// the instructions since the one before, so perfgate adds up a region's instructions from
// the dumps between its marks (src/count/region_counts.hpp gives the marks' grammar).
// Outside a counted run under callgrind nothing is marked, and a timed run never pays more
// than the bit that routes region calls here.
#include <cstdlib>
#include <cstring>
#include <string>

namespace perfgate::probe::detail {

/// Dumps are not free (about 0.1 ms and a few hundred bytes each): a process marks at most
/// this many boundaries, then one last "capped" mark, and turns marking off.
inline constexpr unsigned long kMaxCountMarks = 50000;

/// Whether this process runs on Valgrind (and the probe was built with its headers).
bool running_on_valgrind() noexcept;

/// Whether this process is a counted run under callgrind that asked for marks
/// (PERFGATE_COUNT_REGIONS=1 and running on Valgrind). Read when the probe starts. The
/// variable is read here, inline: the Valgrind check's code lies apart from the rest the
/// probe runs, and a page of it faulted in costs a small program about 20 µs.
inline bool count_marks_wanted() noexcept {
  const char* asked = std::getenv("PERFGATE_COUNT_REGIONS");
  return asked != nullptr && std::strcmp(asked, "1") == 0 && running_on_valgrind();
}

/// Sends marks to `sink` instead of callgrind, and starts the count toward the cap again
/// (tests; null: callgrind again).
using CountMarkSink = void (*)(const std::string& name);
void set_count_mark_sink_for_testing(CountMarkSink sink) noexcept;

/// Marks one boundary: a dump named "perfgate-probe <text>". Thread-safe.
void count_mark(const std::string& text) noexcept;

/// count_mark(text()), where making the text may throw (out of memory): then the boundary
/// goes unmarked, which the reader tolerates (an entry without its end is not counted).
template <class MakeText>
void count_mark_with(MakeText&& text) noexcept {
  try {
    count_mark(text());
  } catch (...) {
  }
}

}  // namespace perfgate::probe::detail
