#include "history/history_attempt.hpp"

#include <gtest/gtest.h>

#include "history/attempt_fast_reader.hpp"
#include "model/error.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

const std::string kSha = "0123456789abcdef0123456789abcdef01234567";

HistoryAttempt good_attempt() {
  HistoryAttempt attempt;
  attempt.identity = {kSha, "local-1", 2};
  attempt.harness_sha = kSha;
  attempt.benchmark_sources = {{"benchmarks/", "feedface"}};
  attempt.started_at = "2026-12-02T06:00:00.000001Z";
  attempt.finished_at = "2026-12-02T06:01:00Z";
  attempt.environment = {{"id", "bench-01"}, {"cpu", "EPYC"}};
  attempt.configuration = {{"build", {"make"}}};
  attempt.success = true;
  MeasuredCase c;
  c.name = "sort[n=10]";
  c.config = "benchmarks/sort.toml";
  c.source_id = "abc";
  c.repetitions = 3;
  c.metrics["latency"] = {"s", 0.02, 0.001, 0.019, 0.021, 3};
  attempt.cases.push_back(c);
  attempt.raw_path = "raw/" + attempt.identity.text() + "/";
  return attempt;
}

std::string rejection(const Json& json) {
  EXPECT_FALSE(read_valid_attempt_fast(json.dump()).has_value())
      << "the fast path must leave every rejected file to the strict reader";
  try {
    read_attempt(json.dump(), "attempts/x.json");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  ADD_FAILURE() << "accepted " << json.dump();
  return "";
}

TEST(HistoryAttempt, RoundTripsThroughItsFile) {
  const HistoryAttempt attempt = good_attempt();
  const HistoryAttempt read = read_attempt(to_json(attempt).dump(), "a.json");
  EXPECT_EQ(read.identity, attempt.identity);
  EXPECT_EQ(read.cases, attempt.cases);
  EXPECT_EQ(read.benchmark_sources, attempt.benchmark_sources);
  EXPECT_EQ(read.started_at, attempt.started_at);
  EXPECT_EQ(to_json(read), to_json(attempt));
}

TEST(HistoryAttempt, KeepsUnknownFields) {
  Json json = to_json(good_attempt());
  json["ci_job"] = {{"id", 7}};
  const HistoryAttempt read = read_attempt(json.dump(), "a.json");
  EXPECT_EQ(read.unknown_fields, (Json{{"ci_job", {{"id", 7}}}}));
  EXPECT_EQ(to_json(read)["ci_job"]["id"], 7);
}

TEST(HistoryAttempt, RejectsMalformedJson) {
  try {
    read_attempt("{\"sha\": ", "attempts/x.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("attempts/x.json: not a JSON object"),
              std::string::npos);
  }
}

TEST(HistoryAttempt, RejectsAMissingFieldAndNamesIt) {
  Json json = to_json(good_attempt());
  json.erase("started_at");
  EXPECT_NE(rejection(json).find("started_at"), std::string::npos);
}

TEST(HistoryAttempt, RejectsNegativeAndNonFiniteTimings) {
  Json json = to_json(good_attempt());
  json["cases"][0]["metrics"]["latency"]["mad"] = -0.001;
  EXPECT_NE(
      rejection(json).find("cases[0].metrics.latency.mad: must be a finite number of at least 0"),
      std::string::npos);
  json = to_json(good_attempt());
  json["cases"][0]["metrics"]["latency"]["max"] = "inf";
  EXPECT_NE(rejection(json).find("cases[0].metrics.latency.max"), std::string::npos);
}

TEST(HistoryAttempt, RejectsAZeroMedianTime) {
  Json json = to_json(good_attempt());
  json["cases"][0]["metrics"]["latency"] = {{"unit", "s"}, {"median", 0}, {"mad", 0},
                                            {"min", 0},    {"max", 0},    {"count", 3}};
  EXPECT_NE(rejection(json).find("a time's median is zero"), std::string::npos);
}

TEST(HistoryAttempt, AcceptsAZeroCpuTimeWhichTheKernelCountsInTicks) {
  Json json = to_json(good_attempt());
  json["cases"][0]["metrics"]["cpu_time"] = {{"unit", "s"}, {"median", 0},  {"mad", 0},
                                             {"min", 0},    {"max", 0.001}, {"count", 3}};
  EXPECT_EQ(read_attempt(json.dump(), "a.json").cases[0].metrics.at("cpu_time").median, 0);
  json["cases"][0]["metrics"]["decode"] = {{"unit", "ms"}, {"median", 0}, {"mad", 0},
                                           {"min", 0},     {"max", 0},    {"count", 3}};
  EXPECT_NE(rejection(json).find("cases[0].metrics.decode.median: a time's median is zero"),
            std::string::npos);
}

TEST(HistoryAttempt, RejectsAWrongRepetitionCount) {
  Json json = to_json(good_attempt());
  json["cases"][0]["metrics"]["latency"]["count"] = 2;
  EXPECT_NE(rejection(json).find("2 samples for 3 repetitions"), std::string::npos);
}

TEST(HistoryAttempt, ACountOfWorkHasASamplePerCountedRunNotPerRepetition) {
  Json json = to_json(good_attempt());
  json["cases"][0]["metrics"]["instructions"] = {
      {"unit", "instructions"}, {"median", 36010482}, {"mad", 0},
      {"min", 36010482},        {"max", 36010482},    {"count", 2}};
  EXPECT_EQ(read_attempt(json.dump(), "a.json").cases[0].metrics.at("instructions").count, 2);
  json["cases"][0]["metrics"]["instructions"]["count"] = 0;
  EXPECT_NE(rejection(json).find("0 samples for a count of work (at least 1)"), std::string::npos);
}

TEST(HistoryAttempt, RejectsAMedianOutsideItsRange) {
  Json json = to_json(good_attempt());
  json["cases"][0]["metrics"]["latency"]["min"] = 0.03;
  EXPECT_NE(rejection(json).find("median outside min..max"), std::string::npos);
}

TEST(HistoryAttempt, RejectsAFailureWithoutErrorsAndASuccessWithThem) {
  Json json = to_json(good_attempt());
  json["status"] = "failure";
  EXPECT_NE(rejection(json).find("a failure without an error"), std::string::npos);
  json = to_json(good_attempt());
  json["errors"] = Json::array({{{"stage", "build"}, {"message", "oops"}}});
  EXPECT_NE(rejection(json).find("a success that lists errors"), std::string::npos);
}

TEST(HistoryAttempt, RejectsANewerSchemaWithAnUpgradeHint) {
  Json json = to_json(good_attempt());
  json["schema_version"] = 2;
  EXPECT_NE(rejection(json).find("version 2 is not supported"), std::string::npos);
  EXPECT_NE(rejection(json).find("upgrade perfgate"), std::string::npos);
}

TEST(HistoryAttempt, RejectsARawPathOutsideItsOwnFolder) {
  Json json = to_json(good_attempt());
  json["raw_path"] = "../../etc/";
  EXPECT_NE(rejection(json).find("is not this attempt's raw folder"), std::string::npos);
}

TEST(HistoryAttempt, ReportsEveryReasonAtOnce) {
  Json json = to_json(good_attempt());
  json["sha"] = "HEAD";
  json["label"] = "fast";
  json["cases"][0]["metrics"]["latency"]["count"] = 9;
  const std::string message = rejection(json);
  EXPECT_NE(message.find("'HEAD' is not a full commit SHA"), std::string::npos) << message;
  EXPECT_NE(message.find("'fast' is neither stable nor diagnostic"), std::string::npos) << message;
  EXPECT_NE(message.find("9 samples for 3 repetitions"), std::string::npos) << message;
}

TEST(AttemptIdentity, ParsesItsOwnTextAndRejectsOthers) {
  const AttemptIdentity identity{kSha, "gh-123-x", 4};
  EXPECT_EQ(parse_attempt_identity(identity.text()), identity);
  EXPECT_EQ(parse_attempt_identity(kSha + "-run"), std::nullopt);
  EXPECT_EQ(parse_attempt_identity(kSha + "-run-0"), std::nullopt);
  EXPECT_EQ(parse_attempt_identity(kSha + "-a/b-1"), std::nullopt);
  EXPECT_EQ(parse_attempt_identity("XYZ-run-1"), std::nullopt);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
