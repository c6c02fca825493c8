#include "probe/tick_clock.hpp"

#include <ctime>

#ifdef PERFGATE_PROBE_HAS_TSC
#include <cpuid.h>
#endif

namespace perfgate::probe::detail {

ClockKind g_clock_kind = ClockKind::kSteady;
TestClock g_test_clock{nullptr, nullptr};

namespace {
std::uint64_t cpu_clock_ns(clockid_t clock) noexcept {
  if (g_clock_kind == ClockKind::kTest) return g_test_clock.cpu_ns();
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}
}  // namespace

std::uint64_t process_cpu_ns() noexcept {
  return cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

std::uint64_t thread_cpu_ns() noexcept {
  return cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

void choose_clock() noexcept {
#ifdef PERFGATE_PROBE_HAS_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) >= 0x80000007u &&
      __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) != 0 && (edx & (1u << 8)) != 0) {
    g_clock_kind = ClockKind::kTsc;
    return;
  }
#endif
  g_clock_kind = ClockKind::kSteady;
}

double tsc_hz_from_cpuid(const CpuidTscLeaves& leaves) noexcept {
  if (leaves.max_basic_leaf >= 0x15 && leaves.leaf15_eax != 0 && leaves.leaf15_ebx != 0 &&
      leaves.leaf15_ecx != 0) {
    return static_cast<double>(leaves.leaf15_ecx) * static_cast<double>(leaves.leaf15_ebx) /
           static_cast<double>(leaves.leaf15_eax);
  }
  if (leaves.hypervisor && leaves.max_hypervisor_leaf >= 0x40000010u &&
      leaves.hypervisor_tsc_khz != 0) {
    return static_cast<double>(leaves.hypervisor_tsc_khz) * 1000.0;
  }
  return 0;
}

double stated_tsc_hz() noexcept {
#ifdef PERFGATE_PROBE_HAS_TSC
  static const double hz = [] {
    CpuidTscLeaves leaves;
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    leaves.max_basic_leaf = __get_cpuid_max(0, nullptr);
    if (leaves.max_basic_leaf >= 0x15) {
      __cpuid_count(0x15, 0, eax, ebx, ecx, edx);
      leaves.leaf15_eax = eax;
      leaves.leaf15_ebx = ebx;
      leaves.leaf15_ecx = ecx;
    }
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0) leaves.hypervisor = (ecx & (1u << 31)) != 0;
    if (leaves.hypervisor) {
      __cpuid(0x40000000u, eax, ebx, ecx, edx);
      leaves.max_hypervisor_leaf = eax;
      if (eax >= 0x40000010u && eax < 0x40010000u) {  // a sane maximum, not garbage
        __cpuid(0x40000010u, eax, ebx, ecx, edx);
        leaves.hypervisor_tsc_khz = eax;
      }
    }
    return tsc_hz_from_cpuid(leaves);
  }();
  return hz;
#else
  return 0;
#endif
}

double measured_hz(std::uint64_t ticks, std::uint64_t ns) noexcept {
  return ns == 0 ? 0 : static_cast<double>(ticks) * 1e9 / static_cast<double>(ns);
}

double ticks_per_second(std::uint64_t anchor_ticks, std::uint64_t anchor_steady_ns) noexcept {
  if (g_clock_kind != ClockKind::kTsc) return 1e9;
  if (const double stated = stated_tsc_hz(); stated > 0) return stated;
  std::uint64_t steady = steady_ns();
  while (steady - anchor_steady_ns < kMinimumSpanNs) steady = steady_ns();
  const std::uint64_t ticks = now_ticks();
  return measured_hz(ticks - anchor_ticks, steady - anchor_steady_ns);
}

}  // namespace perfgate::probe::detail
