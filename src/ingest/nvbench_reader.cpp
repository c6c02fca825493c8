#include "ingest/nvbench_reader.hpp"

#include <limits>

#include "ingest/bulk_file.hpp"
#include "ingest/json_cursor.hpp"
#include "ingest/nvbench_summary.hpp"
#include "ingest/nvbench_tags.hpp"

namespace perfgate::ingest {
namespace {

constexpr const char* kNvbenchFix =
    "Write the file with nvbench --json (or --jsonbin); an edited file must keep nvbench's "
    "layout";

std::optional<double> field_value(const JsonCursor& summary, NvbenchField field) {
  const auto value = summary_number(summary);
  if (!value && null_means_infinite(field)) return std::numeric_limits<double>::infinity();
  return value;
}

// Reads the bulk-file summary; nullopt with a warning when its size is negative.
std::optional<BulkFile> bulk_file(const JsonCursor& summary, const std::filesystem::path& path,
                                  std::vector<std::string>& warnings, BulkFolders& folders) {
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
  return BulkFile{written, resolve_bulk_path(path, written, folders),
                  static_cast<std::size_t>(size)};
}

std::string axis_value_text(const JsonCursor& value) {
  const Json& json = value.json();
  if (json.is_string()) return json.get<std::string>();
  if (json.is_number()) return json.dump();
  value.fail("expected the axis value as text or a number, found something else");
}

// Every summary perfgate uses, assigned to the state.
void read_summaries(const JsonCursor& summaries, const std::filesystem::path& path,
                    ResultState& state, std::vector<std::string>& warnings, BulkFolders& folders) {
  TimingSummary& t = state.summary;
  NvbenchOtherSummaries other;
  const std::size_t count = summaries.size();
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor summary = summaries.item(i);
    const JsonCursor tag = summary.at("tag");
    const auto found = nvbench_field(tag.string());
    if (!found) continue;
    const NvbenchField field = *found;
    switch (field) {
      case NvbenchField::kSampleSize: {
        const long long size = summary_integer(summary, "value");
        if (size < 0) summary.fail("the sample size is negative (" + std::to_string(size) + ")");
        t.sample_size = size;
        break;
      }
      case NvbenchField::kBulkTimes:
        state.bulk_times = bulk_file(summary, path, warnings, folders);
        break;
      case NvbenchField::kBulkFrequencies:
        state.bulk_frequencies = bulk_file(summary, path, warnings, folders);
        break;
      case NvbenchField::kMin:
        t.min = field_value(summary, field);
        break;
      case NvbenchField::kMax:
        t.max = field_value(summary, field);
        break;
      case NvbenchField::kMean:
        t.mean = field_value(summary, field);
        break;
      case NvbenchField::kStdevAbsolute:
        t.stdev_absolute = field_value(summary, field);
        break;
      case NvbenchField::kStdevRelative:
        t.stdev_relative = field_value(summary, field);
        break;
      case NvbenchField::kQ1:
        t.q1 = field_value(summary, field);
        break;
      case NvbenchField::kMedian:
        t.median = field_value(summary, field);
        break;
      case NvbenchField::kQ3:
        t.q3 = field_value(summary, field);
        break;
      case NvbenchField::kIqrAbsolute:
        t.iqr_absolute = field_value(summary, field);
        break;
      case NvbenchField::kIqrRelative:
        t.iqr_relative = field_value(summary, field);
        break;
      case NvbenchField::kIrAbsolute:
        other.ir_absolute = field_value(summary, field);
        break;
      case NvbenchField::kIrRelative:
        other.ir_relative = field_value(summary, field);
        break;
      case NvbenchField::kClockRate:
        t.clock_rate_mean = field_value(summary, field);
        break;
      case NvbenchField::kCpuTime:
        other.cpu_time = field_value(summary, field);
        break;
      case NvbenchField::kBatchGpuTime:
        other.batch_gpu_time = field_value(summary, field);
        break;
      case NvbenchField::kBandwidth:
        other.bandwidth = field_value(summary, field);
        break;
      case NvbenchField::kItemRate:
        other.item_rate = field_value(summary, field);
        break;
    }
  }
  finish_nvbench_summaries(state, other);

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
                       const std::filesystem::path& path, std::vector<std::string>& warnings,
                       BulkFolders& folders) {
  ResultState state;
  state.benchmark = benchmark;
  state.timing_name = "gpu_time";
  const JsonCursor name = json.at("name");
  state.state_key = nvbench_state_key(name.string());
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
    read_summaries(*summaries, path, state, warnings, folders);
  }
  return state;
}

}  // namespace

ResultFile read_nvbench(const Json& document, const std::filesystem::path& path) {
  const JsonSource source{path.string(), kNvbenchFix};
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
  BulkFolders folders;
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
      file.states.push_back(read_state(state, entry.name, path, file.warnings, folders));
    }
  }
  return file;
}

}  // namespace perfgate::ingest
