#pragma once
// The compatibility series a measurement belongs to (SPEC §9, seed 003): two measurements
// share a series only when everything that could change the number other than the code
// under test is the same. Incompatible measurements never share a series: another CPU,
// kernel, container, compiler, flag, build, thread count, repetition count, harness
// version, label or timing scope gives another id. An edit to a benchmark source, even to a
// comment, changes its git object id and so starts a new series; ordinary changes to the
// measured code keep it. Failed attempts never make series points (the export takes only
// successful attempts).
#include <array>
#include <string>
#include <string_view>

#include "history/history_attempt.hpp"

namespace perfgate::history {

/// An attempt's configuration as identities count it: as recorded, without the keys that
/// bound the work rather than change it (kLimitKeys: `timeout_s`). Raising a timeout
/// starts no new series (issue 35).
Json identity_configuration(const Json& configuration);

/// The configuration keys that identities leave out.
inline constexpr std::array<std::string_view, 1> kLimitKeys = {"timeout_s"};

/// The measurement setup an attempt was made with, apart from the machine and the code: 16
/// hex digits of fingerprint({"configuration": identity_configuration(configuration),
/// "harness_version": harness_version}). On one environment, a commit's attempts of one
/// setup replace each other (the latest wins); an attempt of another setup is another
/// measurement, with its own winner and series. `history plan` selects the commits without
/// a winning attempt in the setup perfgate.toml gives now.
std::string setup_id(const Json& configuration, int harness_version);
std::string setup_id(const HistoryAttempt& attempt);

/// The machine an attempt ran on: its environment's "id" (--environment, else the hardware
/// profile id); "" when the attempt does not say.
std::string environment_id(const HistoryAttempt& attempt);

/// The attempt-level half of a series id: lowercase hex SHA-256 (64 digits) of the canonical
/// JSON (docs/fingerprints.md) of
///   {"benchmark_sources": {path: object id, ...},
///    "configuration": identity_configuration(<object>),
///    "environment": <object>, "harness_version": <int>, "label": "stable"|"diagnostic"}
/// with the attempt's whole environment object as it was recorded.
/// Computed once per attempt: hashing the environment is the costly part.
std::string series_attempt_part(const HistoryAttempt& attempt);

/// "s-" followed by the first 16 hex digits of fingerprint() of
///   {"attempt_part": series_attempt_part(attempt), "case": measured.name,
///    "metric": metric, "repetitions": measured.repetitions,
///    "source_id": measured.source_id, "threads": measured.threads,
///    "unit": <the metric's unit>}
/// The metric name and unit are the timing scope. std::out_of_range when `metric` is not
/// one of measured.metrics (a caller's bug).
std::string series_id(std::string_view attempt_part, const MeasuredCase& measured,
                      const std::string& metric);

/// series_id(series_attempt_part(attempt), measured, metric).
std::string series_id(const HistoryAttempt& attempt, const MeasuredCase& measured,
                      const std::string& metric);

}  // namespace perfgate::history
