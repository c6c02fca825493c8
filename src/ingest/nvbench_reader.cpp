#include "ingest/nvbench_reader.hpp"

#include <limits>
#include <unordered_map>

#include "ingest/bulk_file.hpp"
#include "ingest/json_cursor.hpp"
#include "ingest/nvbench_summary.hpp"

namespace perfgate::ingest {
namespace {

constexpr const char* kFix =
    "Write the file with nvbench --json (or --jsonbin); an edited file must keep nvbench's "
    "layout";

// The summaries perfgate reads, by tag. iqr was called "ir" by older nvbench.
enum class Field {
  kMin,
  kMax,
  kMean,
  kStdevAbsolute,
  kStdevRelative,
  kQ1,
  kMedian,
  kQ3,
  kIqrAbsolute,
  kIqrRelative,
  kIrAbsolute,
  kIrRelative,
  kClockRate,
  kSampleSize,
  kCpuTime,
  kBatchGpuTime,
  kBandwidth,
  kItemRate,
  kBulkTimes,
  kBulkFrequencies,
};

const std::unordered_map<std::string_view, Field>& fields_by_tag() {
  static const std::unordered_map<std::string_view, Field> fields = {
      {"nv/cold/time/gpu/min", Field::kMin},
      {"nv/cold/time/gpu/max", Field::kMax},
      {"nv/cold/time/gpu/mean", Field::kMean},
      {"nv/cold/time/gpu/stdev/absolute", Field::kStdevAbsolute},
      {"nv/cold/time/gpu/stdev/relative", Field::kStdevRelative},
      {"nv/cold/time/gpu/q1", Field::kQ1},
      {"nv/cold/time/gpu/median", Field::kMedian},
      {"nv/cold/time/gpu/q3", Field::kQ3},
      {"nv/cold/time/gpu/iqr/absolute", Field::kIqrAbsolute},
      {"nv/cold/time/gpu/iqr/relative", Field::kIqrRelative},
      {"nv/cold/time/gpu/ir/absolute", Field::kIrAbsolute},
      {"nv/cold/time/gpu/ir/relative", Field::kIrRelative},
      {"nv/cold/sm_clock_rate/mean", Field::kClockRate},
      {"nv/cold/sample_size", Field::kSampleSize},
      {"nv/cold/time/cpu/mean", Field::kCpuTime},
      {"nv/batch/time/gpu/mean", Field::kBatchGpuTime},
      {"nv/cold/bw/global/bytes_per_second", Field::kBandwidth},
      {"nv/cold/bw/item_rate", Field::kItemRate},
      {"nv/json/bin:nv/cold/sample_times", Field::kBulkTimes},
      {"nv/json/freqs-bin:nv/cold/sample_freqs", Field::kBulkFrequencies},
  };
  return fields;
}

// A dispersion nvbench could not bound is written as null; like nvbench's own compare
// script, perfgate reads it as infinite noise rather than as "not given".
bool null_means_infinite(Field field) {
  switch (field) {
    case Field::kStdevAbsolute:
    case Field::kStdevRelative:
    case Field::kIqrAbsolute:
    case Field::kIqrRelative:
    case Field::kIrAbsolute:
    case Field::kIrRelative:
      return true;
    default:
      return false;
  }
}

std::optional<double> field_value(const JsonCursor& summary, Field field) {
  const auto value = summary_number(summary);
  if (!value && null_means_infinite(field)) return std::numeric_limits<double>::infinity();
  return value;
}

// "Device=0" -> "", "Device=0 T=F32" -> "T=F32"; any other name as it is.
std::string state_key(const std::string& name) {
  constexpr std::string_view kPrefix = "Device=";
  std::string_view key = name;
  if (!key.starts_with(kPrefix)) return name;
  std::size_t end = kPrefix.size();
  while (end < key.size() && key[end] >= '0' && key[end] <= '9') ++end;
  if (end == kPrefix.size()) return name;
  if (end == key.size()) return "";
  if (key[end] != ' ') return name;
  return std::string(key.substr(end + 1));
}

// Reads the bulk-file summary; nullopt with a warning when its size is negative.
std::optional<BulkFile> bulk_file(const JsonCursor& summary, const std::filesystem::path& path,
                                  std::vector<std::string>& warnings) {
  const std::string written = summary_text(summary, "filename");
  const long long size = summary_integer(summary, "size");
  if (written.empty()) {
    warnings.push_back(path.string() + ": " + summary.path() +
                       ": the bulk file name is empty; the state falls back to its summaries");
    return std::nullopt;
  }
  if (size < 0) {
    warnings.push_back(path.string() + ": " + summary.path() + ": the bulk file " + written +
                       " states a negative size (" + std::to_string(size) +
                       "); the state falls back to its summaries");
    return std::nullopt;
  }
  return BulkFile{written, resolve_bulk_path(path, written), static_cast<std::size_t>(size)};
}

std::string axis_value_text(const JsonCursor& value) {
  const Json& json = value.json();
  if (json.is_string()) return json.get<std::string>();
  if (json.is_number()) return json.dump();
  value.fail("expected the axis value as text or a number, found something else");
}

void add_extra(ResultState& state, std::string name, std::string unit, Direction direction,
               std::optional<double> value) {
  if (!value) return;
  state.extra_metrics.push_back(ExtraMetric{std::move(name), std::move(unit), direction, {*value}});
}

// Every summary perfgate uses, assigned to the state.
void read_summaries(const JsonCursor& summaries, const std::filesystem::path& path,
                    ResultState& state, std::vector<std::string>& warnings) {
  TimingSummary& t = state.summary;
  std::optional<double> ir_absolute, ir_relative, cpu_time, batch_gpu_time, bandwidth, item_rate;
  const auto& fields = fields_by_tag();
  const std::size_t count = summaries.size();
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor summary = summaries.item(i);
    const JsonCursor tag = summary.at("tag");
    const auto found = fields.find(std::string_view(tag.string()));
    if (found == fields.end()) continue;
    const Field field = found->second;
    switch (field) {
      case Field::kSampleSize: {
        const long long size = summary_integer(summary, "value");
        if (size < 0) summary.fail("the sample size is negative (" + std::to_string(size) + ")");
        t.sample_size = size;
        break;
      }
      case Field::kBulkTimes:
        state.bulk_times = bulk_file(summary, path, warnings);
        break;
      case Field::kBulkFrequencies:
        state.bulk_frequencies = bulk_file(summary, path, warnings);
        break;
      case Field::kMin:
        t.min = field_value(summary, field);
        break;
      case Field::kMax:
        t.max = field_value(summary, field);
        break;
      case Field::kMean:
        t.mean = field_value(summary, field);
        break;
      case Field::kStdevAbsolute:
        t.stdev_absolute = field_value(summary, field);
        break;
      case Field::kStdevRelative:
        t.stdev_relative = field_value(summary, field);
        break;
      case Field::kQ1:
        t.q1 = field_value(summary, field);
        break;
      case Field::kMedian:
        t.median = field_value(summary, field);
        break;
      case Field::kQ3:
        t.q3 = field_value(summary, field);
        break;
      case Field::kIqrAbsolute:
        t.iqr_absolute = field_value(summary, field);
        break;
      case Field::kIqrRelative:
        t.iqr_relative = field_value(summary, field);
        break;
      case Field::kIrAbsolute:
        ir_absolute = field_value(summary, field);
        break;
      case Field::kIrRelative:
        ir_relative = field_value(summary, field);
        break;
      case Field::kClockRate:
        t.clock_rate_mean = field_value(summary, field);
        break;
      case Field::kCpuTime:
        cpu_time = field_value(summary, field);
        break;
      case Field::kBatchGpuTime:
        batch_gpu_time = field_value(summary, field);
        break;
      case Field::kBandwidth:
        bandwidth = field_value(summary, field);
        break;
      case Field::kItemRate:
        item_rate = field_value(summary, field);
        break;
    }
  }
  if (!t.iqr_absolute) t.iqr_absolute = ir_absolute;
  if (!t.iqr_relative) t.iqr_relative = ir_relative;
  add_extra(state, "cpu_time", "s", Direction::kLowerIsBetter, cpu_time);
  add_extra(state, "batch_gpu_time", "s", Direction::kLowerIsBetter, batch_gpu_time);
  add_extra(state, "global_bandwidth", "B/s", Direction::kHigherIsBetter, bandwidth);
  add_extra(state, "item_rate", "items/s", Direction::kHigherIsBetter, item_rate);

  if (state.bulk_times && state.bulk_frequencies &&
      state.bulk_times->count != state.bulk_frequencies->count) {
    warnings.push_back(
        path.string() + ": " + summaries.path() + ": the sample times hold " +
        std::to_string(state.bulk_times->count) + " values but the sample frequencies " +
        std::to_string(state.bulk_frequencies->count) + "; the state falls back to its summaries");
    state.bulk_times.reset();
    state.bulk_frequencies.reset();
  }
}

ResultState read_state(const JsonCursor& json, const std::string& benchmark,
                       const std::filesystem::path& path, std::vector<std::string>& warnings) {
  ResultState state;
  state.benchmark = benchmark;
  state.timing_name = "gpu_time";
  const JsonCursor name = json.at("name");
  state.state_key = state_key(name.string());
  if (const auto device = json.find("device")) state.device = device->integer();
  if (const auto axes = json.find("axis_values")) {
    const std::size_t count = axes->size();
    state.axis_values.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      const JsonCursor axis = axes->item(i);
      const JsonCursor axis_name = axis.at("name");
      const JsonCursor value = axis.at("value");
      state.axis_values.emplace_back(axis_name.string(), axis_value_text(value));
    }
  }
  if (const auto skipped = json.find("is_skipped")) state.skipped = skipped->boolean();
  if (state.skipped) {
    if (const auto reason = json.find("skip_reason")) state.skip_reason = reason->string();
    return state;  // a skipped state has no summaries
  }
  if (const auto summaries = json.find("summaries")) {
    read_summaries(*summaries, path, state, warnings);
  }
  return state;
}

}  // namespace

ResultFile read_nvbench(const Json& document, const std::filesystem::path& path) {
  const JsonSource source{path.string(), kFix};
  const JsonCursor root(document, source);
  root.expect_object();
  ResultFile file;
  file.format = ResultFormat::kNvbench;
  file.path = path;
  if (const auto meta = root.find("meta")) file.context = meta->json();

  const JsonCursor devices = root.at("devices");
  file.devices.reserve(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const JsonCursor device = devices.item(i);
    const JsonCursor id = device.at("id");
    const auto name = device.find("name");
    file.devices.push_back(ResultDevice{id.integer(), name ? name->string() : ""});
  }

  const JsonCursor benchmarks = root.at("benchmarks");
  const std::size_t benchmark_count = benchmarks.size();
  std::size_t state_count = 0;
  for (const Json& benchmark : benchmarks.json()) {
    const auto states = benchmark.is_object() ? benchmark.find("states") : benchmark.end();
    if (states != benchmark.end() && states->is_array()) state_count += states->size();
  }
  file.benchmarks.reserve(benchmark_count);
  file.states.reserve(state_count);
  for (std::size_t b = 0; b < benchmark_count; ++b) {
    const JsonCursor benchmark = benchmarks.item(b);
    const JsonCursor name = benchmark.at("name");
    ResultBenchmark entry{name.string(), {}};
    if (const auto ids = benchmark.find("devices")) {
      for (std::size_t i = 0; i < ids->size(); ++i) {
        const JsonCursor id = ids->item(i);
        entry.devices.push_back(id.integer());
      }
    }
    file.benchmarks.push_back(entry);
    const JsonCursor states = benchmark.at("states");
    if (states.is_null()) continue;
    const std::size_t count = states.size();
    for (std::size_t s = 0; s < count; ++s) {
      const JsonCursor state = states.item(s);
      file.states.push_back(read_state(state, entry.name, path, file.warnings));
    }
  }
  return file;
}

}  // namespace perfgate::ingest
