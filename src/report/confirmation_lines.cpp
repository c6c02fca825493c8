#include "report/confirmation_lines.hpp"

#include <fmt/format.h>

#include "report/comparison_row.hpp"

namespace perfgate {
namespace {

std::string text_in(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

long long count_in(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<long long>() : 0;
}

// The metric's change on all the samples, as the table shows it.
std::string change_now(const NormalizedRecord& record, const std::string& metric) {
  for (const MetricComparison& comparison : record.comparisons) {
    if (comparison.metric != metric) continue;
    const auto value = record.metrics.find(metric);
    return format_change(comparison, value == record.metrics.end() ? Direction::kLowerIsBetter
                                                                   : value->second.direction);
  }
  return "not measured";
}

}  // namespace

std::string confirmation_outcome(const std::string& first_status, const std::string& final_status) {
  if (first_status == kInconclusive)
    return final_status == kInconclusive ? "still inconclusive" : "resolved";
  return final_status == first_status ? "confirmed" : "not confirmed";
}

std::vector<std::string> confirmation_lines(const std::vector<NormalizedRecord>& records) {
  std::vector<std::string> lines;
  for (const NormalizedRecord& record : records) {
    const auto found = record.quality_metadata.find("confirmation");
    if (found == record.quality_metadata.end() || !found->is_object()) continue;
    const Json& confirmation = *found;
    const std::string first = text_in(confirmation, "first_status");
    const long long before = count_in(confirmation, "runs_before");
    const long long added = count_in(confirmation, "runs_added");
    std::string line =
        fmt::format("{}: {} {} by {} more run(s) ({} in all)", record.benchmark_id, first,
                    confirmation_outcome(first, record.comparison_status), added, before + added);
    if (record.comparison_status != first) line += ": now " + record.comparison_status;
    const auto evidence = confirmation.find("first_evidence");
    if (evidence != confirmation.end() && evidence->is_array()) {
      for (const Json& item : *evidence) {
        if (!item.is_object()) continue;
        const std::string metric = text_in(item, "metric");
        line += fmt::format("; {} {} → {}", metric, text_in(item, "change"),
                            change_now(record, metric));
      }
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace perfgate
