#include "probe/tick_clock.hpp"

#include <ctime>

#ifdef PERFGATE_PROBE_HAS_TSC
#include <cpuid.h>
#endif

namespace perfgate::probe::detail {

ClockKind g_clock_kind = ClockKind::kSteady;
TestClock g_test_clock{nullptr, nullptr};

std::uint64_t process_cpu_ns() noexcept {
  if (g_clock_kind == ClockKind::kTest) return g_test_clock.cpu_ns();
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

void choose_clock() noexcept {
#ifdef PERFGATE_PROBE_HAS_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0x80000000u, nullptr) >= 0x80000007u &&
      __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) && (edx & (1u << 8)) != 0) {
    g_clock_kind = ClockKind::kTsc;
    return;
  }
#endif
  g_clock_kind = ClockKind::kSteady;
}

double ticks_per_second(std::uint64_t anchor_ticks, std::uint64_t anchor_steady_ns) noexcept {
  if (g_clock_kind != ClockKind::kTsc) return 1e9;
  constexpr std::uint64_t kMinimumSpanNs = 20'000'000;
  std::uint64_t steady = steady_ns();
  while (steady - anchor_steady_ns < kMinimumSpanNs) steady = steady_ns();
  const std::uint64_t ticks = now_ticks();
  return static_cast<double>(ticks - anchor_ticks) * 1e9 /
         static_cast<double>(steady - anchor_steady_ns);
}

}  // namespace perfgate::probe::detail
