// Which archived attempts count as runs of a bisection's commits: only those of its series
// (this machine, this setup, the case and metric, a success with its raw record), oldest
// first; the others are left out, and those that could have counted but cannot are named.
#include "bisect/archived_runs.hpp"

#include <gtest/gtest.h>

#include "history/archive.hpp"
#include "history/history_attempt.hpp"
#include "history/series_identity.hpp"
#include "model/raw_record.hpp"
#include "stats/summary.hpp"
#include "support/memory_archive.hpp"

namespace perfgate::bisect {
namespace PERFGATE_TEST_FILE {

using testing::MemorySnapshot;

const std::vector<std::string> kPath = {std::string(40, 'a'), std::string(40, 'b'),
                                        std::string(40, 'c')};

history::HistoryAttempt attempt_of(const std::string& sha, const std::string& run,
                                   const std::string& started_at) {
  history::HistoryAttempt attempt;
  attempt.identity = {sha, run, 1};
  attempt.harness_sha = std::string(40, 'h');
  attempt.started_at = started_at;
  attempt.finished_at = started_at;
  attempt.environment = {{"id", "hw-here"}};
  attempt.configuration = {{"build", {"make"}}};
  attempt.success = true;
  history::MeasuredCase measured;
  measured.name = "app";
  measured.config = "app.toml";
  measured.repetitions = 2;
  measured.metrics["latency"] = {"s", 0.02, 0.001, 0.019, 0.021, 2};
  attempt.cases = {measured};
  attempt.raw_path = "raw/" + attempt.identity.text() + "/";
  return attempt;
}

std::string raw_record_of(const std::string& case_name, std::vector<double> latencies) {
  RawRecord record;
  record.identity.benchmark_id = case_name;
  record.num_measurement_runs = static_cast<int>(latencies.size());
  for (std::size_t i = 0; i < latencies.size(); ++i) {
    record.runs.push_back({static_cast<int>(i), false, true, "", latencies[i], 0, 0, 1.0, {}});
  }
  record.metrics["latency"] = {{"latency", "s", Direction::kLowerIsBetter}, latencies, {}};
  record.metrics["latency"].summary = summarize(latencies);
  record.quality_metadata = {{"measurement_warnings", Json::array()}};
  record.provenance.timestamp = "2026-12-01T00:00:00Z";
  return to_json(record).dump();
}

void add(MemorySnapshot& snapshot, const history::HistoryAttempt& attempt,
         std::optional<std::vector<double>> latencies) {
  snapshot.files["attempts/" + attempt.identity.text() + ".json"] =
      history::to_json(attempt).dump();
  if (latencies) {
    snapshot.files[attempt.raw_path + "results/perf_app_x.json"] = raw_record_of("app", *latencies);
    snapshot.files[attempt.raw_path + "results/perf_other_x.json"] = raw_record_of("other", {9, 9});
  }
}

ArchiveMatch match() {
  return {"hw-here", history::setup_id(attempt_of(kPath[0], "r", "2026-12-01T00:00:00Z")), "app",
          "latency"};
}

TEST(ArchivedRuns, TakesTheRunsOfTheSeriesAttemptsOldestFirst) {
  MemorySnapshot snapshot;
  // Commit b: two attempts; the later one's file sorts first.
  add(snapshot, attempt_of(kPath[1], "a-late", "2026-12-02T00:00:00Z"), {{0.03, 0.031}});
  add(snapshot, attempt_of(kPath[1], "z-early", "2026-12-01T00:00:00Z"), {{0.02, 0.021}});
  // Commit a: another machine; commit c: another setup, and a failed attempt.
  history::HistoryAttempt elsewhere = attempt_of(kPath[0], "r1", "2026-12-01T00:00:00Z");
  elsewhere.environment["id"] = "hw-elsewhere";
  add(snapshot, elsewhere, {{0.02, 0.02}});
  history::HistoryAttempt other_setup = attempt_of(kPath[2], "r2", "2026-12-01T00:00:00Z");
  other_setup.configuration["build"] = {"make CFLAGS=-O3"};
  add(snapshot, other_setup, {{0.02, 0.02}});
  history::HistoryAttempt failed = attempt_of(kPath[2], "r3", "2026-12-01T00:00:00Z");
  failed.success = false;
  failed.cases.clear();
  failed.errors = {{"build", "exit status 2"}};
  add(snapshot, failed, std::nullopt);
  // A commit that is not on the path.
  add(snapshot, attempt_of(std::string(40, 'd'), "r4", "2026-12-01T00:00:00Z"), {{0.5, 0.5}});

  const ArchivedRuns found = archived_runs(snapshot, "dir:/archive", kPath, match());
  ASSERT_EQ(found.runs.size(), 1u);
  EXPECT_EQ(found.runs.at(1), std::deque<double>({0.02, 0.021, 0.03, 0.031}));
  EXPECT_EQ(found.attempts,
            std::vector<std::string>({kPath[1] + "-z-early-1", kPath[1] + "-a-late-1"}));
  EXPECT_EQ(found.total(), 4u);
  EXPECT_EQ(found.notes, std::vector<std::string>());
}

TEST(ArchivedRuns, NamesTheAttemptsOfTheSeriesThatCannotCount) {
  MemorySnapshot snapshot;
  add(snapshot, attempt_of(kPath[0], "r1", "2026-12-01T00:00:00Z"), std::nullopt);
  snapshot.files["attempts/" + kPath[2] + "-r2-1.json"] = "{\"schema_version\": 1";
  add(snapshot, attempt_of(kPath[1], "r3", "2026-12-01T00:00:00Z"), {{0.02, 0.0}});

  const ArchivedRuns found = archived_runs(snapshot, "dir:/archive", kPath, match());
  EXPECT_TRUE(found.runs.empty());
  EXPECT_TRUE(found.attempts.empty());
  ASSERT_EQ(found.notes.size(), 3u);
  EXPECT_EQ(found.notes[0].rfind("dir:/archive/attempts/" + kPath[2] + "-r2-1.json: ", 0), 0u)
      << found.notes[0];
  EXPECT_NE(found.notes[0].find(": not counted"), std::string::npos);
  EXPECT_EQ(found.notes[1], "attempt " + kPath[0] +
                                "-r1-1: its raw record of app with the runs' latency is not in "
                                "the archive: not counted");
  EXPECT_EQ(found.notes[2], "attempt " + kPath[1] +
                                "-r3-1: a run's latency is not above 0, which a bisection "
                                "cannot compare: not counted");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::bisect
