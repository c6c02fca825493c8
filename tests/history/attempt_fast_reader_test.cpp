#include "history/attempt_fast_reader.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/error.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

const std::string kSha = "89abcdef0123456789abcdef0123456789abcdef";

Json good_file() {
  HistoryAttempt attempt;
  attempt.identity = {kSha, "gh-7", 1};
  attempt.harness_sha = kSha;
  attempt.benchmark_sources = {{"benchmarks/", "feedface"}, {"bench/", ""}};
  attempt.started_at = "2026-12-02T06:00:00.5Z";
  attempt.finished_at = "2026-12-02T06:01:00Z";
  attempt.label = "stable";
  attempt.environment = {{"id", "bench-01"}, {"threads", 8}, {"flags", {"-O2", "-g"}}};
  attempt.configuration = {{"build", {"make"}}, {"suite", "benchmarks/"}};
  attempt.success = true;
  MeasuredCase c;
  c.name = "sort[n=10]";
  c.config = "benchmarks/sort.toml";
  c.source_id = "abc";
  c.repetitions = 3;
  c.threads = 2;
  c.metrics["latency"] = {"ms", 20, 1.5, 19, 21.25, 3};
  c.metrics["cpu_time"] = {"ms", 0, 0, 0, 0, 3};
  c.metrics["memory"] = {"B", 1048576, 0, 1048576, 1048576, 3};
  attempt.cases.push_back(c);
  c.name = "sort[n=1000]";
  attempt.cases.push_back(c);
  attempt.raw_path = "raw/" + attempt.identity.text() + "/";
  return to_json(attempt);
}

/// Both readers on the same text: the fast one must read it, and read what the strict one
/// reads.
HistoryAttempt read_by_both(const std::string& text) {
  const std::optional<HistoryAttempt> fast = read_valid_attempt_fast(text);
  const HistoryAttempt strict = read_attempt_strict(text, "a.json");
  EXPECT_TRUE(fast.has_value()) << text;
  if (fast) {
    EXPECT_TRUE(*fast == strict) << text;
  }
  return strict;
}

TEST(AttemptFastReader, ReadsAValidAttemptExactlyAsTheStrictReaderDoes) {
  const HistoryAttempt read = read_by_both(good_file().dump(2));
  EXPECT_EQ(read.identity.run, "gh-7");
  EXPECT_EQ(read.started_at, "2026-12-02T06:00:00.5Z");
  EXPECT_EQ(read.cases.size(), 2u);
  EXPECT_EQ(read.cases[0].metrics.at("latency"), (CaseMetric{"ms", 20, 1.5, 19, 21.25, 3}));
  EXPECT_EQ(read.environment["flags"][1], "-g");
  EXPECT_EQ(to_json(read), good_file());
}

TEST(AttemptFastReader, ReadsAFailureWithItsErrorsAndMissingCases) {
  Json file = good_file();
  file["status"] = "failure";
  file["cases"] = Json::array();
  file["errors"] = {{{"stage", "build"}, {"message", "make: *** [all] Error 2"}, {"line", 3}}};
  file["missing_cases"] = {"sort[n=10]", "sort[n=1000]"};
  const HistoryAttempt read = read_by_both(file.dump());
  EXPECT_FALSE(read.success);
  EXPECT_EQ(read.errors, (std::vector<AttemptError>{{"build", "make: *** [all] Error 2"}}));
  EXPECT_EQ(read.missing_cases.size(), 2u);
}

TEST(AttemptFastReader, KeepsTheLastOfDuplicateKeysAndEveryUnknownField) {
  std::string text = good_file().dump();
  text.pop_back();  // the closing brace
  text += R"(,"label":"diagnostic","ci":{"job":7},"ci":{"job":8},"kind":null})";
  const HistoryAttempt read = read_by_both(text);
  EXPECT_EQ(read.label, "diagnostic");
  EXPECT_EQ(read.unknown_fields, (Json{{"ci", {{"job", 8}}}}));
}

TEST(AttemptFastReader, ReadsACountOfWorkWithASamplePerCountedRun) {
  Json file = good_file();
  file["cases"][0]["metrics"]["instructions"] = {{"unit", "instructions"},
                                                 {"median", 5000},
                                                 {"mad", 0},
                                                 {"min", 5000},
                                                 {"max", 5000},
                                                 {"count", 2}};
  const HistoryAttempt read = read_by_both(file.dump());
  EXPECT_EQ(read.cases[0].metrics.at("instructions"),
            (CaseMetric{"instructions", 5000, 0, 5000, 5000, 2}));
  file["cases"][0]["metrics"]["instructions"]["count"] = 0;
  EXPECT_FALSE(read_valid_attempt_fast(file.dump()).has_value());
  EXPECT_THROW(read_attempt_strict(file.dump(), "a.json"), Error);
}

TEST(AttemptFastReader, LeavesEveryFileTheStrictReaderRefusesToIt) {
  const auto refused = [](const std::string& text) {
    EXPECT_FALSE(read_valid_attempt_fast(text).has_value()) << text;
    EXPECT_THROW(read_attempt_strict(text, "a.json"), Error) << text;
  };
  refused("");
  refused("[1]");
  refused(R"({"sha": )");
  const auto changed = [&](const std::string& pointer, const Json& value) {
    Json file = good_file();
    file[Json::json_pointer(pointer)] = value;
    refused(file.dump());
  };
  changed("/schema_version", 2);
  changed("/schema_version", 1.0);
  changed("/kind", "perfgate-history-plan");
  changed("/sha", "ABCDEF0123456789abcdef0123456789abcdef01");
  changed("/run", "has space");
  changed("/attempt", 0);
  changed("/attempt", 18446744073709551615u);
  changed("/harness_version", "1");
  changed("/benchmark_sources/bench~1", 3);
  changed("/started_at", "yesterday");
  changed("/label", "fast");
  changed("/environment", Json::array());
  changed("/status", "ok");
  changed("/errors", {{{"stage", "build"}, {"message", "boom"}}});
  changed("/missing_cases", {"sort[n=10]"});
  changed("/cases", Json::array());
  changed("/cases/1/name", "sort[n=10]");
  changed("/cases/0/name", "");
  changed("/cases/0/repetitions", 0);
  changed("/cases/0/threads", 2147483648LL);
  changed("/cases/0/metrics", Json::object());
  changed("/cases/0/metrics/latency/median", -1);
  changed("/cases/0/metrics/latency/median", 0);
  changed("/cases/0/metrics/latency/median", 30);
  changed("/cases/0/metrics/latency/count", 4);
  changed("/cases/0/metrics/latency/unit", nullptr);
  changed("/raw_path", "raw/elsewhere/");
  Json failure = good_file();
  failure["status"] = "failure";
  refused(failure.dump());
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate::history
