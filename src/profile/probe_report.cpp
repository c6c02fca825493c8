#include "profile/probe_report.hpp"

#include <algorithm>

namespace perfgate::profile {

const RegionInfo* ProbeReport::region(const std::string& id) const {
  const auto it = std::find_if(regions.begin(), regions.end(),
                               [&](const RegionInfo& info) { return info.id == id; });
  return it == regions.end() ? nullptr : &*it;
}

std::string ProbeReport::thread_name(long long thread_index) const {
  for (const auto& thread : threads) {
    if (thread.thread_index == thread_index && !thread.name.empty()) return thread.name;
  }
  return "thread " + std::to_string(thread_index);
}

namespace {

template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json key_average_rows(const std::vector<KeyAverage>& rows) {
  Json out = Json::array();
  for (const auto& row : rows) {
    out.push_back({{"region_id", row.region_id},
                   {"calls", row.calls},
                   {"self_wall_time_us", row.self_wall_time_us},
                   {"wall_time_us", row.wall_time_us},
                   {"runs", row.runs}});
  }
  return out;
}

Json run_json(const ProbeRun& run) {
  Json regions = Json::array();
  for (const auto& region : run.regions) {
    regions.push_back({{"region_id", region.region_id},
                       {"calls", region.calls},
                       {"wall_time_us", region.wall_time_us},
                       {"self_wall_time_us", region.self_wall_time_us},
                       {"wall_time_fraction", region.wall_time_fraction}});
  }
  return {{"run_index", run.run_index},
          {"thread_index", run.thread_index},
          {"timing", {{"wall_time_us", run.wall_time_us}, {"cpu_time_us", run.cpu_time_us}}},
          {"regions", regions},
          {"residual",
           {{"wall_time_us", run.residual_wall_time_us},
            {"wall_time_fraction", run.residual_wall_time_fraction}}}};
}

Json trace_json(const std::optional<ProbeTrace>& trace) {
  if (!trace) return nullptr;
  Json events = Json::array();
  for (const auto& event : trace->events) {
    events.push_back({{"region_id", event.region_id},
                      {"thread_index", event.thread_index},
                      {"start_us", event.start_us},
                      {"duration_us", event.duration_us}});
  }
  return {{"events", events}, {"dropped", trace->dropped}};
}

}  // namespace

Json to_json(const ProbeReport& report) {
  Json runs = Json::array();
  for (const auto& run : report.runs) runs.push_back(run_json(run));
  Json regions = Json::array();
  for (const auto& region : report.regions) {
    regions.push_back({{"id", region.id},
                       {"name", region.name},
                       {"parent", optional_json(region.parent)},
                       {"depth", region.depth},
                       {"file", region.file},
                       {"line", region.line},
                       {"function", region.function}});
  }
  Json threads = Json::array();
  for (const auto& thread : report.threads) {
    threads.push_back({{"thread_index", thread.thread_index}, {"name", thread.name}});
  }
  Json warnings = Json::array();
  for (const auto& warning : report.warnings) {
    warnings.push_back({{"code", warning.code}, {"message", warning.message}});
  }
  Json out = {
      {"schema_version", kProbeSchemaVersion},
      {"created_at", report.created_at},
      {"perfgate_version", report.perfgate_version},
      {"config",
       {{"clock", report.config.clock},
        {"clock_hz", optional_json(report.config.clock_hz)},
        {"enabled", report.config.enabled},
        {"trace", report.config.trace}}},
      {"target",
       {{"executable", report.target.executable},
        {"pid", report.target.pid},
        {"process_name", report.target.process_name}}},
      {"runs", runs},
      {"regions", regions},
      {"threads", threads},
      {"key_averages",
       {{"self_time", key_average_rows(report.key_averages.self_time)},
        {"total_time", key_average_rows(report.key_averages.total_time)}}},
      {"trace", trace_json(report.trace)},
      {"warnings", warnings},
  };
  if (!report.sources.empty()) out["sources"] = report.sources;
  return out;
}

}  // namespace perfgate::profile
