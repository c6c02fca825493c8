#pragma once
// Result files of other benchmark tools (and perfgate's own records), read into one model
// so that `perfgate diff` and `perfgate import` work the same way on every format
// (SPEC §8). One reader per format lives beside this file; read_result_file picks one.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ingest/state_listener.hpp"
#include "model/json.hpp"
#include "model/metric.hpp"
#include "model/normalized_record.hpp"

namespace perfgate::ingest {

enum class ResultFormat {
  kNvbench,             ///< nvbench --json (optionally with --jsonbin sample files)
  kGoogleBenchmark,     ///< Google Benchmark --benchmark_format=json / --benchmark_out
  kHyperfine,           ///< hyperfine --export-json
  kPyperf,              ///< pyperf JSON, plain or gzipped
  kPerfgateRaw,         ///< perfgate raw record (perf_*.json written by `perfgate run`)
  kPerfgateNormalized,  ///< perfgate normalised record (normalized_perf_*.json)
};

/// "nvbench", "gbench", "hyperfine", "pyperf", "perfgate-raw", "perfgate-normalized":
/// the spellings --format-in accepts and displays use.
std::string_view to_string(ResultFormat format);
std::optional<ResultFormat> parse_result_format(std::string_view text);
/// What a file of this format is, for people: "a Google Benchmark file", "an nvbench
/// file", "a perfgate raw record"...
std::string_view describe_format(ResultFormat format);
/// True for formats that carry a clock rate (only nvbench): the only ones whose clear gap
/// can be confirmed in cycle space.
bool format_has_clock(ResultFormat format);

/// Summary statistics of a state's primary timing as the file states them, in seconds
/// (relative values are fractions). A field the file does not give is nullopt; readers
/// never invent one. Readers of formats that carry samples (Google Benchmark, hyperfine,
/// pyperf, perfgate raw) fill every field from those samples with stats/summary
/// (stdev n-1, quartiles type 7).
struct TimingSummary {
  std::optional<double> min;
  std::optional<double> max;
  std::optional<double> mean;
  std::optional<double> stdev_absolute;
  std::optional<double> stdev_relative;
  std::optional<double> q1;
  std::optional<double> median;
  std::optional<double> q3;
  std::optional<double> iqr_absolute;
  std::optional<double> iqr_relative;
  std::optional<double> clock_rate_mean;  ///< Hz (nvbench nv/cold/sm_clock_rate/mean)
  std::optional<long long> sample_size;
};

/// A --jsonbin side file of little-endian float32 values, not read until asked for.
struct BulkFile {
  std::string written_name;  ///< the filename exactly as the JSON states it
  /// Where it is, by nvbench's rule (resolve_bulk_path). Text, not a filesystem::path:
  /// thousands are made per file, and only opened.
  std::string path;
  std::size_t count = 0;  ///< the "size" the JSON states
};

/// A metric of a state other than the primary timing (Google Benchmark cpu_time and
/// counters, hyperfine user/system/memory, nvbench bandwidth...). Used by import.
struct ExtraMetric {
  std::string name;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
  std::vector<double> samples;  ///< one per repetition/run; a single value when only that
};

/// One benchmark state: what nvbench calls a state, Google Benchmark a benchmark instance,
/// hyperfine a command (with its parameter values), pyperf a benchmark.
struct ResultState {
  std::string benchmark;            ///< the name `-b` matches
  std::optional<long long> device;  ///< nvbench device id; nullopt for host-only formats
  /// Matches states across files together with axis_values: nvbench's state name without
  /// its "Device=N " prefix; for other formats the part of the name after the benchmark.
  std::string state_key;
  /// (axis name, value as text) in the file's order; `-a NAME=VALUE` matches the text.
  std::vector<std::pair<std::string, std::string>> axis_values;
  bool skipped = false;
  std::string skip_reason;
  std::string timing_name;  ///< what the primary timing is: "gpu_time", "real_time", ...
  TimingSummary summary;
  /// Samples of the primary timing held in the file itself, in seconds, in file order
  /// (Google Benchmark iteration rows, hyperfine times, pyperf values, perfgate runs).
  std::vector<double> samples;
  std::optional<BulkFile> bulk_times;        ///< nvbench nv/json/bin:nv/cold/sample_times
  std::optional<BulkFile> bulk_frequencies;  ///< nvbench nv/json/freqs-bin:nv/cold/sample_freqs
  std::vector<ExtraMetric> extra_metrics;
};

struct ResultDevice {
  long long id = 0;
  std::string name;
};

struct ResultBenchmark {
  std::string name;
  std::vector<long long> devices;  ///< the device ids the benchmark ran on (nvbench)
};

struct ResultFile {
  ResultFormat format = ResultFormat::kNvbench;
  std::filesystem::path path;
  std::vector<ResultDevice> devices;        ///< empty for host-only formats
  std::vector<ResultBenchmark> benchmarks;  ///< in file order
  std::vector<ResultState> states;          ///< in file order
  Json context = Json::object();            ///< the format's run metadata, for import
  std::vector<std::string> warnings;        ///< things skipped that the user should know
  /// SHA-256 of the file's bytes as read (before any gunzip): the identity of what was
  /// measured, so that importing the same file twice finds it stored.
  std::string sha256;
  /// perfgate-normalized files only: the records themselves, as stored history keeps them
  /// (identity, timestamps normalised to UTC, profile ids, statuses), for import.
  std::vector<NormalizedRecord> normalized_records;
};

/// The format of a parsed document, from its content alone; nullopt when unknown.
/// (read_result_file recognises gzip by its magic bytes before parsing.)
std::optional<ResultFormat> detect_result_format(const Json& document);

/// Reads a result file. The format comes from the content unless `format` is given
/// (--format-in). Error(kNoInput) when the file cannot be read, Error(kDataError)
/// "<file>: <json.path>: <reason>. <fix>" for anything malformed or an unknown format.
ResultFile read_result_file(const std::filesystem::path& path,
                            std::optional<ResultFormat> format = std::nullopt);

/// What a reader may leave out when its caller does not need it.
struct ReadOptions {
  /// Compute ResultFile::sha256 (import needs it; diff does not, and hashing a large file
  /// costs as much as parsing it).
  bool digest = true;
  /// Told about each state while an nvbench file is read by the fast reader (nullptr:
  /// nobody). The strict reader tells it nothing.
  StateListener* listener = nullptr;
};
/// As above, with options; the two-argument form reads with the defaults.
ResultFile read_result_file(const std::filesystem::path& path, std::optional<ResultFormat> format,
                            const ReadOptions& options);

/// The float32 values of a bulk file, widened to double. nullopt with `warning` set
/// ("<file>: <reason>") when the file is missing, unreadable or of the wrong size: callers
/// fall back to summaries.
std::optional<std::vector<double>> load_bulk_file(const BulkFile& file, std::string& warning);

}  // namespace perfgate::ingest
