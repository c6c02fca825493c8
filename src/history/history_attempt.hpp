#pragma once
// One attempt at measuring one commit (seed 003's versioned envelope): who measured it,
// where and how, and either its cases or its errors. The file is written once by
// `history measure` and never changed; readers validate every field and keep the document
// as it was, unknown fields included. Format: docs/history.md.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/history_document.hpp"
#include "model/json.hpp"

namespace perfgate::history {

/// "<sha>-<run>-<attempt>": the name of an attempt's file and raw folder.
struct AttemptIdentity {
  std::string sha;  ///< 40 hex digits
  std::string run;  ///< letters, digits, '.', '_' and '-'
  int attempt = 1;
  std::string text() const;
  auto operator<=>(const AttemptIdentity&) const = default;
};
/// nullopt when `text` is not of that form.
std::optional<AttemptIdentity> parse_attempt_identity(std::string_view text);
/// Whether `text` is a full commit SHA: 40 lowercase hex digits.
bool is_full_sha(std::string_view text);
/// Whether `run` may stand in an identity.
bool valid_run_id(std::string_view run);

/// One metric of one measured case, summarised over its repetitions.
struct CaseMetric {
  std::string unit;
  double median = 0;
  double mad = 0;
  double min = 0;
  double max = 0;
  int count = 0;  ///< samples; must equal the case's repetitions
  bool operator==(const CaseMetric&) const = default;
};

/// Units of time, whose zero median means a broken measurement (CPU time excepted).
bool is_time_unit(std::string_view unit);

struct MeasuredCase {
  std::string name;       ///< the benchmark state, e.g. "sort[n=1000]"
  std::string config;     ///< its config file, relative to the suite
  std::string source_id;  ///< git object id of that config file in the commit ("" unknown)
  int repetitions = 0;    ///< measured runs
  int threads = 1;        ///< threads or ranks it ran with
  std::map<std::string, CaseMetric> metrics;  ///< "latency", "cpu_time", "memory", ...
  bool operator==(const MeasuredCase&) const = default;
};

struct AttemptError {
  std::string stage;  ///< "checkout", "build", "suite", "validation", "case"
  std::string message;
  bool operator==(const AttemptError&) const = default;
};

struct HistoryAttempt {
  AttemptIdentity identity;
  std::string harness_sha;  ///< the checkout whose perfgate.toml drove the measurement
  int harness_version = 1;
  std::map<std::string, std::string> benchmark_sources;  ///< path -> object id ("" absent)
  std::string started_at;                                ///< ISO 8601 UTC
  std::string finished_at;
  std::string label = "diagnostic";     ///< or "stable"
  Json environment = Json::object();    ///< id, cpu, kernel, os, compiler, threads, ...
  Json configuration = Json::object();  ///< build commands, suite, flags
  bool success = false;
  std::vector<AttemptError> errors;
  std::vector<std::string> missing_cases;
  std::vector<MeasuredCase> cases;
  std::string raw_path;  ///< "raw/<identity>/"
  /// Fields this perfgate does not know, kept as they were read.
  Json unknown_fields = Json::object();
  bool operator==(const HistoryAttempt&) const = default;
};

/// The fields of an attempt file this perfgate knows; any other is kept as it was read.
inline constexpr std::array<std::string_view, 18> kAttemptFields = {"schema_version",
                                                                    "kind",
                                                                    "sha",
                                                                    "harness_sha",
                                                                    "harness_version",
                                                                    "benchmark_sources",
                                                                    "run",
                                                                    "attempt",
                                                                    "started_at",
                                                                    "finished_at",
                                                                    "label",
                                                                    "environment",
                                                                    "configuration",
                                                                    "status",
                                                                    "errors",
                                                                    "missing_cases",
                                                                    "cases",
                                                                    "raw_path"};

Json to_json(const HistoryAttempt& attempt);

/// Parses and validates an attempt file. Error(kDataError) "<source>: ..." listing every
/// reason it is rejected: malformed JSON, a missing or mistyped field, a non-finite or
/// negative value, a zero median time (CPU time excepted), a sample count that is not the
/// repetition count, a median outside its min..max, a success with errors or a failure without any,
/// a newer schema_version. (Whether the file's name is its identity is the caller's check.)
/// A valid file is read by read_valid_attempt_fast; any other by read_attempt_strict.
HistoryAttempt read_attempt(const std::string& text, const std::string& source);

/// The same without the fast path, which tests and the fuzzer hold it to.
HistoryAttempt read_attempt_strict(const std::string& text, const std::string& source);

}  // namespace perfgate::history
