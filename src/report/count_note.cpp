#include "report/count_note.hpp"

#include <algorithm>

#include "model/metric.hpp"

namespace perfgate {

std::string count_proxy_note() {
  return "Instruction counts are a proxy for the work: they miss I/O, waiting, contention, "
         "memory bandwidth and a faster instruction mix; latency stays the truth "
         "(docs/measurement.md, \"What counts miss\").\n";
}

bool any_count_metric(const std::vector<NormalizedRecord>& records) {
  return std::any_of(records.begin(), records.end(), [](const NormalizedRecord& record) {
    return std::any_of(record.metrics.begin(), record.metrics.end(),
                       [](const auto& metric) { return count_metric(metric.first).has_value(); });
  });
}

}  // namespace perfgate
