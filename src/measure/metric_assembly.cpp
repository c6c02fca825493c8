#include "measure/metric_assembly.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "stats/summary.hpp"

namespace perfgate {
namespace {

MetricSeries series_of(Metric metric, std::vector<double> samples) {
  MetricSeries series{std::move(metric), std::move(samples), {}};
  series.summary = summarize(series.samples);
  return series;
}

}  // namespace

MetricSeries throughput_series(double units_per_run, const std::string& unit,
                               const std::vector<RunObservation>& measured_runs) {
  std::vector<double> rates;
  double total_wall_s = 0;
  for (const auto& run : measured_runs) {
    if (run.wall_s <= 0) continue;  // no rate for a run too short to time
    rates.push_back(units_per_run / run.wall_s);
    total_wall_s += run.wall_s;
  }
  Metric metric = *standard_metric("throughput");
  metric.unit = unit + "/s";
  MetricSeries series = series_of(metric, rates);
  // The gates read summary.mean. The mean of per-run rates would weigh a fast run more than
  // the time it took; the work done over the time it took is units per mean latency (seed
  // 000: 45 frames / 28.4 s), which is also the harmonic mean of the rates.
  if (!rates.empty()) {
    series.summary.mean = units_per_run / (total_wall_s / static_cast<double>(rates.size()));
  }
  return series;
}

std::vector<ComponentReport> map_components(const BenchmarkConfig& config,
                                            const std::vector<ComponentReport>& reported) {
  std::vector<ComponentReport> mapped;
  for (const auto& report : reported) {
    std::string metric = report.metric;
    if (!config.component_metrics.empty()) {
      const auto it =
          std::find_if(config.component_metrics.begin(), config.component_metrics.end(),
                       [&](const auto& entry) { return entry.second == report.metric; });
      if (it == config.component_metrics.end()) continue;
      metric = it->first;
    }
    const auto same = std::find_if(mapped.begin(), mapped.end(),
                                   [&](const ComponentReport& r) { return r.metric == metric; });
    if (same != mapped.end()) {
      same->value += report.value;
    } else {
      mapped.push_back({metric, report.value, report.unit, report.direction});
    }
  }
  return mapped;
}

AssembledMetrics assemble_metrics(const BenchmarkConfig& config,
                                  const std::vector<RunObservation>& measured_runs,
                                  const std::vector<std::vector<ComponentReport>>& components) {
  AssembledMetrics out;
  if (!config.run.measure_time) return out;  // counted runs only
  std::vector<double> latency, cpu, memory;
  for (const auto& run : measured_runs) {
    latency.push_back(run.wall_s);
    cpu.push_back(run.user_s + run.system_s);
    memory.push_back(run.peak_rss_mb);
  }
  out.metrics.emplace("latency", series_of(*standard_metric("latency"), latency));
  out.metrics.emplace("cpu_time", series_of(*standard_metric("cpu_time"), cpu));
  out.metrics.emplace("memory", series_of(*standard_metric("memory"), memory));
  if (config.throughput) {
    out.metrics.emplace("throughput", throughput_series(config.throughput->units_per_run,
                                                        config.throughput->unit, measured_runs));
  }

  // Component metrics keep the order in which they were first reported.
  std::vector<ComponentReport> seen;
  std::map<std::string, std::vector<double>> samples;
  for (const auto& run_reports : components) {
    for (const auto& report : run_reports) {
      if (samples.find(report.metric) == samples.end()) seen.push_back(report);
      samples[report.metric].push_back(report.value);
    }
  }
  for (const auto& first : seen) {
    if (out.metrics.count(first.metric) != 0) {
      // The harness measures these itself; a program's own figure must not replace them.
      out.warnings.push_back(
          "reported metric '" + first.metric +
          "' has the name of a measured metric and was ignored; report it under another name");
      continue;
    }
    out.metrics.emplace(first.metric, series_of(Metric{first.metric, first.unit, first.direction},
                                                samples[first.metric]));
  }
  for (const auto& [metric, region] : config.component_metrics) {
    if (samples.find(metric) == samples.end()) out.missing_components.push_back(metric);
  }
  return out;
}

void add_count_metrics(AssembledMetrics& assembled,
                       const std::map<std::string, std::vector<double>>& counts) {
  for (const auto& [name, samples] : counts) {
    const std::optional<Metric> metric = count_metric(name);
    if (!metric || samples.empty()) continue;
    assembled.metrics.insert_or_assign(name, series_of(*metric, samples));
  }
  const auto instructions = counts.find(std::string(count_metric_names::kInstructions));
  if (instructions == counts.end() || instructions->second.size() < 2) return;
  const auto [low, high] =
      std::minmax_element(instructions->second.begin(), instructions->second.end());
  // A deterministic program repeats its count to a handful of instructions (its
  // environment's size differs by a digit between runs); 0.1% is far beyond that.
  if (*low > 0 && (*high - *low) / *low > 0.001) {
    assembled.warnings.push_back(fmt::format(
        "COUNTS_VARY: the instruction counts of the counted runs differ by {:.2f}% ({:.0f} to "
        "{:.0f}): the program is not deterministic (threads, randomness, the time or "
        "addresses steer its work). Its counts are judged by their spread, like a time; "
        "raise run_config.num_count_runs for a tighter interval",
        (*high - *low) / *low * 100, *low, *high));
  }
}

}  // namespace perfgate
