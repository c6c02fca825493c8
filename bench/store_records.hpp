#pragma once
// The records of the store benchmarks (store_bench, store_scale_bench): a nightly job's
// record of cohort C in round R, the raw record a PR run of cohort C would upload, and the
// SQLite floor: the same rows through one prepared INSERT.
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "gate/batch_comparison.hpp"
#include "model/attempt.hpp"
#include "model/fingerprint.hpp"
#include "model/normalized_record.hpp"
#include "model/raw_record.hpp"
#include "stats/summary.hpp"
#include "store/cohort_history.hpp"
#include "store/store.hpp"

namespace perfgate::bench {

inline std::string recipe_of(int cohort) {
  return perfgate::sha256_hex("recipe-" + std::to_string(cohort));
}

inline perfgate::NormalizedRecord stored_record(int cohort, int round) {
  perfgate::NormalizedRecord r;
  r.benchmark_id = "bench-" + std::to_string(cohort);
  r.config_schema_version = 2;
  r.workload_id = "workload-" + std::to_string(cohort);
  r.variant_id = "default";
  r.benchmark_version = 1;
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "2026-11-%02dT%02d:%02d:00Z", 1 + round / 24 % 28, round % 24,
                cohort % 60);
  r.timestamp = stamp;
  r.commit_sha = perfgate::sha256_hex("commit-" + std::to_string(round)).substr(0, 40);
  r.device = "AMD EPYC";
  r.metrics["latency"] = {0.100 + 0.001 * (round % 7), "s", perfgate::Direction::kLowerIsBetter};
  r.metrics["memory"] = {512.0 + round % 5, "MB", perfgate::Direction::kLowerIsBetter};
  r.metrics["cpu_time"] = {0.090 + 0.001 * (round % 3), "s", perfgate::Direction::kLowerIsBetter};
  r.recipe_fingerprint = recipe_of(cohort);
  r.hardware_profile_id = "hw-0123456789abcdef";
  r.software_profile_id = "sw-0123456789abcdef";
  r.environment_fingerprint = "env-0123456789abcdef";
  r.run_source = "scheduled_main";
  r.baseline_status = perfgate::kBaselineCompared;
  r.comparison_status = perfgate::kPass;
  r.comparison_status_reason = "Comparable baseline found with no gated regressions";
  r.baseline_eligible = true;
  return r;
}

inline perfgate::Json raw_record(int cohort) {
  perfgate::RawRecord raw;
  raw.identity = {"bench-" + std::to_string(cohort),
                  "bench-" + std::to_string(cohort),
                  2,
                  "workload-" + std::to_string(cohort),
                  "default",
                  1,
                  {}};
  raw.config_path = "bench.toml";
  raw.perfgate_version = "bench";
  raw.num_measurement_runs = 3;
  for (const auto& [name, unit, value] :
       {std::tuple{"latency", "s", 0.104}, {"memory", "MB", 514.0}, {"cpu_time", "s", 0.091}}) {
    perfgate::MetricSeries series{*perfgate::standard_metric(name), {value, value, value}, {}};
    series.metric.unit = unit;
    series.summary = perfgate::summarize(series.samples);
    raw.metrics.emplace(name, series);
  }
  raw.recipe_fingerprint = recipe_of(cohort);
  raw.provenance.timestamp = "2026-11-30T12:00:00Z";
  raw.provenance.device = "AMD EPYC";
  raw.provenance.hardware_profile_id = "hw-0123456789abcdef";
  raw.provenance.software_profile_id = "sw-0123456789abcdef";
  raw.provenance.environment_fingerprint = "env-0123456789abcdef";
  raw.provenance.ci = {{"provider", "local"},  {"commit", nullptr},    {"branch", nullptr},
                       {"pr_number", nullptr}, {"build_url", nullptr}, {"build_id", nullptr},
                       {"job_id", nullptr},    {"scheduled", false}};
  raw.provenance.run_source = "pr";
  return perfgate::to_json(raw);
}

/// The floor: the same rows in the same tables (perfgate's schema, its indexes and keys),
/// one prepared INSERT, one transaction, nothing else.
inline double insert_floor(const std::filesystem::path& file,
                           const std::vector<perfgate::Attempt>& attempts,
                           bool commit_per_attempt) {
  perfgate::open_store("sqlite:" + file.string());  // lays out the schema, then is closed
  sqlite3* db = nullptr;
  sqlite3_open(file.c_str(), &db);
  sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", nullptr, nullptr,
               nullptr);
  // Row texts are made before the clock starts: the floor is the database's own cost.
  std::vector<std::string> texts;
  for (const auto& attempt : attempts) {
    for (const auto& r : attempt.records) texts.push_back(perfgate::record_content_text(r));
  }
  const auto start = std::chrono::steady_clock::now();
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(
      db,
      "INSERT INTO records (record_id, attempt_id, benchmark_id, timestamp, workload_id, "
      "variant_id, "
      "benchmark_version, recipe_fingerprint, hardware_profile_id, software_profile_id, "
      "run_source, "
      "success, baseline_eligible, json) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
      -1, &insert, nullptr);
  sqlite3_stmt* header = nullptr;
  sqlite3_prepare_v2(
      db,
      "INSERT INTO attempts (attempt_id, created_at, commit_sha, run_source, success, json) "
      "VALUES (?1, '2026-11-30T00:00:00Z', '', 'scheduled_main', 1, '{}')",
      -1, &header, nullptr);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  std::size_t i = 0;
  for (const auto& attempt : attempts) {
    if (commit_per_attempt && i != 0) {
      sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
      sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    }
    sqlite3_bind_text(header, 1, attempt.attempt_id.c_str(), -1, SQLITE_STATIC);
    sqlite3_step(header);
    sqlite3_reset(header);
    for (const auto& r : attempt.records) {
      sqlite3_bind_text(insert, 1, r.record_id.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 2, attempt.attempt_id.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 3, r.benchmark_id.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 4, r.timestamp.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 5, r.workload_id->c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 6, r.variant_id->c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_int64(insert, 7, *r.benchmark_version);
      sqlite3_bind_text(insert, 8, r.recipe_fingerprint.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 9, r.hardware_profile_id.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 10, r.software_profile_id.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 11, r.run_source.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_int(insert, 12, 1);
      sqlite3_bind_int(insert, 13, 1);
      sqlite3_bind_text(insert, 14, texts[i++].c_str(), -1, SQLITE_STATIC);
      sqlite3_step(insert);
      sqlite3_reset(insert);
    }
  }
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sqlite3_finalize(insert);
  sqlite3_finalize(header);
  sqlite3_close(db);
  return elapsed;
}

/// A PR batch of one raw record per cohort 0..cohorts-1, judged against the store as
/// `compare` does; the statuses, and the seconds it took in `seconds`.
inline std::vector<perfgate::NormalizedRecord> compare_batch(perfgate::Store& store, int cohorts,
                                                             double& seconds) {
  std::vector<perfgate::RawInput> batch;
  for (int cohort = 0; cohort < cohorts; ++cohort) {
    batch.push_back({"perf_bench-" + std::to_string(cohort) + ".json", raw_record(cohort),
                     perfgate::sha256_hex("raw " + std::to_string(cohort)), ""});
  }
  const auto start = std::chrono::steady_clock::now();
  const perfgate::BatchOptions options;
  const auto pending = perfgate::normalize_batch(batch, options);
  std::vector<perfgate::NormalizedRecord> normalized;
  for (const auto& entry : pending) normalized.push_back(entry.record);
  auto judged = perfgate::judge_batch(
      pending, perfgate::fetch_cohort_histories(store, normalized, options.trusted_run_sources),
      options);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return judged;
}

}  // namespace perfgate::bench
