#include "model/attempt.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

Attempt small_attempt() {
  Attempt a;
  a.created_at = "2026-01-02T03:04:05Z";
  a.commit_sha = "abc";
  a.run_source = "local";
  NormalizedRecord r;
  r.benchmark_id = "sieve";
  r.timestamp = "2026-01-02T03:04:05Z";
  r.device = "cpu";
  r.metrics["latency"] = {2, "s", Direction::kLowerIsBetter};
  a.records.push_back(r);
  r.benchmark_id = "sort";
  a.records.push_back(r);
  return a;
}

std::string error_of(const Json& json) {
  try {
    attempt_from_json(json, "a.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    return e.what();
  }
  return "no error";
}

TEST(Attempt, AssignsEveryRecordIdAndThenTheAttemptId) {
  Attempt a = small_attempt();
  assign_attempt_id(a);
  EXPECT_EQ(a.attempt_id.size(), 64u);
  NormalizedRecord first = small_attempt().records[0];
  assign_record_id(first);
  EXPECT_EQ(a.records[0].record_id, first.record_id);
  EXPECT_NE(a.records[1].record_id, a.records[0].record_id);
}

TEST(Attempt, ReadsBackWhatItWrites) {
  Attempt a = small_attempt();
  a.success = false;
  a.errors = {"build failed", "exit status 2"};
  assign_attempt_id(a);
  EXPECT_EQ(attempt_from_json(Json::parse(to_json(a).dump(2)), "a.json"), a);
}

TEST(Attempt, WritesItsFieldsAndRecords) {
  Attempt a = small_attempt();
  a.records.clear();
  EXPECT_EQ(to_json(a).dump(), R"({"attempt_id":"","attempt_schema_version":1,"commit_sha":"abc",)"
                               R"("created_at":"2026-01-02T03:04:05Z","errors":[],"records":[],)"
                               R"("run_source":"local","success":true})");
}

TEST(Attempt, IdChangesWhenARecordChanges) {
  Attempt a = small_attempt();
  assign_attempt_id(a);
  Attempt b = small_attempt();
  b.records[1].metrics["latency"].value = 2.5;
  assign_attempt_id(b);
  EXPECT_NE(a.attempt_id, b.attempt_id);
  EXPECT_EQ(a.records[0].record_id, b.records[0].record_id);
}

TEST(Attempt, IdDoesNotDependOnKeyOrderOrAStaleId) {
  Attempt a = small_attempt();
  assign_attempt_id(a);
  Attempt b = attempt_from_json(Json::parse(to_json(a).dump()), "a.json");
  b.attempt_id = "stale";
  assign_attempt_id(b);
  EXPECT_EQ(b.attempt_id, a.attempt_id);
}

TEST(Attempt, NamesTheRecordAndFieldOfAMalformedRecord) {
  Attempt a = small_attempt();
  assign_attempt_id(a);
  Json json = to_json(a);
  json["records"][1]["success"] = "yes";
  EXPECT_EQ(error_of(json),
            "a.json: records[1].success: expected true or false, found a string. Write it as "
            "true or false");
}

TEST(Attempt, RejectsANonStringError) {
  Json json = to_json(small_attempt());
  json["errors"] = {"ok", 3};
  EXPECT_EQ(error_of(json),
            "a.json: errors[1]: expected a string, found an integer. Write each error as a string");
}

TEST(Attempt, RejectsAnUnknownField) {
  Json json = to_json(small_attempt());
  json["note"] = "x";
  EXPECT_EQ(error_of(json),
            "a.json: note: unknown field. Remove it; this layout has a fixed set of fields (see "
            "docs/store.md)");
}

TEST(Attempt, RefusesANewerAttemptVersion) {
  Json json = to_json(small_attempt());
  json["attempt_schema_version"] = 2;
  EXPECT_EQ(error_of(json),
            "a.json: attempt_schema_version: version 2 was written by a newer perfgate. This "
            "perfgate reads attempt version 1; upgrade perfgate");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
