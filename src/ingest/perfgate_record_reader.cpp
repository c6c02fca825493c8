#include "ingest/perfgate_record_reader.hpp"

#include <unordered_set>

#include "ingest/seed_raw_record.hpp"
#include "ingest/timing_summary.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"
#include "model/normalize.hpp"
#include "model/normalized_record.hpp"

namespace perfgate::ingest {
namespace {

const std::string kLatency(metric_names::kLatency);

// "sort[n=10,k=2]" -> benchmark "sort", key "n=10,k=2"; "sort" -> "sort", "".
void split_state_id(const std::string& id, ResultState& state) {
  const std::size_t open = id.find('[');
  if (open == std::string::npos || id.back() != ']') {
    state.benchmark = id;
    return;
  }
  state.benchmark = id.substr(0, open);
  state.state_key = id.substr(open + 1, id.size() - open - 2);
}

// Axes of a normalised record, which keeps only the state id: "n=10,k=2" -> (n, 10), (k, 2).
void axes_from_key(ResultState& state) {
  std::string_view rest = state.state_key;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view pair = rest.substr(0, comma);
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos) {
      state.axis_values.emplace_back(std::string(pair.substr(0, equals)),
                                     std::string(pair.substr(equals + 1)));
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

std::string text_of(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// A raw record already validated by normalize_raw_record.
ResultState raw_state(const Json& raw, const NormalizedRecord& normalized) {
  ResultState state;
  state.timing_name = kLatency;
  split_state_id(normalized.benchmark_id, state);
  const auto config_id = raw.find("config_benchmark_id");
  if (config_id != raw.end() && config_id->is_string() && !config_id->get<std::string>().empty()) {
    state.benchmark = config_id->get<std::string>();
  }
  const auto parameters = raw.find("parameters");
  if (parameters != raw.end() && parameters->is_object()) {
    for (const auto& [axis, value] : parameters->items()) {
      state.axis_values.emplace_back(axis, text_of(value));
    }
  }
  for (const auto& [name, metric] : raw.at("metrics").items()) {
    std::vector<double> samples = metric.at("samples").get<std::vector<double>>();
    if (name == kLatency) {
      state.samples = std::move(samples);
      continue;
    }
    const auto direction = parse_direction(metric.at("direction").get<std::string>());
    state.extra_metrics.push_back(ExtraMetric{name, metric.at("unit").get<std::string>(),
                                              direction.value_or(Direction::kLowerIsBetter),
                                              std::move(samples)});
  }
  state.summary = summarize_timing(state.samples);
  if (!normalized.success) {
    state.skipped = true;
    const auto reason = raw.find("failure_reason");
    state.skip_reason =
        reason != raw.end() && reason->is_string() ? reason->get<std::string>() : "the run failed";
  }
  return state;
}

ResultState read_raw(const Json& record, const std::string& source) {
  if (is_seed_raw_record(record)) {
    const Json converted = convert_seed_raw_record(record, source);
    return raw_state(converted, normalize_raw_record(converted, source, "", {}));
  }
  return raw_state(record, normalize_raw_record(record, source, "", {}));
}

ResultState read_normalized(const Json& record, const std::string& source, const std::string& path,
                            std::vector<NormalizedRecord>& records) {
  NormalizedRecord normalized = normalized_record_from_json(record, source, path);
  // History from other systems carries offsets (+09:00): stored records are UTC, so that
  // "the newest five" is the newest five instants.
  const auto utc = normalize_utc_timestamp(normalized.timestamp);
  if (!utc) {
    throw Error(ExitCode::kDataError,
                source + ": " + (path.empty() ? "" : path + ".") + "timestamp: '" +
                    normalized.timestamp +
                    "' is not an ISO 8601 date-time. Write it as e.g. 2026-05-08T22:00:00+00:00");
  }
  normalized.timestamp = *utc;
  records.push_back(normalized);
  ResultState state;
  state.timing_name = kLatency;
  split_state_id(normalized.benchmark_id, state);
  axes_from_key(state);
  for (const auto& [name, metric] : normalized.metrics) {
    if (name == kLatency) {
      state.summary.mean = metric.value;
    } else {
      state.extra_metrics.push_back(
          ExtraMetric{name, metric.unit, metric.direction, {metric.value}});
    }
  }
  if (!normalized.success) {
    state.skipped = true;
    state.skip_reason = normalized.comparison_status_reason.empty()
                            ? "the run failed"
                            : normalized.comparison_status_reason;
  }
  return state;
}

}  // namespace

ResultFile read_perfgate_records(const Json& document, const std::filesystem::path& path,
                                 ResultFormat format) {
  ResultFile file;
  file.format = format;
  file.path = path;
  const std::string source = path.string();
  const bool many = document.is_array();
  const std::size_t count = many ? document.size() : 1;
  file.states.reserve(count);
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < count; ++i) {
    const Json& record = many ? document[i] : document;
    const std::string at = many ? "[" + std::to_string(i) + "]" : "";
    if (format == ResultFormat::kPerfgateRaw) {
      // normalize_raw_record names fields from the record's own top level.
      file.states.push_back(read_raw(record, source + at));
    } else {
      file.states.push_back(read_normalized(record, source, at, file.normalized_records));
    }
    const std::string& benchmark = file.states.back().benchmark;
    if (seen.insert(benchmark).second) file.benchmarks.push_back(ResultBenchmark{benchmark, {}});
  }
  if (format == ResultFormat::kPerfgateNormalized && count > 0) {
    file.warnings.push_back(
        source +
        ": normalised records keep one value per metric (the mean) and no spread, so diff "
        "cannot tell SAME, FAST or SLOW from them (their states show as AMBG, noise "
        "unavailable). Compare the raw records (perf_*.json) that `perfgate run` wrote "
        "instead.");
  }
  return file;
}

}  // namespace perfgate::ingest
