#pragma once
// The state of the machine around a measurement: its load, its clock and the time its
// virtual CPUs lost to other guests (steal). A timing means little without it: the same
// program is 2x slower with a busy loop on every core, and a record that says so can be
// told apart from one that regressed (issue 34). Read from /proc and /sys through a
// HostProbe, so tests describe a machine in text.
#include <optional>
#include <string>

#include "measure/host_profile.hpp"
#include "model/json.hpp"

namespace perfgate {

/// The CPU time counters of /proc/stat's "cpu" line, in clock ticks.
struct CpuTicks {
  unsigned long long steal = 0;
  unsigned long long total = 0;  ///< every field of the line summed
};

/// One look at the machine; each part is absent where it cannot be read.
struct MachineSnapshot {
  std::optional<double> load_1m;  ///< /proc/loadavg's first field
  std::optional<double> cpu_mhz;  ///< cpu0's scaling_cur_freq, else /proc/cpuinfo's "cpu MHz"
  std::optional<CpuTicks> ticks;  ///< /proc/stat's "cpu" line
  /// /proc/pressure/cpu's "some" total: microseconds in which at least one runnable task
  /// waited for a CPU (pressure stall information, Linux 4.20+ with CONFIG_PSI).
  std::optional<unsigned long long> cpu_pressure_total_us;
  long long taken_at_us = 0;  ///< a monotonic clock, for the time between two snapshots
};

/// Parsers of the files, exposed for their tests: nullopt for text they do not recognise.
std::optional<double> parse_load_1m(const std::string& loadavg);
std::optional<CpuTicks> parse_cpu_ticks(const std::string& stat);
std::optional<double> parse_cpu_mhz(const std::string& scaling_cur_freq_khz,
                                    const std::string& cpuinfo);
std::optional<unsigned long long> parse_cpu_pressure_total(const std::string& pressure);

MachineSnapshot take_machine_snapshot(const HostProbe& host);

/// {"cores", "load_1m_start", "load_1m_end", "cpu_mhz_start", "cpu_mhz_end",
/// "steal_percent", "cpu_pressure_percent"}: null for a part that could not be read;
/// steal_percent is the share of the CPU time between the two snapshots that the
/// hypervisor gave to others; cpu_pressure_percent the share of the time between them in
/// which some runnable task waited for a CPU (0 on a machine with a CPU free for every
/// task, near 100 with a busy loop on every core beside the runs).
Json machine_state_json(const MachineSnapshot& start, const MachineSnapshot& end, int cores);

/// What `run`, `ab` and `history measure` say on stderr before they measure, when the
/// load is above the number of cores: "perfgate: warning: the load average is 6.2, above
/// the 2 core(s) …\n"; "" otherwise.
std::string busy_machine_notice(const HostProbe& host);

}  // namespace perfgate
