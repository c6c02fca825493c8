#include "model/raw_record.hpp"

namespace perfgate {
namespace {

template <typename T>
Json json_or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

}  // namespace

Json summary_json(const Summary& s) {
  return {{"count", s.count}, {"mean", s.mean},   {"median", s.median}, {"min", s.min},
          {"max", s.max},     {"stdev", s.stdev}, {"mad", s.mad},       {"q1", s.q1},
          {"q3", s.q3},       {"iqr", s.iqr}};
}

namespace {

Json run_json(const RunObservation& run) {
  return {{"index", run.index},
          {"warmup", run.warmup},
          {"ok", run.ok},
          {"failure", run.failure.empty() ? Json(nullptr) : Json(run.failure)},
          {"wall_s", run.wall_s},
          {"user_s", run.user_s},
          {"system_s", run.system_s},
          {"peak_rss_mb", run.peak_rss_mb},
          {"reported", run.reported}};
}

}  // namespace

Json to_json(const RawRecord& record) {
  const BenchmarkIdentity& id = record.identity;
  Json parameters = Json::object();
  for (const auto& [axis, value] : id.parameters) parameters[axis] = value;

  Json runs = Json::array();
  for (const auto& run : record.runs) runs.push_back(run_json(run));

  Json metrics = Json::object();
  for (const auto& [name, series] : record.metrics) {
    metrics[name] = {{"unit", series.metric.unit},
                     {"direction", to_string(series.metric.direction)},
                     {"samples", series.samples},
                     {"summary", summary_json(series.summary)}};
  }

  Json json = {
      {"result_schema_version", kRawRecordSchemaVersion},
      {"perfgate_version", record.perfgate_version},
      {"benchmark_id", id.benchmark_id},
      {"config_benchmark_id", id.config_benchmark_id},
      {"config_schema_version", id.config_schema_version},
      {"workload_id", json_or_null(id.workload_id)},
      {"variant_id", json_or_null(id.variant_id)},
      {"benchmark_version", json_or_null(id.benchmark_version)},
      {"parameters", parameters},
      {"config_path", record.config_path},
      {"timestamp", record.provenance.timestamp},
      {"device", record.provenance.device},
      {"num_warmup_runs", record.num_warmup_runs},
      {"num_measurement_runs", record.num_measurement_runs},
      {"success", record.success},
      {"failure_reason",
       record.failure_reason.empty() ? Json(nullptr) : Json(record.failure_reason)},
      {"runs", runs},
      {"metrics", metrics},
      {"missing_components", record.missing_components},
      {"warnings", record.warnings},
      {"static_thresholds", record.static_verdict.to_json()},
      {"regression_thresholds", record.regression_thresholds},
      {"quality_metadata", record.quality_metadata},
      {"recipe", record.recipe},
      {"recipe_fingerprint", record.recipe_fingerprint},
      {"hardware_profile", record.provenance.hardware_profile},
      {"hardware_profile_id", record.provenance.hardware_profile_id},
      {"software_profile", record.provenance.software_profile},
      {"software_profile_id", record.provenance.software_profile_id},
      {"environment_metadata", record.provenance.environment_metadata},
      {"environment_fingerprint", record.provenance.environment_fingerprint},
      {"ci", record.provenance.ci},
      {"run_source", record.provenance.run_source},
      {"worker_log_path",
       record.worker_log_path.empty() ? Json(nullptr) : Json(record.worker_log_path)},
  };
  if (!record.machine_state.is_null()) json["machine_state"] = record.machine_state;
  return json;
}

}  // namespace perfgate
