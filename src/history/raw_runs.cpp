#include "history/raw_runs.hpp"

namespace perfgate::history {

std::optional<Json> RawRuns::find_metrics(const HistoryAttempt& attempt,
                                          const std::string& case_name) {
  const std::string folder = attempt.raw_path + "results";
  for (const std::string& name : snapshot_->list(folder)) {
    if (name.rfind("perf_", 0) != 0 || name.size() < 5 ||
        name.compare(name.size() - 5, 5, ".json") != 0) {
      continue;
    }
    const std::optional<std::string> text = snapshot_->read(folder + "/" + name);
    if (!text) return std::nullopt;
    Json record = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object()) return std::nullopt;
    const auto id = record.find("benchmark_id");
    if (id == record.end() || !id->is_string() || id->get_ref<const std::string&>() != case_name) {
      continue;
    }
    const auto metrics = record.find("metrics");
    if (metrics == record.end() || !metrics->is_object()) return std::nullopt;
    return std::move(*metrics);
  }
  return std::nullopt;
}

std::optional<std::vector<double>> RawRuns::samples(const HistoryAttempt& attempt,
                                                    const std::string& case_name,
                                                    const std::string& metric) {
  const std::string key = attempt.raw_path + '\n' + case_name;
  auto found = metrics_.find(key);
  if (found == metrics_.end())
    found = metrics_.emplace(key, find_metrics(attempt, case_name)).first;
  if (!found->second) return std::nullopt;
  const Json& metrics = *found->second;
  const auto series = metrics.find(metric);
  if (series == metrics.end() || !series->is_object()) return std::nullopt;
  const auto samples = series->find("samples");
  if (samples == series->end() || !samples->is_array()) return std::nullopt;
  std::vector<double> values;
  values.reserve(samples->size());
  for (const Json& value : *samples) {
    if (!value.is_number()) return std::nullopt;
    values.push_back(value.get<double>());
  }
  return values;
}

}  // namespace perfgate::history
