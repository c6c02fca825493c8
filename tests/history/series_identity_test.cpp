#include "history/series_identity.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/fingerprint.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

HistoryAttempt base_attempt() {
  HistoryAttempt attempt;
  attempt.identity = {std::string(40, 'a'), "101", 1};
  attempt.harness_sha = std::string(40, 'h');
  attempt.harness_version = 2;
  attempt.benchmark_sources = {{"benchmarks/sort.toml", "b1"}};
  attempt.started_at = "2026-05-08T10:00:00Z";
  attempt.finished_at = "2026-05-08T10:05:00Z";
  attempt.label = "diagnostic";
  attempt.environment = {{"cpu", "Xeon 8375C"}, {"kernel", "6.8.0"}};
  attempt.configuration = {{"build", {"make"}}};
  attempt.success = true;
  return attempt;
}

MeasuredCase base_case() {
  MeasuredCase measured;
  measured.name = "sort[n=1000]";
  measured.config = "sort.toml";
  measured.source_id = "c1";
  measured.repetitions = 5;
  measured.threads = 1;
  measured.metrics["latency"] = {"s", 0.002, 0.0001, 0.0019, 0.0023, 5};
  measured.metrics["memory"] = {"B", 4096, 0, 4096, 4096, 5};
  return measured;
}

std::string latency_series(const HistoryAttempt& attempt) {
  return series_id(attempt, base_case(), "latency");
}

TEST(SeriesIdentity, IsSAndSixteenHexDigitsOfTheDocumentedCanonicalHash) {
  const std::string attempt_part = sha256_hex(
      R"({"benchmark_sources":{"benchmarks/sort.toml":"b1"},"configuration":{"build":["make"]},)"
      R"("environment":{"cpu":"Xeon 8375C","kernel":"6.8.0"},"harness_version":2,)"
      R"("label":"diagnostic"})");
  EXPECT_EQ(series_attempt_part(base_attempt()), attempt_part);
  const std::string expected =
      "s-" + sha256_hex(R"({"attempt_part":")" + attempt_part +
                        R"(","case":"sort[n=1000]","metric":"latency","repetitions":5,)"
                        R"("source_id":"c1","threads":1,"unit":"s"})")
                 .substr(0, 16);
  EXPECT_EQ(latency_series(base_attempt()), expected);
  EXPECT_EQ(series_id(attempt_part, base_case(), "latency"), expected);
}

TEST(SeriesIdentity, AnotherCommitRunAndTimeOfTheSameSetupShareASeries) {
  HistoryAttempt later = base_attempt();
  later.identity = {std::string(40, 'b'), "202", 3};
  later.harness_sha = std::string(40, 'i');
  later.started_at = "2026-06-01T10:00:00Z";
  later.finished_at = "2026-06-01T10:05:00Z";
  later.raw_path = "raw/elsewhere/";
  MeasuredCase faster = base_case();
  faster.metrics["latency"].median = 0.001;
  EXPECT_EQ(series_id(later, faster, "latency"), latency_series(base_attempt()));
}

TEST(SeriesIdentity, DifferentCpuNeverSharesASeries) {
  HistoryAttempt other = base_attempt();
  other.environment["cpu"] = "EPYC 7763";
  EXPECT_NE(latency_series(other), latency_series(base_attempt()));
}

TEST(SeriesIdentity, KernelUpdateStartsANewSeries) {
  HistoryAttempt other = base_attempt();
  other.environment["kernel"] = "6.8.1";
  EXPECT_NE(latency_series(other), latency_series(base_attempt()));
}

TEST(SeriesIdentity, EditedBenchmarkSourceStartsANewSeries) {
  HistoryAttempt edited = base_attempt();
  edited.benchmark_sources["benchmarks/sort.toml"] = "b2";
  EXPECT_NE(latency_series(edited), latency_series(base_attempt()));
  MeasuredCase edited_case = base_case();
  edited_case.source_id = "c2";
  EXPECT_NE(series_id(base_attempt(), edited_case, "latency"), latency_series(base_attempt()));
}

TEST(SeriesIdentity, DifferentConfigurationNeverSharesASeries) {
  HistoryAttempt other = base_attempt();
  other.configuration["build"] = {"make", "CXXFLAGS=-O3"};
  EXPECT_NE(latency_series(other), latency_series(base_attempt()));
}

TEST(SeriesIdentity, ATimeoutIsALimitAndStartsNoSeries) {
  HistoryAttempt longer = base_attempt();
  longer.configuration["timeout_s"] = 7200;
  HistoryAttempt shorter = base_attempt();
  shorter.configuration["timeout_s"] = 60;
  EXPECT_EQ(latency_series(longer), latency_series(base_attempt()));
  EXPECT_EQ(latency_series(shorter), latency_series(longer));
  EXPECT_EQ(identity_configuration(longer.configuration), Json::parse(R"({"build":["make"]})"));
  EXPECT_EQ(longer.configuration["timeout_s"], 7200) << "the attempt keeps what it recorded";
}

TEST(SetupId, IsSixteenHexDigitsOfTheDocumentedHashWithoutLimits) {
  HistoryAttempt attempt = base_attempt();
  attempt.configuration["timeout_s"] = 3600;
  const std::string expected =
      sha256_hex(R"({"configuration":{"build":["make"]},"harness_version":2})").substr(0, 16);
  EXPECT_EQ(setup_id(attempt), expected);
  EXPECT_EQ(setup_id(Json::parse(R"({"build":["make"],"timeout_s":5})"), 2), expected);
}

TEST(SetupId, ChangesWithTheBuildOrTheHarnessVersionButNotTheMachineOrTheCode) {
  const std::string base = setup_id(base_attempt());
  HistoryAttempt o3 = base_attempt();
  o3.configuration["build"] = {"make CFLAGS=-O3"};
  EXPECT_NE(setup_id(o3), base);
  HistoryAttempt v3 = base_attempt();
  v3.harness_version = 3;
  EXPECT_NE(setup_id(v3), base);
  HistoryAttempt elsewhere = base_attempt();
  elsewhere.environment["cpu"] = "EPYC 7763";
  elsewhere.identity.sha = std::string(40, 'c');
  elsewhere.benchmark_sources["benchmarks/sort.toml"] = "b9";
  elsewhere.label = "stable";
  EXPECT_EQ(setup_id(elsewhere), base);
}

TEST(EnvironmentId, IsTheEnvironmentsIdOrEmpty) {
  HistoryAttempt attempt = base_attempt();
  EXPECT_EQ(environment_id(attempt), "");
  attempt.environment["id"] = "bench-02";
  EXPECT_EQ(environment_id(attempt), "bench-02");
  attempt.environment["id"] = 7;
  EXPECT_EQ(environment_id(attempt), "");
}

TEST(SeriesIdentity, NewHarnessVersionStartsANewSeries) {
  HistoryAttempt other = base_attempt();
  other.harness_version = 3;
  EXPECT_NE(latency_series(other), latency_series(base_attempt()));
}

TEST(SeriesIdentity, StableAndDiagnosticMeasurementsNeverShareASeries) {
  HistoryAttempt stable = base_attempt();
  stable.label = "stable";
  EXPECT_NE(latency_series(stable), latency_series(base_attempt()));
}

TEST(SeriesIdentity, ThreadAndRepetitionCountsSeparateSeries) {
  MeasuredCase two_threads = base_case();
  two_threads.threads = 2;
  EXPECT_NE(series_id(base_attempt(), two_threads, "latency"), latency_series(base_attempt()));
  MeasuredCase more_runs = base_case();
  more_runs.repetitions = 9;
  EXPECT_NE(series_id(base_attempt(), more_runs, "latency"), latency_series(base_attempt()));
}

TEST(SeriesIdentity, EachCaseMetricAndUnitIsItsOwnSeries) {
  MeasuredCase other = base_case();
  other.name = "sort[n=2000]";
  EXPECT_NE(series_id(base_attempt(), other, "latency"), latency_series(base_attempt()));
  EXPECT_NE(series_id(base_attempt(), base_case(), "memory"), latency_series(base_attempt()));
  MeasuredCase in_ms = base_case();
  in_ms.metrics["latency"].unit = "ms";
  EXPECT_NE(series_id(base_attempt(), in_ms, "latency"), latency_series(base_attempt()));
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate::history
