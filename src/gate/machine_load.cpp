#include "gate/machine_load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

namespace perfgate {
namespace {

// One part's reading: {"cores", "load_1m_start", "load_1m_end", ...}.
std::optional<BackgroundLoad> part_load(const Json& state) {
  if (!state.is_object()) return std::nullopt;
  const auto cores = state.find("cores");
  if (cores == state.end() || !cores->is_number_integer() || cores->get<int>() <= 0) {
    return std::nullopt;
  }
  std::optional<double> least;
  for (const char* key : {"load_1m_start", "load_1m_end"}) {
    const auto load = state.find(key);
    if (load == state.end() || !load->is_number() || load->get<double>() < 0) continue;
    least = least ? std::min(*least, load->get<double>()) : load->get<double>();
  }
  if (!least) return std::nullopt;
  return BackgroundLoad{*least, cores->get<int>()};
}

// The minimum step between the two loads that counts: one more runnable task than the
// baseline had, a whole CPU's worth of competition.
constexpr double kLoadStep = 1.0;
// CPU pressure: busy when tasks waited for a CPU at least a quarter of the time, and by a
// clear step beyond the baseline's busiest record. Measured (bench/compare_verdicts.sh,
// 2 cores): idle records 6% at most; with a busy loop on each core 56-58%, not 100,
// since the snapshots also span the gaps between runs, when only the loops compete.
constexpr double kBusyPressure = 25.0;
constexpr double kPressureStep = 20.0;

// The parts of a record's measurement: its first runs and a confirmation's.
template <class Visit>
void for_each_part(const NormalizedRecord& record, Visit visit) {
  const Json& quality = record.quality_metadata;
  if (!quality.is_object()) return;
  if (const auto state = quality.find("machine_state"); state != quality.end()) visit(*state);
  if (const auto confirmation = quality.find("confirmation");
      confirmation != quality.end() && confirmation->is_object()) {
    if (const auto state = confirmation->find("machine_state"); state != confirmation->end()) {
      visit(*state);
    }
  }
}

// nullopt when no baseline record says its pressure: the load average decides then.
std::optional<std::string> pressure_rule(double now,
                                         const std::vector<NormalizedRecord>& baseline) {
  std::optional<double> busiest_before;
  for (const NormalizedRecord& record : baseline) {
    if (const auto before = cpu_pressure(record)) {
      busiest_before = std::max(busiest_before.value_or(0), *before);
    }
  }
  if (!busiest_before) return std::nullopt;
  if (now < kBusyPressure || now - *busiest_before < kPressureStep) return "";
  return fmt::format(
      "measured while tasks waited for a CPU {:.0f}% of the time, its baseline {:.0f}% at most",
      now, *busiest_before);
}

// One part's reading of cpu_pressure_percent; nullopt when it does not say one, or says
// what is not a share of the time (a hand-edited or hostile record: 500 would let any
// slowdown pass for the load's).
std::optional<double> part_pressure(const Json& state) {
  if (!state.is_object()) return std::nullopt;
  const auto pressure = state.find("cpu_pressure_percent");
  if (pressure == state.end() || !pressure->is_number() || !(pressure->get<double>() >= 0) ||
      pressure->get<double>() > 100) {
    return std::nullopt;
  }
  return pressure->get<double>();
}

// One part's busy machine: by its CPU pressure where it is said, else by its load average.
std::optional<BusyMachine> busy_part(const Json& state) {
  if (!state.is_object()) return std::nullopt;
  // The pressure covers exactly the runs' time; the 1-minute average also remembers the
  // minute before them, so where the pressure is said it alone decides.
  if (const std::optional<double> pressure = part_pressure(state)) {
    const double percent = *pressure;
    if (percent < kBusyPressure) return std::nullopt;
    const double slowdown =
        percent >= 100 ? std::numeric_limits<double>::infinity() : 100 / (100 - percent);
    return BusyMachine{fmt::format("tasks waited for a CPU {:.0f}% of the time", percent),
                       slowdown};
  }
  const std::optional<BackgroundLoad> load = part_load(state);
  if (!load || load->load <= load->cores) return std::nullopt;
  return BusyMachine{fmt::format("load {:.1f} on {} core(s)", load->load, load->cores),
                     load->load / load->cores};
}

}  // namespace

std::optional<BackgroundLoad> background_load(const NormalizedRecord& record) {
  std::optional<BackgroundLoad> busiest;
  for_each_part(record, [&busiest](const Json& state) {
    const std::optional<BackgroundLoad> part = part_load(state);
    if (part && (!busiest || part->load > busiest->load)) busiest = part;
  });
  return busiest;
}

std::optional<double> cpu_pressure(const NormalizedRecord& record) {
  std::optional<double> busiest;
  for_each_part(record, [&busiest](const Json& state) {
    if (const std::optional<double> pressure = part_pressure(state)) {
      busiest = std::max(busiest.value_or(0), *pressure);
    }
  });
  return busiest;
}

bool load_sensitive_unit(const std::string& unit) {
  static const std::array<const char*, 8> kTimes = {"s",  "ms",  "us",  "µs",
                                                    "ns", "min", "sec", "seconds"};
  if (std::find(kTimes.begin(), kTimes.end(), unit) != kTimes.end()) return true;
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0;
}

std::string busier_than_baseline(const NormalizedRecord& current,
                                 const std::vector<NormalizedRecord>& baseline) {
  // The pressure, where both sides say it: it covers exactly the runs' time.
  if (const std::optional<double> pressure = cpu_pressure(current)) {
    const std::optional<std::string> busier = pressure_rule(*pressure, baseline);
    if (busier && !busier->empty()) return *busier;
    // Runs that met an idle machine are not blamed on a load the 1-minute average still
    // remembers. Runs that met a busy one, beside a baseline that did too: the pressure
    // nears 100% on both sides and cannot say which was busier, the load average can (two
    // busy loops, or two and a build).
    if (busier && *pressure < kBusyPressure) return "";
  }
  const std::optional<BackgroundLoad> now = background_load(current);
  if (!now || now->load <= now->cores) return "";
  std::optional<double> busiest_before;
  for (const NormalizedRecord& record : baseline) {
    const std::optional<BackgroundLoad> before = background_load(record);
    if (before) busiest_before = std::max(busiest_before.value_or(0), before->load);
  }
  if (!busiest_before || now->load - *busiest_before < kLoadStep) return "";
  return fmt::format("measured at load {:.1f} on {} core(s), its baseline at load {:.1f} at most",
                     now->load, now->cores, *busiest_before);
}

std::optional<BusyMachine> busy_machine(const NormalizedRecord& record) {
  std::optional<BusyMachine> least;
  bool quiet_part = false;
  for_each_part(record, [&least, &quiet_part](const Json& state) {
    const std::optional<BusyMachine> busy = busy_part(state);
    if (!busy) quiet_part = true;
    if (busy && (!least || busy->explainable_slowdown < least->explainable_slowdown)) least = busy;
  });
  if (quiet_part) return std::nullopt;
  return least;
}

}  // namespace perfgate
