#include "model/raw_record.hpp"

#include <cstdint>

#include "model/indented_json.hpp"

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

namespace {

/// Every member of the record but its runs and metrics (null in their places): the small
/// part, built as JSON nodes and written either through nlohmann or member by member.
Json record_without_series(const RawRecord& record) {
  const BenchmarkIdentity& id = record.identity;
  Json parameters = Json::object();
  for (const auto& [axis, value] : id.parameters) parameters[axis] = value;

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
      {"runs", nullptr},
      {"metrics", nullptr},
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

// The members of a run, a metric and a summary in nlohmann's order (sorted by key), as
// run_json, to_json and summary_json build them.
void write_run(IndentedJsonWriter& out, const RunObservation& run) {
  out.begin_object().key("failure");
  if (run.failure.empty()) {
    out.null();
  } else {
    out.value(run.failure);
  }
  out.key("index").value(run.index).key("ok").value(run.ok);
  out.key("peak_rss_mb").value(run.peak_rss_mb).key("reported").begin_object();
  for (const auto& [name, value] : run.reported) out.key(name).value(value);
  out.end_object().key("system_s").value(run.system_s).key("user_s").value(run.user_s);
  out.key("wall_s").value(run.wall_s).key("warmup").value(run.warmup).end_object();
}

void write_summary(IndentedJsonWriter& out, const Summary& s) {
  out.begin_object().key("count").value(static_cast<std::uint64_t>(s.count));
  out.key("iqr").value(s.iqr).key("mad").value(s.mad).key("max").value(s.max);
  out.key("mean").value(s.mean).key("median").value(s.median).key("min").value(s.min);
  out.key("q1").value(s.q1).key("q3").value(s.q3).key("stdev").value(s.stdev).end_object();
}

void write_metrics(IndentedJsonWriter& out, const std::map<std::string, MetricSeries>& metrics) {
  out.begin_object();
  for (const auto& [name, series] : metrics) {
    out.key(name).begin_object();
    out.key("direction").value(to_string(series.metric.direction)).key("samples").begin_array();
    for (const double sample : series.samples) out.value(sample);
    out.end_array().key("summary");
    write_summary(out, series.summary);
    out.key("unit").value(series.metric.unit).end_object();
  }
  out.end_object();
}

}  // namespace

Json to_json(const RawRecord& record) {
  Json json = record_without_series(record);
  Json& runs = json["runs"] = Json::array();
  for (const auto& run : record.runs) runs.push_back(run_json(run));
  Json& metrics = json["metrics"] = Json::object();
  for (const auto& [name, series] : record.metrics) {
    metrics[name] = {{"unit", series.metric.unit},
                     {"direction", to_string(series.metric.direction)},
                     {"samples", series.samples},
                     {"summary", summary_json(series.summary)}};
  }
  return json;
}

std::string raw_record_text(const RawRecord& record) {
  std::string text;
  text.reserve(256 * record.runs.size() + 4096);
  IndentedJsonWriter out(text);
  const Json members = record_without_series(record);
  out.begin_object();
  for (const auto& [name, member] : members.items()) {
    out.key(name);
    if (name == "runs") {
      out.begin_array();
      for (const auto& run : record.runs) write_run(out, run);
      out.end_array();
    } else if (name == "metrics") {
      write_metrics(out, record.metrics);
    } else {
      out.json(member);
    }
  }
  out.end_object();
  text += '\n';
  return text;
}

}  // namespace perfgate
