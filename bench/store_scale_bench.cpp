// make bench, the store at a team's scale (issue 15): 1,000,000 records (10,000 cohorts x
// 100 nightly rounds) in PostgreSQL and in SQLite, each beside its floor:
// - append: perfgate's append of one attempt per round (its checks included) beside the same
//   rows written in one transaction with nothing else (PostgreSQL: COPY; SQLite: one
//   prepared INSERT), whose row texts are made before the clock starts;
// - compare: a PR batch of 1,000 raw records judged against the store;
// - report: `perfgate report --benchmark bench-42` (one cohort's history), as a process.
// Usage: store_scale_bench PERFGATE_BINARY POSTGRES_SOCKET_DIR [COHORTS] [ROUNDS]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gate/batch_comparison.hpp"
#include "model/attempt.hpp"
#include "model/fingerprint.hpp"
#include "model/instant.hpp"
#include "store/cohort_history.hpp"
#include "store/postgres_connection.hpp"
#include "store/store.hpp"
#include "store_records.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

perfgate::Attempt round_attempt(int cohorts, int round) {
  perfgate::Attempt attempt;
  attempt.created_at = "2026-11-30T00:00:00Z";
  attempt.run_source = "scheduled_main";
  for (int cohort = 0; cohort < cohorts; ++cohort) {
    attempt.records.push_back(perfgate::bench::stored_record(cohort, round));
  }
  perfgate::assign_attempt_id(attempt);
  return attempt;
}

void append_field(std::string& rows, const perfgate::PgParam& value, bool last = false) {
  perfgate::append_copy_field(rows, value);
  rows += last ? '\n' : '\t';
}

/// The PostgreSQL floor: the same rows in perfgate's tables (its schema, indexes and keys)
/// by COPY, in one transaction, nothing else.
double postgres_floor(const std::string& url, const std::vector<perfgate::Attempt>& attempts) {
  perfgate::open_store(url);  // lays out the schema
  std::string attempt_rows;
  std::string record_rows;
  for (const auto& attempt : attempts) {
    append_field(attempt_rows, attempt.attempt_id);
    append_field(attempt_rows, attempt.created_at);
    append_field(attempt_rows, std::string());
    append_field(attempt_rows, attempt.run_source);
    append_field(attempt_rows, std::string("t"));
    append_field(attempt_rows, std::string("{}"), true);
    for (const auto& r : attempt.records) {
      append_field(record_rows, r.record_id);
      append_field(record_rows, attempt.attempt_id);
      append_field(record_rows, r.benchmark_id);
      append_field(record_rows, r.timestamp);
      append_field(record_rows, std::to_string(*perfgate::parse_instant_us(r.timestamp)));
      append_field(record_rows, r.workload_id);
      append_field(record_rows, r.variant_id);
      append_field(record_rows, std::to_string(*r.benchmark_version));
      append_field(record_rows, r.recipe_fingerprint);
      append_field(record_rows, r.hardware_profile_id);
      append_field(record_rows, r.software_profile_id);
      append_field(record_rows, r.run_source);
      append_field(record_rows, std::string("t"));
      append_field(record_rows, std::string("t"));
      append_field(record_rows, r.raw_record_sha256);
      append_field(record_rows, perfgate::record_content_text(r), true);
    }
  }
  perfgate::PgConnection db(url);
  const auto start = Clock::now();
  db.exec("BEGIN");
  db.copy_in(
      "COPY perfgate.attempts (attempt_id, created_at, commit_sha, run_source, success, json) "
      "FROM STDIN",
      attempt_rows);
  db.copy_in(
      "COPY perfgate.records (record_id, attempt_id, benchmark_id, timestamp, instant_us, "
      "workload_id, variant_id, benchmark_version, recipe_fingerprint, hardware_profile_id, "
      "software_profile_id, run_source, success, baseline_eligible, raw_record_sha256, json) "
      "FROM STDIN",
      record_rows);
  db.exec("COMMIT");
  return seconds_since(start);
}

double compare_batch(perfgate::Store& store, int cohorts) {
  double seconds = 0;
  const auto judged = perfgate::bench::compare_batch(store, cohorts, seconds);
  if (judged.size() != static_cast<std::size_t>(cohorts) ||
      judged.front().comparison_status != perfgate::kPass) {
    std::fprintf(stderr, "store_scale_bench: the batch was not judged PASS against the store\n");
    std::exit(1);
  }
  return seconds;
}

/// The best of five `perfgate report --benchmark bench-42` runs, as a user starts it.
double report_one_cohort(const std::string& binary, const std::string& url) {
  double best = 1e9;
  for (int i = 0; i < 5; ++i) {
    // posix_spawn: a fork() of this process (gigabytes of attempts) would copy its page
    // tables and put that in the figure.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> args = {binary, "report", "--store", url, "--benchmark", "bench-42"};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const auto start = Clock::now();
    pid_t pid = 0;
    if (::posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
      std::fprintf(stderr, "store_scale_bench: cannot start %s\n", binary.c_str());
      std::exit(1);
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "store_scale_bench: perfgate report failed on %s\n", url.c_str());
      std::exit(1);
    }
    best = std::min(best, seconds_since(start));
  }
  return best;
}

struct Figures {
  double append = 0;
  double floor = 0;
  double compare = 0;        ///< the store's first compare: its pages not yet read
  double compare_again = 0;  ///< the same batch once more, its pages in the caches
  double report = 0;
};

void print(const char* backend, const Figures& f, long records) {
  std::printf("%-12s%-44s%9.2f%10.1f\n", backend, "floor: the same rows in one transaction",
              f.floor, f.floor / records * 1e6);
  std::printf("%-12s%-44s%9.2f%10.1f%8.2fx   (goal: <= 2x the floor)\n", "",
              "perfgate append, one attempt per round", f.append, f.append / records * 1e6,
              f.append / f.floor);
  std::printf("%-12s%-44s%9.3f%10s%8.2fx   (goal: < 1 s)\n", "", "compare a batch of 1,000",
              f.compare, "", f.compare / 1.0);
  std::printf("%-12s%-44s%9.3f%10s%8.2fx\n", "", "  the same batch again (store in the caches)",
              f.compare_again, "", f.compare_again / 1.0);
  std::printf("%-12s%-44s%9.3f%10s%8.2fx   (goal: < 100 ms)\n", "",
              "report of one cohort's history (a process)", f.report, "", f.report / 0.1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PERFGATE_BINARY POSTGRES_SOCKET_DIR [COHORTS] [ROUNDS]\n",
                 argv[0]);
    return 64;
  }
  const std::string binary = argv[1];
  const std::string socket_dir = argv[2];
  const int cohorts = argc > 3 ? std::atoi(argv[3]) : 10'000;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 100;
  const long records = static_cast<long>(cohorts) * rounds;
  const auto postgres_url = [&](const std::string& name) {
    return "postgresql://perfgate@/" + name + "?host=" + socket_dir;
  };
  {
    perfgate::PgConnection admin(postgres_url("postgres"));
    admin.exec("CREATE DATABASE scale TEMPLATE template0");
    admin.exec("CREATE DATABASE scale_floor TEMPLATE template0");
  }
  const fs::path dir =
      fs::temp_directory_path() / ("perfgate-scale-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string sqlite_url = "sqlite:" + (dir / "perfgate.db").string();

  // Each round's attempt is made (records and content ids) outside every clock, then
  // appended to both stores; the floors get the same attempts afterwards.
  Figures postgres;
  Figures sqlite;
  std::vector<perfgate::Attempt> attempts;
  {
    const auto pg_store = perfgate::open_store(postgres_url("scale"));
    const auto sqlite_store = perfgate::open_store(sqlite_url);
    for (int round = 0; round < rounds; ++round) {
      attempts.push_back(round_attempt(cohorts, round));
      auto start = Clock::now();
      pg_store->append(attempts.back());
      postgres.append += seconds_since(start);
      start = Clock::now();
      sqlite_store->append(attempts.back());
      sqlite.append += seconds_since(start);
      if ((round + 1) % 10 == 0) {
        std::fprintf(stderr, "\rappended %d of %d rounds", round + 1, rounds);
      }
    }
    std::fputs("\r\033[K", stderr);
  }
  postgres.floor = postgres_floor(postgres_url("scale_floor"), attempts);
  sqlite.floor = perfgate::bench::insert_floor(dir / "floor.db", attempts, false);
  attempts.clear();
  attempts.shrink_to_fit();

  const int batch = std::min(cohorts, 1000);
  {
    // The first compare of each store reads its pages: after the appends and the floors
    // (gigabytes written) many are no longer in the OS's cache, and none in SQLite's or the
    // server's own. The second shows what the same work costs once they are.
    const auto pg_store = perfgate::open_store(postgres_url("scale"));
    postgres.compare = compare_batch(*pg_store, batch);
    const auto sqlite_store = perfgate::open_store(sqlite_url);
    sqlite.compare = compare_batch(*sqlite_store, batch);
    postgres.compare_again = compare_batch(*pg_store, batch);
    sqlite.compare_again = compare_batch(*sqlite_store, batch);
  }
  postgres.report = report_one_cohort(binary, postgres_url("scale"));
  sqlite.report = report_one_cohort(binary, sqlite_url);

  std::printf("%ld records: %d cohorts x %d rounds\n", records, cohorts, rounds);
  std::printf("%-12s%-44s%9s%11s%9s\n", "", "", "seconds", "µs/record", "ratio");
  print("PostgreSQL", postgres, records);
  print("SQLite", sqlite, records);
  fs::remove_all(dir);
  return 0;
}
