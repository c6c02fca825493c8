#include "profile/probe_report.hpp"

#include <algorithm>

namespace perfgate::profile {

const RegionInfo* ProbeReport::region(const std::string& id) const {
  // regions[] is ordered by id in every report the probe writes, so a binary search finds
  // it: a view of 100,000 regions asks this for each of its rows. A list out of order
  // still answers right, by the scan.
  const auto by_id = [](const RegionInfo& info, const std::string& key) { return info.id < key; };
  const auto found = std::lower_bound(regions.begin(), regions.end(), id, by_id);
  if (found != regions.end() && found->id == id) return &*found;
  const auto it = std::find_if(regions.begin(), regions.end(),
                               [&](const RegionInfo& info) { return info.id == id; });
  return it == regions.end() ? nullptr : &*it;
}

std::string ProbeReport::thread_name(long long thread_index) const {
  for (const auto& thread : threads) {
    if (thread.thread_index != thread_index) continue;
    std::string name = thread.name.empty() ? "thread " + std::to_string(thread_index) : thread.name;
    if (thread.target && *thread.target >= 0 &&
        static_cast<std::size_t>(*thread.target) < targets.size()) {
      const ProbeTarget& target = targets[static_cast<std::size_t>(*thread.target)].target;
      name += " (" + target.process_name + ", pid " + std::to_string(target.pid) + ")";
    }
    return name;
  }
  return "thread " + std::to_string(thread_index);
}

const ProbeTarget& ProbeReport::thread_target(long long thread_index) const {
  for (const auto& thread : threads) {
    if (thread.thread_index == thread_index && thread.target && *thread.target >= 0 &&
        static_cast<std::size_t>(*thread.target) < targets.size()) {
      return targets[static_cast<std::size_t>(*thread.target)].target;
    }
  }
  return target;
}

namespace {

using Ordered = nlohmann::ordered_json;

template <typename T>
Ordered optional_json(const std::optional<T>& value) {
  return value ? Ordered(*value) : Ordered(nullptr);
}

Ordered key_average_rows(const std::vector<KeyAverage>& rows) {
  Ordered out = Ordered::array();
  for (const auto& row : rows) {
    Ordered item;
    item["region_id"] = row.region_id;
    item["calls"] = row.calls;
    item["self_wall_time_us"] = row.self_wall_time_us;
    item["wall_time_us"] = row.wall_time_us;
    item["runs"] = row.runs;
    out.push_back(std::move(item));
  }
  return out;
}

Ordered name_average_rows(const std::vector<NameAverage>& rows) {
  Ordered out = Ordered::array();
  for (const auto& row : rows) {
    Ordered item;
    item["name"] = row.name;
    item["calls"] = row.calls;
    item["self_wall_time_us"] = row.self_wall_time_us;
    item["wall_time_us"] = row.wall_time_us;
    item["runs"] = row.runs;
    item["ids"] = row.ids;
    out.push_back(std::move(item));
  }
  return out;
}

void put_time(Ordered& item, const RegionTime& time) {
  item["region_id"] = time.region_id;
  item["calls"] = time.calls;
  item["wall_time_us"] = time.wall_time_us;
  item["self_wall_time_us"] = time.self_wall_time_us;
  item["wall_time_fraction"] = time.wall_time_fraction;
  if (time.cpu_time_us) item["cpu_time_us"] = *time.cpu_time_us;
  if (time.self_cpu_time_us) item["self_cpu_time_us"] = *time.self_cpu_time_us;
  if (time.cpu_time_fraction) item["cpu_time_fraction"] = *time.cpu_time_fraction;
}

Ordered run_json(const ProbeRun& run) {
  Ordered out;
  out["run_index"] = run.run_index;
  out["thread_index"] = run.thread_index;
  out["warmup"] = run.warmup;
  out["timing"]["wall_time_us"] = run.wall_time_us;
  out["timing"]["cpu_time_us"] = run.cpu_time_us;
  if (run.thread_cpu_time_us) out["timing"]["thread_cpu_time_us"] = *run.thread_cpu_time_us;
  Ordered regions = Ordered::array();
  for (const auto& region : run.regions) {
    Ordered item;
    put_time(item, region);
    regions.push_back(std::move(item));
  }
  out["regions"] = std::move(regions);
  out["residual"]["wall_time_us"] = run.residual_wall_time_us;
  out["residual"]["wall_time_fraction"] = run.residual_wall_time_fraction;
  if (run.residual_cpu_time_us) out["residual"]["cpu_time_us"] = *run.residual_cpu_time_us;
  if (run.residual_cpu_time_fraction) {
    out["residual"]["cpu_time_fraction"] = *run.residual_cpu_time_fraction;
  }
  Ordered dispatched = Ordered::array();
  for (const auto& row : run.dispatched) {
    Ordered item;
    item["thread_index"] = row.thread_index;
    put_time(item, row.time);
    dispatched.push_back(std::move(item));
  }
  out["dispatched"] = std::move(dispatched);
  if (run.probe) {
    out["probe"]["region_calls"] = run.probe->region_calls;
    out["probe"]["cost_us"] = run.probe->cost_us;
    out["probe"]["cost_fraction"] = run.probe->cost_fraction;
  }
  return out;
}

Ordered trace_json(const std::optional<ProbeTrace>& trace) {
  if (!trace) return nullptr;
  Ordered events = Ordered::array();
  for (const auto& event : trace->events) {
    Ordered item;
    item["region_id"] = event.region_id;
    item["thread_index"] = event.thread_index;
    item["start_us"] = event.start_us;
    item["duration_us"] = event.duration_us;
    events.push_back(std::move(item));
  }
  Ordered out;
  out["events"] = std::move(events);
  out["dropped"] = trace->dropped;
  return out;
}

Ordered summary_rows(const std::vector<SummaryRow>& rows) {
  Ordered out = Ordered::array();
  for (const auto& row : rows) {
    Ordered item;
    item["region_id"] = row.region_id;
    item["runs"] = row.runs;
    item["calls"] = row.calls;
    item["wall_time_us"] = row.wall_time_us;
    item["self_wall_time_us"] = row.self_wall_time_us;
    item["wall_time_fraction"] = row.wall_time_fraction;
    item["per_run_wall_time_us"]["median"] = row.median_us;
    item["per_run_wall_time_us"]["p90"] = row.p90_us;
    item["per_run_wall_time_us"]["max"] = row.max_us;
    out.push_back(std::move(item));
  }
  return out;
}

Ordered summary_json(const ProbeSummary& summary) {
  Ordered out;
  out["runs"] = summary.runs;
  out["measured_runs"] = summary.measured_runs;
  out["listed_runs"] = summary.listed_runs;
  out["quantiles"] = summary.quantiles;
  out["wall_time_us"]["mean"] = summary.wall_mean_us;
  out["wall_time_us"]["min"] = summary.wall_min_us;
  out["wall_time_us"]["median"] = summary.wall_median_us;
  out["wall_time_us"]["p90"] = summary.wall_p90_us;
  out["wall_time_us"]["max"] = summary.wall_max_us;
  out["cpu_time_us"]["mean"] = summary.cpu_mean_us;
  out["residual"]["wall_time_us"] = summary.residual_wall_time_us;
  out["residual"]["wall_time_fraction"] = summary.residual_wall_time_fraction;
  out["regions"] = summary_rows(summary.regions);
  out["dispatched"] = summary_rows(summary.dispatched);
  return out;
}

Ordered target_json(const ProbeTarget& target) {
  Ordered out;
  out["executable"] = target.executable;
  out["pid"] = target.pid;
  out["process_name"] = target.process_name;
  return out;
}

}  // namespace

nlohmann::ordered_json to_json(const ProbeReport& report) {
  Ordered out;
  out["schema_version"] = kProbeSchemaVersion;
  out["created_at"] = report.created_at;
  out["perfgate_version"] = report.perfgate_version;
  Ordered& config = out["config"];
  config["clock"] = report.config.clock;
  config["clock_hz"] = optional_json(report.config.clock_hz);
  config["enabled"] = report.config.enabled;
  config["disabled_by"] = optional_json(report.config.disabled_by);
  config["trace"] = report.config.trace;
  if (report.config.cpu_time) config["cpu_time"] = *report.config.cpu_time;
  if (report.config.region_cost_ns) config["region_cost_ns"] = *report.config.region_cost_ns;
  if (report.config.warmup_runs) config["warmup_runs"] = *report.config.warmup_runs;
  out["target"] = target_json(report.target);
  Ordered runs = Ordered::array();
  for (const auto& run : report.runs) runs.push_back(run_json(run));
  out["runs"] = std::move(runs);
  if (report.summary) out["summary"] = summary_json(*report.summary);
  Ordered regions = Ordered::array();
  for (const auto& region : report.regions) {
    Ordered item;
    item["id"] = region.id;
    item["name"] = region.name;
    item["parent"] = optional_json(region.parent);
    item["depth"] = region.depth;
    item["file"] = region.file;
    item["line"] = region.line;
    item["function"] = region.function;
    regions.push_back(std::move(item));
  }
  out["regions"] = std::move(regions);
  Ordered threads = Ordered::array();
  for (const auto& thread : report.threads) {
    Ordered item;
    item["thread_index"] = thread.thread_index;
    item["name"] = thread.name;
    if (thread.target) item["target"] = *thread.target;
    threads.push_back(std::move(item));
  }
  out["threads"] = std::move(threads);
  out["key_averages"]["self_time"] = key_average_rows(report.key_averages.self_time);
  out["key_averages"]["total_time"] = key_average_rows(report.key_averages.total_time);
  out["key_averages"]["by_name"] = name_average_rows(report.key_averages.by_name);
  out["trace"] = trace_json(report.trace);
  Ordered warnings = Ordered::array();
  for (const auto& warning : report.warnings) {
    Ordered item;
    item["code"] = warning.code;
    item["message"] = warning.message;
    warnings.push_back(std::move(item));
  }
  out["warnings"] = std::move(warnings);
  if (!report.sources.empty()) out["sources"] = report.sources;
  if (!report.targets.empty()) {
    Ordered targets = Ordered::array();
    for (const auto& merged : report.targets) {
      Ordered item = target_json(merged.target);
      item["source"] = merged.source;
      targets.push_back(std::move(item));
    }
    out["targets"] = std::move(targets);
  }
  return out;
}

}  // namespace perfgate::profile
