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
#include "store_records.hpp"

namespace {

using perfgate::bench::insert_floor;
using perfgate::bench::stored_record;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
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

  double compare_seconds = 0;
  const auto compared = perfgate::bench::compare_batch(*store, cohorts, compare_seconds);

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
