#pragma once
// The clock regions are timed with: the invariant time-stamp counter where the CPU has one
// (one instruction, no system call), the monotonic clock otherwise. Ticks become
// microseconds only when the report is written, with a rate calibrated against the
// monotonic clock over the whole time since the first probe use.

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PERFGATE_PROBE_HAS_TSC 1
#endif

namespace perfgate::probe::detail {

enum class ClockKind : std::uint8_t { kTsc, kSteady, kTest };

/// A clock that tests install so that reports are exact: both functions return nanoseconds.
struct TestClock {
  std::uint64_t (*wall_ns)();
  std::uint64_t (*cpu_ns)();
};

extern ClockKind g_clock_kind;
extern TestClock g_test_clock;

inline std::uint64_t steady_ns() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

/// One wall-clock reading in ticks of the active clock.
inline std::uint64_t now_ticks() noexcept {
#ifdef PERFGATE_PROBE_HAS_TSC
  if (g_clock_kind == ClockKind::kTsc) [[likely]]
    return __rdtsc();
#endif
  if (g_clock_kind == ClockKind::kSteady) return steady_ns();
  return g_test_clock.wall_ns();
}

/// Process CPU time (user + system) in nanoseconds; a system call, so only at run edges.
std::uint64_t process_cpu_ns() noexcept;

/// Chooses the clock: the TSC when CPUID reports it invariant (leaf 0x80000007, EDX bit 8).
void choose_clock() noexcept;

/// Ticks per second of the active clock, measured against steady_clock from `anchor_ticks`
/// / `anchor_steady_ns` (taken at the first probe use) to now; waits until at least 20 ms
/// have passed so that a short-lived program still gets a precise rate.
double ticks_per_second(std::uint64_t anchor_ticks, std::uint64_t anchor_steady_ns) noexcept;

}  // namespace perfgate::probe::detail
