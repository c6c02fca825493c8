#include "ingest/google_benchmark_reader.hpp"

#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "ingest/json_cursor.hpp"
#include "ingest/timing_summary.hpp"

namespace perfgate::ingest {
namespace {

constexpr const char* kGbenchFix =
    "Write the file with --benchmark_out=FILE --benchmark_out_format=json; an edited file must "
    "keep Google Benchmark's layout";

// Fields of a row that are not counters.
bool is_known_field(std::string_view key) {
  static const std::unordered_set<std::string_view> known = {"name",
                                                             "run_name",
                                                             "run_type",
                                                             "repetitions",
                                                             "repetition_index",
                                                             "threads",
                                                             "iterations",
                                                             "real_time",
                                                             "cpu_time",
                                                             "time_unit",
                                                             "family_index",
                                                             "per_family_instance_index",
                                                             "aggregate_name",
                                                             "aggregate_unit",
                                                             "error_occurred",
                                                             "error_message",
                                                             "label",
                                                             "skipped",
                                                             "skip_message",
                                                             "big_o",
                                                             "rms",
                                                             "complexity",
                                                             "complexity_n",
                                                             "cpu_coefficient",
                                                             "real_coefficient"};
  return known.contains(key);
}

// Seconds per unit of time_unit.
double seconds_per(const JsonCursor& row) {
  const auto unit = row.find("time_unit");
  if (!unit) return 1e-9;  // Google Benchmark's default unit
  const std::string& name = unit->string();
  if (name == "ns") return 1e-9;
  if (name == "us") return 1e-6;
  if (name == "ms") return 1e-3;
  if (name == "s") return 1.0;
  unit->fail("is \"" + name + "\", but Google Benchmark writes ns, us, ms or s");
}

// One run_name: its rows, gathered while reading, turned into a state at the end.
struct StateRows {
  ResultState state;
  bool has_iterations = false;
  TimingSummary aggregates;
  std::optional<long long> repetitions;
  std::vector<ExtraMetric> mean_extras;  ///< cpu_time and counters of the "mean" aggregate
};

ExtraMetric& extra(std::vector<ExtraMetric>& extras, const std::string& name) {
  for (ExtraMetric& metric : extras) {
    if (metric.name == name) return metric;
  }
  ExtraMetric metric;
  metric.name = name;
  if (name == "cpu_time") {
    metric.unit = "s";
  } else if (name == "bytes_per_second") {
    metric.unit = "B/s";
  } else if (name == "items_per_second") {
    metric.unit = "items/s";
  }
  metric.direction =
      name.ends_with("_per_second") ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
  extras.push_back(std::move(metric));
  return extras.back();
}

class GoogleBenchmarkReader {
 public:
  GoogleBenchmarkReader(const std::filesystem::path& path, ResultFile& file)
      : path_(path), file_(file) {}

  void read_row(const JsonCursor& row) {
    row.expect_object();
    const JsonCursor name = row.at("name");
    const auto run_name = row.find("run_name");
    const std::string& key = run_name ? run_name->string() : name.string();
    const auto run_type_field = row.find("run_type");
    const std::string run_type = run_type_field ? run_type_field->string() : "iteration";
    const auto aggregate_field = row.find("aggregate_name");
    const std::string aggregate = aggregate_field ? aggregate_field->string() : "";
    if (aggregate == "BigO" || aggregate == "RMS" || row.json().contains("big_o") ||
        row.json().contains("rms")) {
      warn(row, "the complexity row " + name.string() + " is not a timing; skipped");
      return;
    }
    if (run_type != "iteration" && run_type != "aggregate") {
      run_type_field->fail("is \"" + run_type +
                           "\", but Google Benchmark writes iteration or "
                           "aggregate");
    }
    StateRows& rows = rows_of(key);
    if (mark_skipped(row, rows.state)) return;
    // An aggregate row without an aggregate_name (older writers, hand-made files) names no
    // statistic; its real_time is one measurement like an iteration row's.
    if (run_type == "iteration" || aggregate.empty()) {
      read_iteration(row, rows);
    } else {
      read_aggregate(row, aggregate, rows);
    }
  }

  void finish() {
    file_.states.reserve(states_.size());
    for (StateRows& rows : states_) {
      ResultState& state = rows.state;
      if (rows.has_iterations) {
        state.summary = summarize_timing(state.samples);
      } else {
        state.summary = rows.aggregates;
        state.summary.sample_size = rows.repetitions;
        state.extra_metrics = std::move(rows.mean_extras);
      }
      file_.states.push_back(std::move(state));
    }
  }

 private:
  void warn(const JsonCursor& at, const std::string& text) {
    file_.warnings.push_back(path_.string() + ": " + at.path() + ": " + text);
  }

  StateRows& rows_of(const std::string& run_name) {
    const auto [found, added] = index_.try_emplace(run_name, states_.size());
    if (!added) return states_[found->second];
    StateRows rows;
    ResultState& state = rows.state;
    state.timing_name = "real_time";
    const std::size_t slash = run_name.find('/');
    state.benchmark = run_name.substr(0, slash);
    if (slash != std::string::npos) {
      state.state_key = run_name.substr(slash + 1);
      add_axes(state);
    }
    if (benchmark_names_.insert(state.benchmark).second) {
      file_.benchmarks.push_back(ResultBenchmark{state.benchmark, {}});
    }
    states_.push_back(std::move(rows));
    return states_.back();
  }

  // "8/size:64/real_time" -> (arg0, 8), (size, 64), (arg1, real_time).
  static void add_axes(ResultState& state) {
    std::string_view rest = state.state_key;
    int unnamed = 0;
    while (!rest.empty()) {
      const std::size_t slash = rest.find('/');
      const std::string_view segment = rest.substr(0, slash);
      const std::size_t colon = segment.find(':');
      if (colon == std::string_view::npos) {
        state.axis_values.emplace_back("arg" + std::to_string(unnamed++), std::string(segment));
      } else {
        state.axis_values.emplace_back(std::string(segment.substr(0, colon)),
                                       std::string(segment.substr(colon + 1)));
      }
      if (slash == std::string_view::npos) break;
      rest.remove_prefix(slash + 1);
    }
  }

  // A row that failed or was skipped marks its whole state; true when it did.
  static bool mark_skipped(const JsonCursor& row, ResultState& state) {
    const auto error = row.find("error_occurred");
    if (error && error->boolean()) {
      const auto message = row.find("error_message");
      state.skipped = true;
      if (state.skip_reason.empty()) state.skip_reason = message ? message->string() : "error";
      return true;
    }
    const auto skipped = row.find("skipped");
    if (skipped && skipped->json().is_boolean() && skipped->boolean()) {
      const auto message = row.find("skip_message");
      state.skipped = true;
      if (state.skip_reason.empty()) state.skip_reason = message ? message->string() : "skipped";
      return true;
    }
    return false;
  }

  // A finite value, or nullopt with a warning that the sample was dropped.
  std::optional<double> finite(const JsonCursor& value) {
    const double number = value.number();
    if (std::isfinite(number)) return number;
    const char* text = std::isnan(number) ? "NaN" : number > 0 ? "Infinity" : "-Infinity";
    warn(value, std::string(text) + " is not a measurement; sample dropped");
    return std::nullopt;
  }

  void read_iteration(const JsonCursor& row, StateRows& rows) {
    rows.has_iterations = true;
    const double unit = seconds_per(row);
    const JsonCursor real_time = row.at("real_time");
    if (const auto seconds = finite(real_time)) rows.state.samples.push_back(*seconds * unit);
    read_extras(row, unit, rows.state.extra_metrics);
  }

  void read_extras(const JsonCursor& row, double unit, std::vector<ExtraMetric>& extras) {
    if (const auto cpu_time = row.find("cpu_time")) {
      if (const auto seconds = finite(*cpu_time))
        extra(extras, "cpu_time").samples.push_back(*seconds * unit);
    }
    for (const auto& [key, value] : row.json().items()) {
      if (!value.is_number() || is_known_field(key)) continue;
      const JsonCursor counter = row.at(key);
      if (const auto number = finite(counter)) extra(extras, key).samples.push_back(*number);
    }
  }

  void read_aggregate(const JsonCursor& row, const std::string& aggregate, StateRows& rows) {
    if (const auto repetitions = row.find("repetitions")) rows.repetitions = repetitions->integer();
    const auto real_time = row.find("real_time");
    if (!real_time) return;
    const double value = real_time->number();
    TimingSummary& t = rows.aggregates;
    // cv is a fraction (aggregate_unit "percentage"), not a time.
    if (aggregate == "cv") {
      t.stdev_relative = value;
      return;
    }
    const double seconds = value * seconds_per(row);
    if (aggregate == "mean") {
      t.mean = seconds;
      read_extras(row, seconds_per(row), rows.mean_extras);
    } else if (aggregate == "median") {
      t.median = seconds;
    } else if (aggregate == "stddev") {
      t.stdev_absolute = seconds;
    } else if (aggregate == "min") {
      t.min = seconds;
    } else if (aggregate == "max") {
      t.max = seconds;
    }
  }

  const std::filesystem::path& path_;
  ResultFile& file_;
  std::vector<StateRows> states_;
  std::unordered_map<std::string, std::size_t> index_;
  std::unordered_set<std::string> benchmark_names_;
};

}  // namespace

ResultFile read_google_benchmark(const Json& document, const std::filesystem::path& path) {
  const JsonSource source{path.string(), kGbenchFix};
  const JsonCursor root(document, source);
  root.expect_object();
  ResultFile file;
  file.format = ResultFormat::kGoogleBenchmark;
  file.path = path;
  if (const auto context = root.find("context")) {
    context->expect_object();
    file.context = context->json();
  }
  const JsonCursor rows = root.at("benchmarks");
  GoogleBenchmarkReader reader(path, file);
  const std::size_t count = rows.size();
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor row = rows.item(i);
    reader.read_row(row);
  }
  reader.finish();
  return file;
}

}  // namespace perfgate::ingest
