#include "history/raw_runs.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/memory_archive.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

HistoryAttempt attempt_with_raw(const std::string& raw_path) {
  HistoryAttempt attempt;
  attempt.raw_path = raw_path;
  return attempt;
}

std::string record(const std::string& benchmark_id, const std::string& samples) {
  return R"({"benchmark_id": ")" + benchmark_id + R"(", "metrics": {"cpu_time": {"samples": )" +
         samples + R"(, "unit": "s"}, "memory": {"samples": [1.5, 1.5], "unit": "MB"}}})";
}

TEST(RawRuns, ReadsTheSamplesOfTheCasesRecordInTheOrderMeasured) {
  auto snapshot = std::make_shared<testing::MemorySnapshot>();
  snapshot->files = {
      {"raw/x/build-1.log", "cc ..."},
      {"raw/x/results/perf_app_1.json", record("app", "[0.012, 0.010, 0.011]")},
      {"raw/x/results/perf_app_1-2.json", record("app[n=2]", "[0.5, 0.6, 0.7]")},
      {"raw/x/results/worker_logs/worker_app_1.log", "log"},
  };
  RawRuns runs(snapshot);
  const HistoryAttempt attempt = attempt_with_raw("raw/x/");
  EXPECT_EQ(runs.samples(attempt, "app", "cpu_time"), (std::vector<double>{0.012, 0.010, 0.011}));
  EXPECT_EQ(runs.samples(attempt, "app[n=2]", "cpu_time"), (std::vector<double>{0.5, 0.6, 0.7}));
  // An attempt's records are read once, whichever cases and metrics are asked for: gone from
  // the archive now, the record's other metric still comes.
  snapshot->files.erase("raw/x/results/perf_app_1.json");
  EXPECT_EQ(runs.samples(attempt, "app", "memory"), (std::vector<double>{1.5, 1.5}));
  // A metric, a case or an attempt the archive does not hold.
  EXPECT_EQ(runs.samples(attempt, "app", "latency"), std::nullopt);
  EXPECT_EQ(runs.samples(attempt, "sort", "cpu_time"), std::nullopt);
  EXPECT_EQ(runs.samples(attempt_with_raw("raw/y/"), "app", "cpu_time"), std::nullopt);
}

TEST(RawRuns, ADamagedRecordDecidesNothing) {
  auto snapshot = std::make_shared<testing::MemorySnapshot>();
  snapshot->files = {
      {"raw/a/results/perf_app_1.json", "{\"benchmark_id\": \"app\", \"metr"},
      {"raw/b/results/perf_app_1.json", record("app", "[0.012, \"fast\", 0.011]")},
      {"raw/c/results/perf_app_1.json", record("app", "{\"k\": 1}")},
      {"raw/d/results/perf_app_1.json", R"({"benchmark_id": "app", "metrics": [1, 2]})"},
  };
  RawRuns runs(snapshot);
  for (const char* folder : {"raw/a/", "raw/b/", "raw/c/", "raw/d/"}) {
    EXPECT_EQ(runs.samples(attempt_with_raw(folder), "app", "cpu_time"), std::nullopt) << folder;
  }
  // Beside a damaged record, another case's record is read.
  snapshot->files["raw/a/results/perf_sort_1.json"] = record("sort", "[1, 2, 3]");
  RawRuns again(snapshot);
  EXPECT_EQ(again.samples(attempt_with_raw("raw/a/"), "sort", "cpu_time"),
            (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(again.samples(attempt_with_raw("raw/a/"), "app", "cpu_time"), std::nullopt);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
