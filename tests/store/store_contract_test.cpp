// The behaviour every store backend promises (store/store.hpp), run against each one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"
#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StoreContract : public ::testing::TestWithParam<StoreBackend> {
 protected:
  std::unique_ptr<Store> open() { return open_store(GetParam().url(dir_.path())); }

  static std::vector<std::string> benchmarks(const std::vector<StoredRecord>& records) {
    std::vector<std::string> names;
    for (const auto& r : records) names.push_back(r.record.benchmark_id);
    return names;
  }

  static std::string record_id(const std::vector<StoredRecord>& records, const std::string& name) {
    for (const auto& r : records) {
      if (r.record.benchmark_id == name) return r.record.record_id;
    }
    return "";
  }

  /// Expects `action` to throw Error(kDataError) whose message contains `text`.
  template <typename Action>
  static void expect_data_error(Action action, const std::string& text) {
    try {
      action();
      ADD_FAILURE() << "expected an error containing: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kDataError);
      EXPECT_THAT(e.what(), HasSubstr(text));
    }
  }

  TempDir dir_;
};

TEST_P(StoreContract, StoresAnAttemptWithAllItsRecords) {
  auto store = open();
  const Attempt a = test_attempt(
      "2026-01-01T00:00:00Z",
      {test_record("a", "2026-01-01T00:00:01Z"), test_record("b", "2026-01-01T00:00:02Z")});
  EXPECT_EQ(store->append(a), AppendOutcome::kAppended);
  const auto records = store->list_records({});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].record, a.records[1]);
  EXPECT_EQ(records[0].attempt_id, a.attempt_id);
  EXPECT_TRUE(records[0].eligible);
  EXPECT_EQ(records[1].record, a.records[0]);
}

TEST_P(StoreContract, AppendingIdenticalContentAgainChangesNothing) {
  auto store = open();
  const Attempt a =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  store->append(a);
  const std::string revision = store->revision();
  EXPECT_EQ(store->append(a), AppendOutcome::kAlreadyPresent);
  EXPECT_EQ(store->revision(), revision);
  EXPECT_EQ(store->list_records({}).size(), 1u);
  EXPECT_EQ(store->list_attempts().size(), 1u);
}

TEST_P(StoreContract, RefusesARecordAlreadyStoredUnderAnotherAttemptAndStoresNothingOfIt) {
  auto store = open();
  const NormalizedRecord shared = test_record("a", "2026-01-01T00:00:01Z");
  const Attempt first = test_attempt("2026-01-01T00:00:00Z", {shared});
  store->append(first);
  const std::string revision = store->revision();
  const Attempt second =
      test_attempt("2026-01-02T00:00:00Z", {test_record("b", "2026-01-02T00:00:01Z"), shared});
  expect_data_error([&] { store->append(second); }, "record " + first.records[0].record_id +
                                                        " (a) is already stored under attempt " +
                                                        first.attempt_id);
  EXPECT_EQ(store->revision(), revision);
  EXPECT_THAT(benchmarks(store->list_records({})), ElementsAre("a"));
  EXPECT_EQ(store->list_attempts().size(), 1u);
}

TEST_P(StoreContract, RefusesAnAttemptWhoseIdDoesNotMatchItsContent) {
  auto store = open();
  Attempt tampered =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  tampered.commit_sha = "another";
  expect_data_error([&] { store->append(tampered); }, "attempt_id does not match its content");
  EXPECT_TRUE(store->list_attempts().empty());
}

TEST_P(StoreContract, RefusesARecordWhoseIdDoesNotMatchItsContent) {
  auto store = open();
  Attempt tampered =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  tampered.records[0].metrics["latency"].value = 0.5;
  expect_data_error([&] { store->append(tampered); },
                    "records[0].record_id does not match its content");
  EXPECT_TRUE(store->list_records({}).empty());
}

TEST_P(StoreContract, RefusesAnAttemptThatHoldsTheSameRecordTwice) {
  auto store = open();
  const NormalizedRecord r = test_record("a", "2026-01-01T00:00:01Z");
  const Attempt twice = test_attempt("2026-01-01T00:00:00Z", {r, r});
  expect_data_error([&] { store->append(twice); }, "(a) twice");
  EXPECT_TRUE(store->list_attempts().empty());
}

TEST_P(StoreContract, GivesRecordsNewestFirstByTimestampThenInsertionOrder) {
  auto store = open();
  store->append(test_attempt(
      "2026-01-01T00:00:00Z",
      {test_record("old", "2026-01-01T00:00:00Z"), test_record("tie-1", "2026-01-03T00:00:00Z"),
       test_record("tie-2", "2026-01-03T00:00:00Z")}));
  store->append(test_attempt("2026-01-02T00:00:00Z", {test_record("new", "2026-01-04T00:00:00Z"),
                                                      test_record("mid", "2026-01-02T00:00:00Z")}));
  EXPECT_THAT(benchmarks(store->baseline_records(test_cohort(), 10)),
              ElementsAre("new", "tie-2", "tie-1", "mid", "old"));
  EXPECT_THAT(benchmarks(store->baseline_records(test_cohort(), 2)), ElementsAre("new", "tie-2"));
  EXPECT_TRUE(store->baseline_records(test_cohort(), 0).empty());
  // A whole listing is put in the same order (SQLite sorts it outside the database).
  EXPECT_THAT(benchmarks(store->list_records({})),
              ElementsAre("new", "tie-2", "tie-1", "mid", "old"));
}

TEST_P(StoreContract, LeavesFailedIneligibleAndOtherCohortRecordsOutOfTheBaseline) {
  auto store = open();
  NormalizedRecord failed = test_record("failed", "2026-01-01T00:00:05Z");
  failed.success = false;
  NormalizedRecord pr = test_record("pr", "2026-01-01T00:00:04Z");
  pr.baseline_eligible = false;
  pr.run_source = "pr";
  NormalizedRecord other_machine = test_record("other-hw", "2026-01-01T00:00:03Z");
  other_machine.hardware_profile_id = "hw-2";
  NormalizedRecord other_recipe = test_record("other-recipe", "2026-01-01T00:00:02Z");
  other_recipe.recipe_fingerprint = "recipe-2";
  store->append(test_attempt(
      "2026-01-01T00:00:00Z",
      {failed, pr, other_machine, other_recipe, test_record("good", "2026-01-01T00:00:01Z")}));
  EXPECT_THAT(benchmarks(store->baseline_records(test_cohort(), 5)), ElementsAre("good"));
  CohortKey machine2 = test_cohort();
  machine2.hardware_profile_id = "hw-2";
  EXPECT_THAT(benchmarks(store->baseline_records(machine2, 5)), ElementsAre("other-hw"));
}

TEST_P(StoreContract, MakesApprovedRecordsEligible) {
  auto store = open();
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:01Z");
  calibration.baseline_eligible = false;
  store->append(test_attempt("2026-01-01T00:00:00Z", {calibration}));
  ASSERT_TRUE(store->baseline_records(test_cohort(), 5).empty());
  const std::string id = store->list_records({})[0].record.record_id;

  store->approve({id}, "manifest-1", store->revision());
  const auto baseline = store->baseline_records(test_cohort(), 5);
  ASSERT_EQ(baseline.size(), 1u);
  EXPECT_TRUE(baseline[0].eligible);
  EXPECT_FALSE(baseline[0].record.baseline_eligible);
  EXPECT_TRUE(store->list_records({})[0].eligible);
}

TEST_P(StoreContract, RefusesAnApprovalPreparedAgainstAnOlderRevisionAndMarksNothing) {
  auto store = open();
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:01Z");
  calibration.baseline_eligible = false;
  store->append(test_attempt("2026-01-01T00:00:00Z", {calibration}));
  const std::string prepared_at = store->revision();
  store->append(
      test_attempt("2026-01-02T00:00:00Z", {test_record("later", "2026-01-02T00:00:01Z")}));
  const std::string id = record_id(store->list_records({}), "calibration");

  expect_data_error([&] { store->approve({id}, "manifest-1", prepared_at); },
                    "the store changed since the approval was prepared");
  EXPECT_THAT(benchmarks(store->baseline_records(test_cohort(), 5)), ElementsAre("later"));
}

TEST_P(StoreContract, RefusesAnApprovalNamingAnUnknownRecordAndMarksNothing) {
  auto store = open();
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:01Z");
  calibration.baseline_eligible = false;
  store->append(test_attempt("2026-01-01T00:00:00Z", {calibration}));
  const std::string id = store->list_records({})[0].record.record_id;
  const std::string revision = store->revision();

  expect_data_error(
      [&] {
        store->approve({id, "no-such-record"}, "manifest-1", revision);
      },
      "names records the store does not hold: no-such-record; nothing was approved");
  EXPECT_TRUE(store->baseline_records(test_cohort(), 5).empty());
  EXPECT_EQ(store->revision(), revision);
}

TEST_P(StoreContract, TreatsTheSameApprovalAgainAsANoOp) {
  auto store = open();
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:01Z");
  calibration.baseline_eligible = false;
  store->append(test_attempt("2026-01-01T00:00:00Z", {calibration}));
  const std::string id = store->list_records({})[0].record.record_id;
  const std::string prepared_at = store->revision();
  store->approve({id}, "manifest-1", prepared_at);
  const std::string approved_at = store->revision();
  EXPECT_NE(approved_at, prepared_at);

  store->approve({id}, "manifest-1", prepared_at);
  EXPECT_EQ(store->revision(), approved_at);
  EXPECT_EQ(store->baseline_records(test_cohort(), 5).size(), 1u);
}

TEST_P(StoreContract, KnowsWhichApprovalsItHolds) {
  auto store = open();
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:01Z");
  calibration.baseline_eligible = false;
  store->append(test_attempt("2026-01-01T00:00:00Z", {calibration}));
  EXPECT_FALSE(store->has_approval("manifest-1"));
  store->approve({store->list_records({})[0].record.record_id}, "manifest-1", store->revision());
  EXPECT_TRUE(store->has_approval("manifest-1"));
  EXPECT_FALSE(store->has_approval("manifest-2"));
}

TEST_P(StoreContract, RefusesAnApprovalIdReusedForOtherRecords) {
  auto store = open();
  store->append(test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z"),
                                                      test_record("b", "2026-01-01T00:00:02Z")}));
  const auto records = store->list_records({});
  store->approve({record_id(records, "a")}, "manifest-1", store->revision());
  expect_data_error(
      [&] { store->approve({record_id(records, "b")}, "manifest-1", store->revision()); },
      "approval manifest-1 is already stored with 1 other records");
}

TEST_P(StoreContract, RefusesAnEmptyApprovalOrAnApprovalIdThatCannotNameAFile) {
  auto store = open();
  expect_data_error([&] { store->approve({}, "manifest-1", store->revision()); },
                    "approval manifest-1 names no records");
  expect_data_error([&] { store->approve({"x"}, "../escape", store->revision()); },
                    "approval id '../escape' is not 1 to 128 letters, digits, '-' or '_'");
}

TEST_P(StoreContract, ChangesItsRevisionOnEveryAppendAndApproval) {
  auto store = open();
  const std::string empty = store->revision();
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:01Z");
  calibration.baseline_eligible = false;
  const Attempt a = test_attempt("2026-01-01T00:00:00Z", {calibration});
  store->append(a);
  const std::string appended = store->revision();
  EXPECT_NE(appended, empty);
  store->approve({a.records[0].record_id}, "manifest-1", appended);
  EXPECT_NE(store->revision(), appended);
  EXPECT_NE(store->revision(), empty);
}

TEST_P(StoreContract, FiltersRecordsByBenchmarkGlobAndTime) {
  auto store = open();
  store->append(
      test_attempt("2026-01-01T00:00:00Z", {test_record("sort-small", "2026-01-01T00:00:00Z"),
                                            test_record("sort-large", "2026-01-02T00:00:00Z"),
                                            test_record("sieve", "2026-01-03T00:00:00Z")}));
  RecordFilter glob;
  glob.benchmark_glob = "sort-*";
  EXPECT_THAT(benchmarks(store->list_records(glob)), ElementsAre("sort-large", "sort-small"));
  RecordFilter character_class;
  character_class.benchmark_glob = "s[io]*";
  EXPECT_THAT(benchmarks(store->list_records(character_class)),
              ElementsAre("sieve", "sort-large", "sort-small"));
  RecordFilter since;
  since.since = "2026-01-02";
  EXPECT_THAT(benchmarks(store->list_records(since)), ElementsAre("sieve", "sort-large"));
  RecordFilter limited;
  limited.limit = 1;
  EXPECT_THAT(benchmarks(store->list_records(limited)), ElementsAre("sieve"));
}

TEST_P(StoreContract, FiltersRecordsByCohortAndIdentity) {
  auto store = open();
  NormalizedRecord other_variant = test_record("multi", "2026-01-01T00:00:02Z");
  other_variant.variant_id = "multi";
  NormalizedRecord other_version = test_record("v2", "2026-01-01T00:00:03Z");
  other_version.benchmark_version = 2;
  NormalizedRecord other_software = test_record("new-sw", "2026-01-01T00:00:04Z");
  other_software.software_profile_id = "sw-2";
  NormalizedRecord legacy = test_record("legacy", "2026-01-01T00:00:05Z");
  legacy.workload_id.reset();
  legacy.variant_id.reset();
  legacy.benchmark_version.reset();
  store->append(
      test_attempt("2026-01-01T00:00:00Z", {test_record("base", "2026-01-01T00:00:01Z"),
                                            other_variant, other_version, other_software, legacy}));
  RecordFilter cohort;
  cohort.cohort = test_cohort();
  EXPECT_THAT(benchmarks(store->list_records(cohort)), ElementsAre("base"));
  RecordFilter workload;
  workload.workload_id = "sieve";
  EXPECT_THAT(benchmarks(store->list_records(workload)),
              ElementsAre("new-sw", "v2", "multi", "base"));
  RecordFilter variant;
  variant.variant_id = "multi";
  EXPECT_THAT(benchmarks(store->list_records(variant)), ElementsAre("multi"));
  RecordFilter version;
  version.benchmark_version = 2;
  EXPECT_THAT(benchmarks(store->list_records(version)), ElementsAre("v2"));
  EXPECT_EQ(store->list_records({}).size(), 5u);
}

TEST_P(StoreContract, ListsEachCompleteCohortOnceInOrder) {
  auto store = open();
  NormalizedRecord other_machine = test_record("b", "2026-01-01T00:00:02Z");
  other_machine.hardware_profile_id = "hw-0";
  NormalizedRecord legacy = test_record("legacy", "2026-01-01T00:00:03Z");
  legacy.workload_id.reset();
  store->append(test_attempt("2026-01-01T00:00:00Z",
                             {test_record("a", "2026-01-01T00:00:01Z"),
                              test_record("a2", "2026-01-01T00:00:04Z"), other_machine, legacy}));
  CohortKey machine0 = test_cohort();
  machine0.hardware_profile_id = "hw-0";
  EXPECT_THAT(store->list_cohorts(), ElementsAre(machine0, test_cohort()));
}

TEST_P(StoreContract, ListsAttemptsNewestFirstWithTheirRecordCounts) {
  auto store = open();
  Attempt failed = test_attempt("2026-01-02T00:00:00Z", {});
  failed.success = false;
  failed.errors = {"build failed"};
  assign_attempt_id(failed);
  const Attempt older = test_attempt(
      "2026-01-01T00:00:00Z",
      {test_record("a", "2026-01-01T00:00:01Z"), test_record("b", "2026-01-01T00:00:02Z")});
  store->append(older);
  store->append(failed);
  const auto attempts = store->list_attempts();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].attempt_id, failed.attempt_id);
  EXPECT_FALSE(attempts[0].success);
  EXPECT_EQ(attempts[0].record_count, 0u);
  EXPECT_EQ(attempts[1].attempt_id, older.attempt_id);
  EXPECT_EQ(attempts[1].created_at, "2026-01-01T00:00:00Z");
  EXPECT_EQ(attempts[1].commit_sha, "c0ffee");
  EXPECT_EQ(attempts[1].run_source, "scheduled_main");
  EXPECT_TRUE(attempts[1].success);
  EXPECT_EQ(attempts[1].record_count, 2u);
}

TEST_P(StoreContract, KeepsEverythingWhenReopened) {
  NormalizedRecord calibration = test_record("calibration", "2026-01-01T00:00:02Z");
  calibration.baseline_eligible = false;
  const Attempt a =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z"), calibration});
  std::string revision;
  {
    auto store = open();
    store->append(a);
    store->approve({a.records[1].record_id}, "manifest-1", store->revision());
    revision = store->revision();
  }
  auto reopened = open();
  EXPECT_EQ(reopened->revision(), revision);
  EXPECT_EQ(reopened->append(a), AppendOutcome::kAlreadyPresent);
  EXPECT_THAT(benchmarks(reopened->baseline_records(test_cohort(), 5)),
              ElementsAre("calibration", "a"));
  EXPECT_EQ(reopened->list_records({})[0].record, a.records[1]);
  EXPECT_EQ(reopened->list_attempts().size(), 1u);
}

TEST_P(StoreContract, SeesWhatAnotherHandleAppended) {
  auto first = open();
  auto second = open();
  first->append(test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")}));
  EXPECT_EQ(second->revision(), first->revision());
  EXPECT_THAT(benchmarks(second->list_records({})), ElementsAre("a"));
}

TEST_P(StoreContract, OrdersRecordsByInstantWhateverTheirTimestampsOffset) {
  auto store = open();
  // As text the +09:00 record would be newest; as an instant it is the oldest.
  store->append(
      test_attempt("2026-05-09T00:00:00Z", {test_record("tokyo", "2026-05-08T22:00:00+09:00"),
                                            test_record("utc-late", "2026-05-08T14:00:00Z"),
                                            test_record("utc-early", "2026-05-08T13:30:00.5Z")}));
  EXPECT_THAT(benchmarks(store->list_records({})), ElementsAre("utc-late", "utc-early", "tokyo"));
  EXPECT_THAT(benchmarks(store->baseline_records(test_cohort(), 2)),
              ElementsAre("utc-late", "utc-early"));
  RecordFilter since;
  since.since = "2026-05-08T22:45:00+09:00";  // 13:45 UTC
  EXPECT_THAT(benchmarks(store->list_records(since)), ElementsAre("utc-late"));
}

TEST_P(StoreContract, FindsWhichMeasurementsAreAlreadyStoredByRawDigestOrRecordId) {
  auto store = open();
  NormalizedRecord measured = test_record("a", "2026-01-01T00:00:01Z");
  measured.raw_record_sha256 = std::string(64, 'a');
  const Attempt a = test_attempt("2026-01-01T00:00:00Z", {measured});
  store->append(a);
  const std::string record_id = a.records[0].record_id;
  EXPECT_THAT(store->already_stored({std::string(64, 'b'), std::string(64, 'a'), record_id, "",
                                     std::string(64, 'a')}),
              ElementsAre(std::string(64, 'a'), record_id));
  EXPECT_TRUE(store->already_stored({std::string(64, 'c')}).empty());
}

/// A record of the measurement `digest_letter` (its raw digest), measured or imported at
/// `timestamp`: one measurement imported in two different seconds is two record ids.
NormalizedRecord measured_record(const std::string& name, char digest_letter,
                                 const std::string& timestamp) {
  NormalizedRecord r = test_record(name, timestamp);
  r.raw_record_sha256 = std::string(64, digest_letter);
  return r;
}

TEST_P(StoreContract, RefusesAMeasurementAnotherAttemptHoldsInsideTheAppendAndStoresNothing) {
  auto store = open();
  store->append(
      test_attempt("2026-01-01T00:00:00Z", {measured_record("a", 'a', "2026-01-01T00:00:01Z"),
                                            measured_record("b", 'b', "2026-01-01T00:00:01Z")}));
  const std::string revision = store->revision();
  // The same file imported a second later: new timestamps, new record ids, same digests.
  const Attempt again =
      test_attempt("2026-01-01T00:00:02Z", {measured_record("c", 'c', "2026-01-01T00:00:02Z"),
                                            measured_record("b", 'b', "2026-01-01T00:00:02Z"),
                                            measured_record("a", 'a', "2026-01-01T00:00:02Z")});
  try {
    store->append(again);
    ADD_FAILURE() << "expected MeasurementsAlreadyStored";
  } catch (const MeasurementsAlreadyStored& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_THAT(e.raw_digests(), ElementsAre(std::string(64, 'b'), std::string(64, 'a')));
    EXPECT_THAT(e.what(), HasSubstr("attempt " + again.attempt_id +
                                    ": 2 measurement(s) are stored already (first: b, "
                                    "raw_record_sha256 " +
                                    std::string(64, 'b') + ")"));
  }
  EXPECT_EQ(store->revision(), revision);
  EXPECT_THAT(benchmarks(store->list_records({})), ElementsAre("b", "a"));
  // A copy keeps a source's repeats as they are.
  EXPECT_EQ(store->append(again, RepeatedMeasurements::kKeep), AppendOutcome::kAppended);
  EXPECT_EQ(store->list_records({}).size(), 5u);
}

TEST_P(StoreContract, RefusesAnAttemptThatHoldsOneMeasurementTwice) {
  auto store = open();
  const Attempt twice =
      test_attempt("2026-01-01T00:00:00Z", {measured_record("a", 'a', "2026-01-01T00:00:01Z"),
                                            measured_record("a", 'a', "2026-01-01T00:00:02Z")});
  try {
    store->append(twice);
    ADD_FAILURE() << "expected MeasurementsAlreadyStored";
  } catch (const MeasurementsAlreadyStored& e) {
    EXPECT_THAT(e.raw_digests(), ElementsAre(std::string(64, 'a')));
  }
  EXPECT_TRUE(store->list_attempts().empty());
}

INSTANTIATE_TEST_SUITE_P(AllBackends, StoreContract, ::testing::ValuesIn(all_store_backends()),
                         backend_name);

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
