#pragma once
// The raw record: everything one benchmark execution produced (SPEC §1, §5).
// Written by `perfgate run` as results/perf_<benchmark_id>_<timestamp>.json.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/json.hpp"
#include "model/metric.hpp"
#include "model/provenance.hpp"
#include "model/static_verdict.hpp"
#include "stats/summary.hpp"

namespace perfgate {

/// Version of the raw record layout. Bump it when a field changes meaning or moves;
/// readers keep accepting every older version they claim to support.
inline constexpr int kRawRecordSchemaVersion = 1;

/// One execution of the benchmark's command.
struct RunObservation {
  int index = 0;  ///< 0-based over warmups and measured runs together
  bool warmup = false;
  bool ok = true;
  std::string failure;  ///< why the run failed ("exit status 3", "timed out after 2 s", ...)
  double wall_s = 0;
  double user_s = 0;
  double system_s = 0;
  double peak_rss_mb = 0;
  /// Metrics the program reported for this run (PERFGATE_METRICS_OUT), by metric name.
  std::map<std::string, double> reported;
};

/// The samples of one metric over the measured runs, and their summary.
struct MetricSeries {
  Metric metric;
  std::vector<double> samples;
  Summary summary;
};

struct BenchmarkIdentity {
  std::string benchmark_id;         ///< the state's name, e.g. sort[n=1000]
  std::string config_benchmark_id;  ///< the config's benchmark_id
  int config_schema_version = 1;
  std::optional<std::string> workload_id;
  std::optional<std::string> variant_id;
  std::optional<long long> benchmark_version;
  std::vector<std::pair<std::string, std::string>> parameters;
};

struct RawRecord {
  BenchmarkIdentity identity;
  std::string config_path;
  std::string perfgate_version;
  int num_warmup_runs = 0;
  int num_measurement_runs = 0;

  bool success = true;
  std::string failure_reason;  ///< empty when success

  std::vector<RunObservation> runs;
  std::map<std::string, MetricSeries> metrics;
  /// Component metrics named in the config's component_metrics that no run reported.
  std::vector<std::string> missing_components;
  /// Things the user should know that did not fail the record.
  std::vector<std::string> warnings;

  StaticVerdict static_verdict;
  Json regression_thresholds = Json::object();
  Json quality_metadata = Json::object();

  Json recipe = Json::object();
  std::string recipe_fingerprint;
  Provenance provenance;
  std::string worker_log_path;
  /// The machine around the state's runs (measure/machine_state.hpp): written as
  /// "machine_state" when not null.
  Json machine_state = nullptr;
};

Json to_json(const RawRecord& record);
/// The record as its file holds it: exactly pretty_json(to_json(record)), written without
/// building a JSON node per run and per sample (for 2,000 runs: about 3 ms from the last
/// run to the file, where the nodes took about 9).
std::string raw_record_text(const RawRecord& record);
/// A metric's "summary" object as raw records write it.
Json summary_json(const Summary& summary);

}  // namespace perfgate
