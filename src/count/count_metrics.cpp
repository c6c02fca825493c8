#include "count/count_metrics.hpp"

#include <cstdint>

namespace perfgate {

std::map<std::string, double> valgrind_metrics(const std::vector<EventCounts>& processes) {
  std::map<std::string, std::uint64_t> sum;
  bool cache_simulated = !processes.empty();
  for (const auto& process : processes) {
    for (const auto& [event, count] : process) sum[event] += count;
    // A process traced without the cache events (never, as perfgate runs valgrind) would
    // make the misses of the others look like the whole run's.
    cache_simulated = cache_simulated && process.count("D1mr") != 0;
  }
  const auto event = [&](const char* name) -> double {
    const auto it = sum.find(name);
    return it == sum.end() ? 0.0 : static_cast<double>(it->second);
  };
  std::map<std::string, double> metrics;
  using namespace count_metric_names;
  metrics[std::string(kInstructions)] = event("Ir");
  if (!cache_simulated) return metrics;
  const double l1_misses = event("I1mr") + event("D1mr") + event("D1mw");
  const double ll_misses = event("ILmr") + event("DLmr") + event("DLmw");
  const double accesses = event("Ir") + event("Dr") + event("Dw");
  metrics[std::string(kL1Misses)] = l1_misses;
  metrics[std::string(kLlMisses)] = ll_misses;
  metrics[std::string(kEstimatedCycles)] =
      (accesses - l1_misses) + 5 * (l1_misses - ll_misses) + 35 * ll_misses;
  return metrics;
}

}  // namespace perfgate
