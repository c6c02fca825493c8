#include "history/raw_runs.hpp"

namespace perfgate::history {

std::map<std::string, Json> RawRuns::read_records(const std::string& raw_path) const {
  std::map<std::string, Json> metrics_of;
  const std::string folder = raw_path + "results";
  for (const std::string& name : snapshot_->list(folder)) {
    if (name.rfind("perf_", 0) != 0 || name.size() < 5 ||
        name.compare(name.size() - 5, 5, ".json") != 0) {
      continue;
    }
    const std::optional<std::string> text = snapshot_->read(folder + "/" + name);
    if (!text) continue;
    Json record = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object()) continue;
    const auto id = record.find("benchmark_id");
    const auto metrics = record.find("metrics");
    if (id == record.end() || !id->is_string() || metrics == record.end() ||
        !metrics->is_object()) {
      continue;
    }
    metrics_of.emplace(id->get<std::string>(), std::move(*metrics));
  }
  return metrics_of;
}

std::optional<std::vector<double>> RawRuns::samples(const HistoryAttempt& attempt,
                                                    const std::string& case_name,
                                                    const std::string& metric) {
  auto folder = records_.find(attempt.raw_path);
  if (folder == records_.end()) {
    folder = records_.emplace(attempt.raw_path, read_records(attempt.raw_path)).first;
  }
  const auto record = folder->second.find(case_name);
  if (record == folder->second.end()) return std::nullopt;
  const auto series = record->second.find(metric);
  if (series == record->second.end() || !series->is_object()) return std::nullopt;
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
