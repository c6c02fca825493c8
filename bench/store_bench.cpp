// make bench, store part: append 100,000 normalised records (1,000 cohorts x 100) to the
// SQLite store beside the floor (the same rows through one prepared INSERT in one
// transaction), then compare a batch of 1,000 raw records against that store.
// With KEEP, the appended store is also written there, for the dashboard bench (run.sh).
// Usage: store_bench [COHORTS] [RECORDS_PER_COHORT] [KEEP]
#include <sqlite3.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gate/batch_comparison.hpp"
#include "model/attempt.hpp"
#include "model/fingerprint.hpp"
#include "model/raw_record.hpp"
#include "stats/summary.hpp"
#include "store/cohort_history.hpp"
#include "store/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string recipe_of(int cohort) {
  return perfgate::sha256_hex("recipe-" + std::to_string(cohort));
}

perfgate::NormalizedRecord stored_record(int cohort, int round) {
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

perfgate::Json raw_record(int cohort) {
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
double insert_floor(const fs::path& file, const std::vector<perfgate::Attempt>& attempts,
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
  const auto start = Clock::now();
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
  const double elapsed = seconds_since(start);
  sqlite3_finalize(insert);
  sqlite3_finalize(header);
  sqlite3_close(db);
  return elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  const int cohorts = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 100;
  const fs::path dir =
      fs::temp_directory_path() / ("perfgate-store-bench-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  // One attempt per round holding one record of every cohort, as a nightly job would.
  std::vector<perfgate::Attempt> attempts;
  const auto build_start = Clock::now();
  for (int round = 0; round < rounds; ++round) {
    perfgate::Attempt attempt;
    attempt.created_at = "2026-11-30T00:00:00Z";
    attempt.run_source = "scheduled_main";
    for (int cohort = 0; cohort < cohorts; ++cohort)
      attempt.records.push_back(stored_record(cohort, round));
    perfgate::assign_attempt_id(attempt);
    attempts.push_back(std::move(attempt));
  }
  const double id_seconds = seconds_since(build_start);
  double single_seconds = 0;

  // (a) everything in one attempt: one transaction, like the floor.
  perfgate::Attempt everything;
  everything.created_at = "2026-11-30T00:00:00Z";
  everything.run_source = "scheduled_main";
  for (const auto& attempt : attempts) {
    everything.records.insert(everything.records.end(), attempt.records.begin(),
                              attempt.records.end());
  }
  everything.attempt_id = perfgate::attempt_content_id(everything);
  {
    const auto single = perfgate::open_store("sqlite:" + (dir / "single.db").string());
    const auto start = Clock::now();
    single->append(everything);
    single_seconds = seconds_since(start);
  }
  everything = {};
  const double floor_single = insert_floor(dir / "floor-single.db", attempts, false);

  // (b) one attempt per round: a transaction each, as nightly jobs would append.
  const auto store = perfgate::open_store("sqlite:" + (dir / "perfgate.db").string());
  const auto append_start = Clock::now();
  for (const auto& attempt : attempts) store->append(attempt);
  const double append_seconds = seconds_since(append_start);
  const double floor_per_attempt = insert_floor(dir / "floor-rounds.db", attempts, true);

  std::vector<perfgate::RawInput> batch;
  for (int cohort = 0; cohort < cohorts; ++cohort) {
    batch.push_back({"perf_bench-" + std::to_string(cohort) + ".json", raw_record(cohort),
                     perfgate::sha256_hex("raw " + std::to_string(cohort)), ""});
  }
  const auto compare_start = Clock::now();
  const perfgate::BatchOptions options;
  const auto pending = perfgate::normalize_batch(batch, options);
  std::vector<perfgate::NormalizedRecord> normalized;
  for (const auto& entry : pending) normalized.push_back(entry.record);
  const auto compared = perfgate::judge_batch(
      pending, perfgate::fetch_cohort_histories(*store, normalized, options.trusted_run_sources),
      options);
  const double compare_seconds = seconds_since(compare_start);

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const long records = static_cast<long>(cohorts) * rounds;
  const auto row = [&](const std::string& name, double seconds, double floor,
                       const std::string& goal) {
    std::printf("%-52s%9.3f%11.1f%9.2fx%s\n", name.c_str(), seconds, seconds / records * 1e6,
                seconds / floor, goal.c_str());
  };
  std::printf("%-52s%9s%11s%10s\n", "", "seconds", "µs/record", "ratio");
  row("floor: prepared INSERT, one transaction", floor_single, floor_single, "");
  row("perfgate append, one attempt of all records", single_seconds, floor_single,
      "   (goal: <= 2.00x)");
  row("floor: prepared INSERT, a transaction per round", floor_per_attempt, floor_per_attempt, "");
  row("perfgate append, " + std::to_string(rounds) + " attempts", append_seconds, floor_per_attempt,
      "   (vs the one-transaction floor: " +
          std::to_string(append_seconds / floor_single).substr(0, 4) + "x)");
  std::printf("%-52s%9.3f%11.1f\n", "  (content ids of those attempts, made before)", id_seconds,
              id_seconds / records * 1e6);
  std::printf("%-52s%9.3f%11.1f%10s   (goal: < 1 s)\n",
              ("compare a batch of " + std::to_string(cohorts) + " raw records").c_str(),
              compare_seconds, compare_seconds / cohorts * 1e6, "");
  std::printf(
      "records: %ld in %d cohorts; statuses of the batch: %s ...; peak memory %.1f MB; store file "
      "%.1f MB\n",
      records, cohorts, compared.empty() ? "-" : compared.front().comparison_status.c_str(),
      static_cast<double>(usage.ru_maxrss) / 1024.0,
      static_cast<double>(
          fs::file_size(dir / "perfgate.db") +
          (fs::exists(dir / "perfgate.db-wal") ? fs::file_size(dir / "perfgate.db-wal") : 0)) /
          1048576.0);
  fs::remove_all(dir);
  if (argc > 3) {
    const auto kept = perfgate::open_store(std::string("sqlite:") + argv[3]);
    for (const auto& attempt : attempts) kept->append(attempt);
  }
  return 0;
}
