#include "measure/machine_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <sstream>

namespace perfgate {
namespace {

Json optional_number(const std::optional<double>& value) {
  return value ? Json(*value) : Json(nullptr);
}

}  // namespace

std::optional<double> parse_load_1m(const std::string& loadavg) {
  std::istringstream in(loadavg);
  double load = 0;
  if (!(in >> load) || load < 0) return std::nullopt;
  return load;
}

std::optional<CpuTicks> parse_cpu_ticks(const std::string& stat) {
  std::istringstream in(stat);
  std::string label;
  if (!(in >> label) || label != "cpu") return std::nullopt;
  // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is
  // already counted in user and nice, so the total stops at steal.
  CpuTicks ticks;
  unsigned long long value = 0;
  for (int field = 0; field < 8; ++field) {
    if (!(in >> value)) return field >= 4 ? std::optional<CpuTicks>(ticks) : std::nullopt;
    ticks.total += value;
    if (field == 7) ticks.steal = value;
  }
  return ticks;
}

std::optional<double> parse_cpu_mhz(const std::string& scaling_cur_freq_khz,
                                    const std::string& cpuinfo) {
  std::istringstream khz(scaling_cur_freq_khz);
  double value = 0;
  if (khz >> value && value > 0) return value / 1000;
  std::istringstream lines(cpuinfo);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) return std::nullopt;
    std::istringstream number(line.substr(colon + 1));
    if (number >> value && value > 0) return value;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<unsigned long long> parse_cpu_pressure_total(const std::string& pressure) {
  std::istringstream lines(pressure);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    const auto total = line.find(" total=");
    if (total == std::string::npos) return std::nullopt;
    std::istringstream number(line.substr(total + 7));
    unsigned long long value = 0;
    if (number >> value) return value;
    return std::nullopt;
  }
  return std::nullopt;
}

MachineSnapshot take_machine_snapshot(const HostProbe& host) {
  MachineSnapshot snapshot;
  snapshot.load_1m = parse_load_1m(host.read_file("/proc/loadavg"));
  snapshot.cpu_mhz =
      parse_cpu_mhz(host.read_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"),
                    host.read_file("/proc/cpuinfo"));
  snapshot.ticks = parse_cpu_ticks(host.read_file("/proc/stat"));
  snapshot.cpu_pressure_total_us = parse_cpu_pressure_total(host.read_file("/proc/pressure/cpu"));
  snapshot.taken_at_us = std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count();
  return snapshot;
}

Json machine_state_json(const MachineSnapshot& start, const MachineSnapshot& end, int cores) {
  Json steal = nullptr;
  if (start.ticks && end.ticks && end.ticks->total > start.ticks->total &&
      end.ticks->steal >= start.ticks->steal) {
    steal = 100.0 * static_cast<double>(end.ticks->steal - start.ticks->steal) /
            static_cast<double>(end.ticks->total - start.ticks->total);
  }
  Json pressure = nullptr;
  if (start.cpu_pressure_total_us && end.cpu_pressure_total_us &&
      *end.cpu_pressure_total_us >= *start.cpu_pressure_total_us &&
      end.taken_at_us > start.taken_at_us) {
    const double stalled =
        static_cast<double>(*end.cpu_pressure_total_us - *start.cpu_pressure_total_us);
    // The two counters are read a few microseconds apart from the clock: never above 100.
    pressure =
        std::min(100.0, 100.0 * stalled / static_cast<double>(end.taken_at_us - start.taken_at_us));
  }
  return {{"cores", cores},
          {"load_1m_start", optional_number(start.load_1m)},
          {"load_1m_end", optional_number(end.load_1m)},
          {"cpu_mhz_start", optional_number(start.cpu_mhz)},
          {"cpu_mhz_end", optional_number(end.cpu_mhz)},
          {"steal_percent", steal},
          {"cpu_pressure_percent", pressure}};
}

std::string busy_machine_notice(const HostProbe& host) {
  const std::optional<double> load = parse_load_1m(host.read_file("/proc/loadavg"));
  const int cores = host.logical_cores();
  if (!load || cores <= 0 || *load <= cores) return "";
  return fmt::format(
      "perfgate: warning: the load average is {:.1f}, above the {} core(s) of this machine: "
      "the benchmarks will share the CPUs, and their times will be slower and noisier than "
      "the machine's own (each record keeps machine_state)\n",
      *load, cores);
}

}  // namespace perfgate
