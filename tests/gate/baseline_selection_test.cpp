#include "gate/baseline_selection.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/seed_records.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;
const std::vector<std::string> kTrusted{"scheduled_main"};

std::vector<std::string> benchmarks(const SeedSelection& selection) {
  std::vector<std::string> names;
  for (const auto& stored : selection.records) names.push_back(stored.record.benchmark_id);
  return names;
}

std::vector<std::string> latencies(const SeedSelection& selection) {
  std::vector<std::string> values;
  for (const auto& stored : selection.records)
    values.push_back(std::to_string(stored.record.metrics.at("latency").value).substr(0, 3));
  return values;
}

std::string cohort_of(const StoredRecord& stored) {
  return stored.record.cohort()->to_string();
}

TEST(BaselineSelection, SelectsOnlyCalibrationRecordsFromTrustedSources) {
  StoredRecord trusted = seed_record("a", "scheduled_main");
  StoredRecord from_pr = seed_record("b", "pr");
  StoredRecord passed = seed_record("c", "scheduled_main", kPass);
  StoredRecord already = seed_record("d", "scheduled_main");
  already.eligible = true;
  const auto selection = select_seed_records({trusted, from_pr, passed, already},
                                             SeedMode::kCalibration, kTrusted, false);
  EXPECT_THAT(benchmarks(selection), ElementsAre("a"));
  EXPECT_TRUE(selection.notes.empty());
}

TEST(BaselineSelection, ReseedTakesRegressedAndPassingRecordsButNeverFailedOnes) {
  const StoredRecord regressed = seed_record("a", "scheduled_main", kRegression, "c1", 1.5);
  const StoredRecord passed = seed_record("a", "scheduled_main", kPass, "c1", 1.4);
  const StoredRecord calibration =
      seed_record("a", "scheduled_main", kCalibrationNeeded, "c1", 1.3);
  StoredRecord static_breach = seed_record("a", "scheduled_main", kRegression, "c1", 9.0);
  static_breach.record.success = false;
  StoredRecord infra = seed_record("a", "scheduled_main", kInfraError, "c1", 1.2);
  infra.record.success = false;
  const StoredRecord from_pr = seed_record("a", "pr", kRegression, "c1", 1.6);
  StoredRecord eligible = seed_record("a", "scheduled_main", kPass, "c1", 1.7);
  eligible.eligible = true;

  const auto selection =
      select_seed_records({regressed, passed, calibration, static_breach, infra, from_pr, eligible},
                          SeedMode::kReseed, kTrusted, false);
  EXPECT_THAT(latencies(selection), ElementsAre("1.5", "1.4"));
}

TEST(BaselineSelection, KeepsOnlyTheNewestCommitOfACohortAndNamesTheOthers) {
  const StoredRecord newest = seed_record("a", "scheduled_main", kRegression, "bbbbbbbbbbbbbbbb",
                                          1.5, "2026-11-30T12:00:00Z");
  const StoredRecord older = seed_record("a", "scheduled_main", kRegression, "aaaaaaaaaaaaaaaa",
                                         1.6, "2026-11-30T11:00:00Z");
  const StoredRecord same_commit = seed_record("a", "scheduled_main", kRegression,
                                               "bbbbbbbbbbbbbbbb", 1.4, "2026-11-30T10:00:00Z");
  StoredRecord build_only = seed_record("a", "scheduled_main", kRegression, "", 1.3);
  build_only.record.commit_sha.reset();
  build_only.record.build_id = "77";

  const auto selection = select_seed_records({newest, older, same_commit, build_only},
                                             SeedMode::kReseed, kTrusted, false);
  EXPECT_THAT(latencies(selection), ElementsAre("1.5", "1.4"));
  EXPECT_THAT(selection.notes,
              ElementsAre("cohort " + cohort_of(newest) +
                          ": kept the 2 record(s) of the newest batch, commit "
                          "bbbbbbbbbbbb; left out build 77 (1), commit aaaaaaaaaaaa (1). "
                          "Pass --allow-mixed-commits to seed them together"));
}

TEST(BaselineSelection, SeedsSeveralCommitsOfACohortTogetherOnlyWhenAllowed) {
  const StoredRecord a = seed_record("a", "scheduled_main", kRegression, "c1", 1.5);
  const StoredRecord b = seed_record("a", "scheduled_main", kRegression, "c2", 1.6);
  const StoredRecord c = seed_record("a", "scheduled_main", kRegression, "c3", 1.4);
  const auto selection = select_seed_records({a, b, c}, SeedMode::kReseed, kTrusted, true);
  EXPECT_THAT(latencies(selection), ElementsAre("1.5", "1.6", "1.4"));
  EXPECT_TRUE(selection.notes.empty());
}

TEST(BaselineSelection, HoldsEachCohortToOneBatchOfItsOwn) {
  const StoredRecord a = seed_record("a", "scheduled_main", kCalibrationNeeded, "c1");
  const StoredRecord b = seed_record("b", "scheduled_main", kCalibrationNeeded, "c2");
  const auto selection = select_seed_records({a, b}, SeedMode::kCalibration, kTrusted, false);
  EXPECT_THAT(benchmarks(selection), ElementsAre("a", "b"));
  EXPECT_TRUE(selection.notes.empty());
}

TEST(BaselineSelection, AReseedSetsTheMedianOnlyWhenItOutnumbersTheOlderRecordsThatStay) {
  EXPECT_FALSE(reseed_sets_median(2, 5));
  EXPECT_TRUE(reseed_sets_median(3, 5));
  EXPECT_TRUE(reseed_sets_median(7, 5));
  EXPECT_FALSE(reseed_sets_median(1, 1));
  EXPECT_TRUE(reseed_sets_median(2, 1));
  EXPECT_FALSE(reseed_sets_median(2, 2));
  EXPECT_TRUE(reseed_sets_median(1, 0));
}

TEST(BaselineSelection, ListsEveryReasonThatBlocksApproval) {
  const StoredRecord a = seed_record("a", "scheduled_main");
  const StoredRecord b = seed_record("b", "scheduled_main");
  const BaselineManifest manifest =
      build_manifest({a, b}, SeedMode::kCalibration, false, "sqlite:x.db", "rev", "now");
  StoredRecord b_now = b;
  b_now.eligible = true;
  EXPECT_EQ(manifest_problems(manifest, {b_now}, kTrusted),
            (std::vector<std::string>{
                "a (" + a.record.record_id.substr(0, 12) + "): no longer in the store",
                "b (" + b.record.record_id.substr(0, 12) + "): already eligible"}));
  EXPECT_TRUE(manifest_problems(manifest, {a, b}, kTrusted).empty());
}

TEST(BaselineSelection, RechecksThatEachRecordStillQualifiesForTheManifestsMode) {
  const StoredRecord regressed = seed_record("a", "scheduled_main", kRegression, "c1", 1.5);
  const BaselineManifest reseed =
      build_manifest({regressed}, SeedMode::kReseed, false, "s", "rev", "now");
  EXPECT_TRUE(manifest_problems(reseed, {regressed}, kTrusted).empty());
  EXPECT_EQ(manifest_problems(reseed, {regressed}, {"nightly"}),
            std::vector<std::string>{"a (" + regressed.record.record_id.substr(0, 12) +
                                     "): no longer qualifies for a re-seed (needs PASS or "
                                     "REGRESSION, success and a trusted run source)"});
  const BaselineManifest calibration =
      build_manifest({regressed}, SeedMode::kCalibration, false, "s", "rev", "now");
  EXPECT_EQ(manifest_problems(calibration, {regressed}, kTrusted),
            std::vector<std::string>{"a (" + regressed.record.record_id.substr(0, 12) +
                                     "): no longer qualifies (needs CALIBRATION_NEEDED, success "
                                     "and a trusted run source)"});
}

TEST(BaselineSelection, RefusesToApproveACohortSpanningBatchesTheManifestDoesNotAllow) {
  const StoredRecord a = seed_record("a", "scheduled_main", kRegression, "c1", 1.5);
  const StoredRecord b = seed_record("a", "scheduled_main", kRegression, "c2", 1.6);
  const BaselineManifest strict = build_manifest({a, b}, SeedMode::kReseed, false, "s", "r", "t");
  EXPECT_EQ(manifest_problems(strict, {a, b}, kTrusted),
            std::vector<std::string>{"cohort " + cohort_of(a) +
                                     ": records of 2 batches (commit c1, commit c2) but the "
                                     "manifest allows one"});
  const BaselineManifest mixed = build_manifest({a, b}, SeedMode::kReseed, true, "s", "r", "t");
  EXPECT_TRUE(manifest_problems(mixed, {a, b}, kTrusted).empty());
}

TEST(OneMomentNotes, NameEachCohortSeededWithinAMinute) {
  const auto at = [](const std::string& benchmark, const std::string& time) {
    return seed_record(benchmark, "scheduled_main", kCalibrationNeeded, "c1", 1.0,
                       "2026-11-30T" + time);
  };
  // "a": ten records 0.6 s apart, as `perfgate run` back to back makes them; "b": three
  // records a minute apart; "c": two records in the same second.
  std::vector<StoredRecord> records;
  for (int i = 0; i < 10; ++i) {
    records.push_back(
        at("a", "10:00:0" + std::to_string(i * 6 / 10) + "." + std::to_string(i * 6 % 10) + "Z"));
  }
  for (const char* time : {"10:00:00Z", "10:00:30Z", "10:01:00Z"}) records.push_back(at("b", time));
  records.push_back(at("c", "10:00:00Z"));
  records.push_back(at("c", "12:00:00+02:00"));  // the same instant, another offset
  const std::string advice =
      ", one moment of this machine. --method stat takes their scatter for all the noise "
      "between records, and a record measured minutes later may differ by more. Seed from "
      "runs minutes apart or from several CI builds, or confirm verdicts (compare --confirm N)";
  EXPECT_THAT(one_moment_notes(records),
              ElementsAre("cohort " + cohort_of(records[0]) +
                              ": its 10 record(s) were measured within 6 s of one another" + advice,
                          "cohort " + cohort_of(records.back()) +
                              ": its 2 record(s) were measured in the same second" + advice));
}

TEST(OneMomentNotes, SayNothingOfOneRecordOrOfTimesThatAreNotInstants) {
  const StoredRecord one = seed_record("a", "scheduled_main");
  EXPECT_TRUE(one_moment_notes({one}).empty()) << "one record: no scatter to mistake";
  const StoredRecord odd =
      seed_record("a", "scheduled_main", kCalibrationNeeded, "c1", 1.0, "yesterday");
  EXPECT_TRUE(one_moment_notes({one, odd}).empty()) << "a span that cannot be told";
  const StoredRecord later =
      seed_record("a", "scheduled_main", kCalibrationNeeded, "c1", 1.0, "2026-11-30T10:00:59Z");
  EXPECT_EQ(one_moment_notes({one, later}).size(), 1u) << "59 s apart";
  const StoredRecord minute =
      seed_record("a", "scheduled_main", kCalibrationNeeded, "c1", 1.0, "2026-11-30T10:01:00Z");
  EXPECT_TRUE(one_moment_notes({one, later, minute}).empty()) << "a minute apart";
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
