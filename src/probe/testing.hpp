#pragma once
// Hooks for the probe's own tests: an injected clock makes a report exact, and a reset
// starts each test from an empty probe. Not installed; programs never need these.

#include <string>

#include "probe/report_writer.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

/// Times everything with `clock` from now on (reported as "steady_clock", no fallback
/// warning), or chooses the real clock again when both functions are null.
void use_clock_for_testing(TestClock clock);
/// Uses the monotonic clock as if the CPU had no invariant TSC (CLOCK_FALLBACK).
void use_fallback_clock_for_testing();

/// Forgets all regions, runs, trace events and ended threads; the calling thread becomes
/// thread 0. No other thread may be using the probe.
void reset_for_testing();

/// Keeps at most `cap` trace events in the report (kTraceEvents after a reset).
void set_trace_cap_for_testing(std::size_t cap);

/// Keeps at most `cap` runs in detail (kRunDetailCap after a reset).
void set_run_detail_cap_for_testing(std::size_t cap);

/// Keeps at most `cap` distinct run-time names (kMaxDynamicNames after a reset).
void set_dynamic_name_cap_for_testing(std::size_t cap);

}  // namespace perfgate::probe::detail
