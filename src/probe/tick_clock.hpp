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
  if (__builtin_expect(g_clock_kind == ClockKind::kTsc, 1)) return __rdtsc();
#endif
  if (g_clock_kind == ClockKind::kSteady) return steady_ns();
  return g_test_clock.wall_ns();
}

/// Process CPU time (user + system) in nanoseconds; a system call, so only at run edges.
std::uint64_t process_cpu_ns() noexcept;
/// The calling thread's CPU time in nanoseconds; a system call, read per region only while
/// per-region CPU time is on (set_cpu_time, PERFGATE_PROBE_CPU=1).
std::uint64_t thread_cpu_ns() noexcept;

/// Chooses the clock: the TSC when CPUID reports it invariant (leaf 0x80000007, EDX bit 8).
void choose_clock() noexcept;

/// Ticks per second of the active clock. For the TSC: the rate the processor or the
/// hypervisor states (stated_tsc_hz) where one does; else measured against steady_clock
/// from `anchor_ticks` / `anchor_steady_ns` (taken at the first probe use) to now. It never
/// waits long: at most until kMinimumSpanNs have passed since the anchor, so a program
/// that writes its report pays microseconds, not the 20 ms an earlier version waited.
double ticks_per_second(std::uint64_t anchor_ticks, std::uint64_t anchor_steady_ns) noexcept;

/// The shortest span a rate is measured over: the two clock readings at each end are ~50 ns
/// apart at worst, so the rate is within 0.25%, and every region of a program that lived
/// this briefly is shorter than the span, so its error is under 50 ns.
inline constexpr std::uint64_t kMinimumSpanNs = 20'000;

/// What CPUID says about the TSC's rate (the leaves that state one, as Linux reads them).
struct CpuidTscLeaves {
  unsigned max_basic_leaf = 0;       ///< leaf 0's EAX
  unsigned leaf15_eax = 0;           ///< the TSC / crystal ratio's denominator
  unsigned leaf15_ebx = 0;           ///< its numerator
  unsigned leaf15_ecx = 0;           ///< the crystal's frequency in Hz (0: not stated)
  bool hypervisor = false;           ///< leaf 1's ECX bit 31
  unsigned max_hypervisor_leaf = 0;  ///< leaf 0x40000000's EAX
  unsigned hypervisor_tsc_khz = 0;   ///< leaf 0x40000010's EAX (VMware's and KVM's convention)
};

/// The TSC rate in Hz the leaves state: leaf 0x15's crystal × ratio, else the hypervisor's
/// leaf 0x40000010; 0 when neither states one (then the rate is measured).
double tsc_hz_from_cpuid(const CpuidTscLeaves& leaves) noexcept;

/// This processor's stated TSC rate (tsc_hz_from_cpuid of its leaves), read once; 0 where
/// none is stated or the processor has no TSC.
double stated_tsc_hz() noexcept;

/// The rate of a clock that advanced `ticks` while steady_clock advanced `ns`.
double measured_hz(std::uint64_t ticks, std::uint64_t ns) noexcept;

}  // namespace perfgate::probe::detail
