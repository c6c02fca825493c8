#include "history/history_export.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "history/series_identity.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

std::string sha(char c) {
  return std::string(40, c);
}

/// "2026-05-08T<hour>:00:00Z".
std::string at(int hour) {
  return "2026-05-08T" + std::string(hour < 10 ? "0" : "") + std::to_string(hour) + ":00:00Z";
}

MeasuredCase timed(const std::string& name, double median, double mad = 0.1) {
  MeasuredCase measured;
  measured.name = name;
  measured.config = "sort.toml";
  measured.source_id = "c1";
  measured.repetitions = 5;
  measured.threads = 1;
  measured.metrics["latency"] = {"ms", median, mad, median - 1, median + 1, 5};
  return measured;
}

HistoryAttempt success(char commit, const std::string& run, const std::string& started,
                       std::vector<MeasuredCase> cases) {
  HistoryAttempt attempt;
  attempt.identity = {sha(commit), run, 1};
  attempt.harness_sha = sha('h');
  attempt.harness_version = 1;
  attempt.benchmark_sources = {{"benchmarks/sort.toml", "b1"}};
  attempt.started_at = started;
  attempt.finished_at = started;
  attempt.label = "diagnostic";
  attempt.environment = {{"cpu", "Xeon"}, {"kernel", "6.8"}};
  attempt.configuration = {{"build", {"make"}}};
  attempt.success = true;
  attempt.cases = std::move(cases);
  attempt.raw_path = "raw/" + attempt.identity.text() + "/";
  return attempt;
}

HistoryAttempt failure(char commit, const std::string& run, const std::string& started) {
  HistoryAttempt attempt = success(commit, run, started, {});
  attempt.success = false;
  attempt.errors = {{"build", "make exited with status 2"}};
  attempt.missing_cases = {"sort"};
  return attempt;
}

std::string id(char commit, const std::string& run, int number = 1) {
  return AttemptIdentity{sha(commit), run, number}.text();
}

/// The monitored commits a, b, ... as given, oldest first, each with a time and a summary.
ExportInput input_for(const std::string& monitored, std::vector<HistoryAttempt> attempts) {
  ExportInput input;
  input.source_sha = sha('f');
  input.branch = "main";
  input.archive = "git:perfgate-data";
  input.generated_at = "2026-05-08T23:00:00Z";
  input.perfgate_version = "0.1.0";
  input.ledger.branch = "main";
  input.ledger.baseline = sha(monitored.front());
  input.ledger.current = sha(monitored.back());
  for (std::size_t i = 0; i < monitored.size(); ++i) {
    const char c = monitored[i];
    input.ledger.monitored.push_back(sha(c));
    input.commits[sha(c)] = {
        sha(c), {}, 1000 * static_cast<std::int64_t>(i + 1), std::string("commit ") + c, ""};
  }
  input.attempts = std::move(attempts);
  return input;
}

/// The exported document. Its text must be exactly what nlohmann writes for the same
/// value: compact, keys sorted, a newline at the end.
Json exported(const ExportInput& input) {
  std::string text = "kept ";
  const ExportSummary summary = write_history(input, text);
  EXPECT_EQ(text.substr(0, 5), "kept ") << "the document is appended";
  text.erase(0, 5);
  const Json history = Json::parse(text);
  EXPECT_EQ(history.dump() + "\n", text);
  EXPECT_EQ(summary.monitored, history["coverage"]["monitored"]);
  EXPECT_EQ(summary.measured, history["coverage"]["measured"]);
  EXPECT_EQ(summary.failed, history["coverage"]["failed"]);
  EXPECT_EQ(summary.missing, history["coverage"]["missing"]);
  EXPECT_EQ(summary.series, history["series"].size());
  EXPECT_EQ(summary.flags, history["flags"].size());
  return history;
}

std::vector<std::string> series_ids(const Json& history) {
  std::vector<std::string> ids;
  for (const Json& s : history["series"]) ids.push_back(s["id"]);
  return ids;
}

TEST(HistoryExport, WritesTheDocumentHeader) {
  const Json history = exported(input_for("ab", {}));
  EXPECT_EQ(history["schema_version"], 1);
  EXPECT_EQ(history["kind"], "perfgate-history");
  EXPECT_EQ(history["generated_at"], "2026-05-08T23:00:00Z");
  EXPECT_EQ(history["generated_by"], "perfgate 0.1.0");
  EXPECT_EQ(history["source_sha"], sha('f'));
  EXPECT_EQ(history["branch"], "main");
  EXPECT_EQ(history["archive"], "git:perfgate-data");
  EXPECT_EQ(history["baseline"], sha('a'));
  EXPECT_EQ(history["current"], sha('b'));
  EXPECT_EQ(history["attempts"], Json::array());
  EXPECT_EQ(history["rejected"], Json::array());
  EXPECT_EQ(history["series"], Json::array());
  EXPECT_EQ(history["flags"], Json::array());
}

TEST(HistoryExport, ListsMonitoredCommitsOldestFirstWithStatusTimeAndSummary) {
  ExportInput input = input_for(
      "abcd", {failure('b', "r2", at(11)), success('a', "r1", at(10), {timed("sort", 10)})});
  input.commits.erase(sha('d'));
  const Json history = exported(input);
  Json expected = {{{"sha", sha('a')},
                    {"time", 1000},
                    {"summary", "commit a"},
                    {"status", "measured"},
                    {"attempt", id('a', "r1")},
                    {"attempts", {id('a', "r1")}},
                    // The attempts say no environment id: the machine "".
                    {"environments", {{"", {{"attempt", id('a', "r1")}, {"status", "measured"}}}}}},
                   {{"sha", sha('b')},
                    {"time", 2000},
                    {"summary", "commit b"},
                    {"status", "failed"},
                    {"attempt", id('b', "r2")},
                    {"attempts", {id('b', "r2")}},
                    {"environments", {{"", {{"attempt", id('b', "r2")}, {"status", "failed"}}}}}},
                   {{"sha", sha('c')},
                    {"time", 3000},
                    {"summary", "commit c"},
                    {"status", "missing"},
                    {"attempt", nullptr},
                    {"attempts", Json::array()},
                    {"environments", Json::object()}},
                   {{"sha", sha('d')},
                    {"time", nullptr},
                    {"summary", nullptr},
                    {"status", "missing"},
                    {"attempt", nullptr},
                    {"attempts", Json::array()},
                    {"environments", Json::object()}}};
  for (Json& commit : expected) commit["url"] = nullptr;  // no [history] commit_url
  EXPECT_EQ(history["commits"], expected);
}

TEST(HistoryExport, CurrentIsTheNewestMonitoredCommitEvenWhenMissing) {
  const Json history =
      exported(input_for("abc", {success('a', "r1", at(10), {timed("sort", 10)})}));
  EXPECT_EQ(history["current"], sha('c'));
  EXPECT_EQ(history["commits"][2]["status"], "missing");
}

TEST(HistoryExport, CountsCoverageOfTheMonitoredCommits) {
  const Json history = exported(input_for(
      "abcd", {success('a', "r1", at(10), {timed("sort", 10)}), failure('b', "r2", at(11)),
               success('d', "r3", at(12), {timed("sort", 10)})}));
  const Json expected = {{"monitored", 4}, {"measured", 2}, {"failed", 1}, {"missing", 1}};
  EXPECT_EQ(history["coverage"], expected);
}

TEST(HistoryExport, NewerFailedAttemptWinsOverOlderSuccess) {
  const Json history = exported(input_for(
      "a", {failure('a', "r2", at(11)), success('a', "r1", at(10), {timed("sort", 10)})}));
  const Json& commit = history["commits"][0];
  EXPECT_EQ(commit["status"], "failed");
  EXPECT_EQ(commit["attempt"], id('a', "r2"));
  EXPECT_EQ(commit["attempts"], Json({id('a', "r1"), id('a', "r2")}));
  EXPECT_EQ(history["attempts"][0]["id"], id('a', "r1"));
  EXPECT_EQ(history["attempts"][0]["superseded"], true);
  EXPECT_EQ(history["attempts"][1]["id"], id('a', "r2"));
  EXPECT_EQ(history["attempts"][1]["superseded"], false);
  EXPECT_EQ(history["series"], Json::array());
  EXPECT_EQ(history["coverage"]["failed"], 1);
  EXPECT_EQ(history["coverage"]["measured"], 0);
}

TEST(HistoryExport, LatestStartWinsWhateverOrderTheAttemptsFinished) {
  HistoryAttempt older = failure('a', "r1", at(10));
  older.finished_at = at(13);
  HistoryAttempt newer = success('a', "r2", at(11), {timed("sort", 10)});
  newer.finished_at = at(12);
  const Json history = exported(input_for("a", {newer, older}));
  EXPECT_EQ(history["commits"][0]["status"], "measured");
  EXPECT_EQ(history["commits"][0]["attempt"], id('a', "r2"));
}

TEST(HistoryExport, OrdersAttemptsByStartInstantNotByItsText) {
  // 12:00 at +02:00 is 10:00 UTC: older than 11:00Z although its text sorts after it.
  const Json history =
      exported(input_for("a", {success('a', "r1", "2026-05-08T11:00:00Z", {timed("sort", 10)}),
                               failure('a', "r2", "2026-05-08T12:00:00+02:00")}));
  EXPECT_EQ(history["attempts"][0]["id"], id('a', "r2"));
  EXPECT_EQ(history["attempts"][1]["id"], id('a', "r1"));
  EXPECT_EQ(history["commits"][0]["status"], "measured");
}

TEST(HistoryExport, BreaksStartTiesByRunThenAttemptNumber) {
  HistoryAttempt second = failure('a', "r1", at(10));
  second.identity.attempt = 2;
  HistoryAttempt tenth = success('a', "r1", at(10), {timed("sort", 10)});
  tenth.identity.attempt = 10;
  const Json history = exported(input_for("a", {tenth, second}));
  EXPECT_EQ(history["commits"][0]["attempts"], Json({id('a', "r1", 2), id('a', "r1", 10)}));
  EXPECT_EQ(history["commits"][0]["attempt"], id('a', "r1", 10));
}

TEST(HistoryExport, AttemptsOfUnmonitoredCommitsAppearOnlyInTheAttemptsList) {
  const Json history = exported(input_for("a", {success('e', "r1", at(9), {timed("sort", 50)}),
                                                success('a', "r2", at(10), {timed("sort", 10)})}));
  EXPECT_EQ(history["commits"].size(), 1u);
  EXPECT_EQ(history["coverage"]["monitored"], 1);
  ASSERT_EQ(history["attempts"].size(), 2u);
  EXPECT_EQ(history["attempts"][0]["sha"], sha('e'));
  EXPECT_EQ(history["attempts"][0]["superseded"], false);
  ASSERT_EQ(history["series"].size(), 1u);
  EXPECT_EQ(history["series"][0]["points"]["median"], Json({10}));
  EXPECT_EQ(history["series"][0]["points"]["attempt"], Json({1}));
}

TEST(HistoryExport, MissingCommitsGetNoPoints) {
  const Json history =
      exported(input_for("abc", {success('a', "r1", at(10), {timed("sort", 10)}),
                                 success('c', "r3", at(12), {timed("sort", 11)})}));
  ASSERT_EQ(history["series"].size(), 1u);
  const Json& series = history["series"][0];
  EXPECT_EQ(series["count"], 2);
  EXPECT_EQ(series["points"]["commit"], Json({0, 2}));
  EXPECT_EQ(series["points"]["median"], Json({10, 11}));
  EXPECT_EQ(series["first_commit"], sha('a'));
  EXPECT_EQ(series["last_commit"], sha('c'));
}

TEST(HistoryExport, FailedAttemptsMakeNoPointsEvenWithMeasuredCases) {
  HistoryAttempt partial = failure('b', "r2", at(11));
  partial.cases = {timed("sort", 50)};
  partial.missing_cases = {"search"};
  const Json history =
      exported(input_for("ab", {success('a', "r1", at(10), {timed("sort", 10)}), partial}));
  ASSERT_EQ(history["series"].size(), 1u);
  EXPECT_EQ(history["series"][0]["points"]["commit"], Json({0}));
  EXPECT_EQ(history["flags"], Json::array());
}

TEST(HistoryExport, WritesEachSeriesWithItsPointsAsExactColumns) {
  const HistoryAttempt first = success('a', "r1", at(10), {timed("sort", 10)});
  const Json history = exported(input_for(
      "abc", {success('c', "r3", at(12), {timed("sort", 12.5)}),
              success('b', "r2", at(11), {timed("sort", 12)}), first, failure('a', "r0", at(9))}));
  ASSERT_EQ(history["series"].size(), 1u);
  const Json expected = {{"id", series_id(first, first.cases[0], "latency")},
                         {"case", "sort"},
                         {"changes", Json::array()},  // 3 points: too few for a change
                         {"metric", "latency"},
                         {"unit", "ms"},
                         {"label", "diagnostic"},
                         {"environment", {{"cpu", "Xeon"}, {"kernel", "6.8"}}},
                         {"harness_version", 1},
                         {"threads", 1},
                         {"count", 3},
                         {"first_commit", sha('a')},
                         {"last_commit", sha('c')},
                         {"points",
                          {{"commit", {0, 1, 2}},
                           {"median", {10, 12, 12.5}},
                           {"mad", {0.1, 0.1, 0.1}},
                           {"min", {9, 11, 11.5}},
                           {"max", {11, 13, 13.5}},
                           {"attempt", {1, 2, 3}},  // the failure of r0 started first
                           {"flag", {0, 1, 0}}}}};
  EXPECT_EQ(history["series"][0], expected);
}

TEST(HistoryExport, GivesEachSeriesTheChangePointsOfItsMedians) {
  // Twelve commits: 10 ms for six, then 12 ms, with a little alternation.
  const std::string monitored = "abcdefghijkl";
  std::vector<HistoryAttempt> attempts;
  for (std::size_t i = 0; i < monitored.size(); ++i) {
    const double median = (i >= 6 ? 12.0 : 10.0) * (i % 2 ? 1.01 : 0.99);
    attempts.push_back(
        success(monitored[i], "r", at(static_cast<int>(i)), {timed("sort", median)}));
  }
  const Json history = exported(input_for(monitored, attempts));
  const Json& changes = history["series"][0]["changes"];
  ASSERT_EQ(changes.size(), 1u) << changes;
  EXPECT_EQ(changes[0]["index"], 6);
  EXPECT_DOUBLE_EQ(changes[0]["before"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(changes[0]["after"].get<double>(), 12.0);
  EXPECT_NEAR(changes[0]["relative_change"].get<double>(), 0.2, 1e-12);
  EXPECT_EQ(changes[0]["worse"], true);  // a longer latency
  EXPECT_LT(changes[0]["p_value"].get<double>(), 1e-6);
}

TEST(HistoryExport, ListsEveryFlaggedPointAgainstThePreviousPointOfItsSeries) {
  const HistoryAttempt first = success('a', "r1", at(10), {timed("sort", 10)});
  const Json history =
      exported(input_for("abcd", {first, success('c', "r3", at(12), {timed("sort", 12)}),
                                  success('d', "r4", at(13), {timed("sort", 15)})}));
  const std::string series = series_id(first, first.cases[0], "latency");
  const Json expected = {{{"series", series},
                          {"commit", sha('c')},
                          {"previous_commit", sha('a')},
                          {"median", 12},
                          {"previous_median", 10},
                          {"change_percent", 20},
                          {"confirmation", "not_remeasured"},
                          {"earlier", nullptr},
                          {"paired", nullptr}},
                         {{"series", series},
                          {"commit", sha('d')},
                          {"previous_commit", sha('c')},
                          {"median", 15},
                          {"previous_median", 12},
                          {"change_percent", 25},
                          {"confirmation", "not_remeasured"},
                          {"earlier", nullptr},
                          {"paired", nullptr}}};
  EXPECT_EQ(history["flags"], expected);
  EXPECT_EQ(history["series"][0]["points"]["flag"], Json({0, 1, 1}));
}

TEST(HistoryExportFlagConfirmation, AFlagBothMeasurementsRaiseIsConfirmed) {
  // b rose 20% over a; both measured again later, and b still rises 30%.
  const HistoryAttempt first = success('a', "r1", at(10), {timed("sort", 10)});
  const ExportInput input = input_for("ab", {first, success('b', "r2", at(11), {timed("sort", 12)}),
                                             success('a', "r3", at(12), {timed("sort", 10)}),
                                             success('b', "r3", at(13), {timed("sort", 13)})});
  const Json history = exported(input);
  ASSERT_EQ(history["flags"].size(), 1u);
  const Json& flag = history["flags"][0];
  EXPECT_EQ(flag["confirmation"], "confirmed");
  EXPECT_EQ(flag["median"], 13);
  EXPECT_EQ(flag["previous_median"], 10);
  EXPECT_EQ(
      flag["earlier"],
      Json({{"median", 12}, {"previous_median", 10}, {"change_percent", 20}, {"paired", nullptr}}));
  std::string text;
  const ExportSummary summary = write_history(input, text);
  EXPECT_EQ(summary.confirmed_flags, 1u);
  EXPECT_EQ(summary.unconfirmed_flags, 0u);
  EXPECT_TRUE(summary.flags_to_confirm.empty());
}

TEST(HistoryExportFlagConfirmation, AFlagTheReMeasurementDoesNotRaiseStaysListedAsUnconfirmed) {
  // The first measurement of b was slow (a busy moment); measured again, b is a's level.
  const HistoryAttempt first = success('a', "r1", at(10), {timed("sort", 10)});
  const ExportInput input =
      input_for("abc", {first, success('b', "r2", at(11), {timed("sort", 14)}),
                        success('c', "r2", at(11), {timed("sort", 10)}),
                        success('a', "r3", at(12), {timed("sort", 10)}),
                        success('b', "r3", at(13), {timed("sort", 10.2)})});
  const Json history = exported(input);
  ASSERT_EQ(history["flags"].size(), 1u);
  const Json& flag = history["flags"][0];
  EXPECT_EQ(flag["commit"], sha('b'));
  EXPECT_EQ(flag["confirmation"], "unconfirmed");
  EXPECT_EQ(flag["median"], 10.2);  // the series shows the winning measurement
  EXPECT_EQ(flag["earlier"]["median"], 14);
  EXPECT_EQ(flag["earlier"]["change_percent"], 40);
  // The point carries the flag, so the viewer can show it beside its confirmation.
  EXPECT_EQ(history["series"][0]["points"]["flag"], Json({0, 1, 0}));
  std::string text;
  EXPECT_EQ(write_history(input, text).unconfirmed_flags, 1u);
}

// Nine rounds of a two-state machine: a's runs scatter from 10 to 20 ms.
const std::vector<double> kSwinging{10, 20, 12, 18, 15, 11, 19, 13, 17};

/// `runs`, each times `factor`.
std::vector<double> scaled(const std::vector<double>& runs, double factor) {
  std::vector<double> out;
  for (const double run : runs) out.push_back(run * factor);
  return out;
}

/// b rose 20% over a in their first measurements; run r3 measured both again together, at
/// the medians `a_again` and `b_again` (MADs 3 and 4.2 ms: a machine whose runs swing). The
/// runs of r3 read back are a's kSwinging and b's the same times `b_factor`, round by round.
ExportInput remeasured_together(double a_again, double b_again, double b_factor) {
  ExportInput input = input_for("ab", {success('a', "r1", at(10), {timed("sort", 10)}),
                                       success('b', "r2", at(11), {timed("sort", 12)}),
                                       success('a', "r3", at(12), {timed("sort", a_again, 3)}),
                                       success('b', "r3", at(12), {timed("sort", b_again, 4.2)})});
  input.run_samples = [b_factor](const HistoryAttempt& attempt, const std::string& case_name,
                                 const std::string& metric) -> std::optional<std::vector<double>> {
    if (attempt.identity.run != "r3" || case_name != "sort" || metric != "latency") {
      return std::nullopt;
    }
    return attempt.identity.sha == sha('a') ? kSwinging : scaled(kSwinging, b_factor);
  };
  return input;
}

TEST(HistoryExportFlagConfirmation, ATogetherReMeasurementIsJudgedRoundByRound) {
  // Measured again, b's median is 21 ms against a's 15: +40%, but not above 3 x (3 + 4.2) ms,
  // so on the points the re-measurement does not raise the flag. Its runs, paired round by
  // round, are 40% slower in every round: confirmed.
  ExportInput input = remeasured_together(15, 21, 1.4);
  const Json history = exported(input);
  ASSERT_EQ(history["flags"].size(), 1u);
  const Json& flag = history["flags"][0];
  EXPECT_EQ(flag["confirmation"], "confirmed");
  EXPECT_EQ(flag["median"], 21);
  EXPECT_EQ(flag["previous_median"], 15);
  EXPECT_NEAR(flag["paired"]["change_percent"].get<double>(), 40, 1e-9);
  EXPECT_EQ(flag["paired"]["rises"], true);
  EXPECT_EQ(flag["paired"]["rounds"], 9);
  EXPECT_NEAR(flag["paired"]["lower_percent"].get<double>(), 40, 1e-9);
  EXPECT_NEAR(flag["paired"]["lower_rise"].get<double>(), 4.4, 1e-9);  // ms, 2nd of nine
  // The first measurement's two commits were measured in two runs: not paired.
  EXPECT_EQ(flag["earlier"]["paired"], nullptr);
  std::string text;
  EXPECT_EQ(write_history(input, text).confirmed_flags, 1u);

  // Without the runs (raw records not in the archive) the points decide, as before.
  input.run_samples = nullptr;
  const Json points_only = exported(input);
  EXPECT_EQ(points_only["flags"][0]["confirmation"], "unconfirmed");
  EXPECT_EQ(points_only["flags"][0]["paired"], nullptr);
}

TEST(HistoryExportFlagConfirmation, RoundsThatShowNoRiseLeaveAFlagUnconfirmed) {
  // The medians measured again rise 30% (13 against 10, MADs 0.1 would raise it), but round
  // by round b's runs equal a's: what the medians showed was the moments each met.
  ExportInput input = input_for("ab", {success('a', "r1", at(10), {timed("sort", 10)}),
                                       success('b', "r2", at(11), {timed("sort", 12)}),
                                       success('a', "r3", at(12), {timed("sort", 10)}),
                                       success('b', "r3", at(12), {timed("sort", 13)})});
  input.run_samples = [](const HistoryAttempt& attempt, const std::string&,
                         const std::string&) -> std::optional<std::vector<double>> {
    if (attempt.identity.run != "r3") return std::nullopt;
    return kSwinging;
  };
  const Json history = exported(input);
  ASSERT_EQ(history["flags"].size(), 1u);
  EXPECT_EQ(history["flags"][0]["confirmation"], "unconfirmed");
  EXPECT_EQ(history["flags"][0]["paired"]["rises"], false);
  EXPECT_EQ(history["flags"][0]["paired"]["change_percent"], 0);
}

TEST(HistoryExportFlagConfirmation, RunsThatCannotBeReadOrPairedLeaveItToThePoints) {
  // One side's runs unreadable: the points decide (the medians rise 30% with MADs of 0.1).
  ExportInput unreadable = remeasured_together(10, 13, 1.4);
  for (HistoryAttempt& attempt : unreadable.attempts) attempt.cases[0].metrics["latency"].mad = 0.1;
  const auto runs = unreadable.run_samples;
  unreadable.run_samples = [runs](const HistoryAttempt& attempt, const std::string& case_name,
                                  const std::string& metric) -> std::optional<std::vector<double>> {
    if (attempt.identity.sha == sha('b')) return std::nullopt;
    return runs(attempt, case_name, metric);
  };
  Json history = exported(unreadable);
  EXPECT_EQ(history["flags"][0]["confirmation"], "confirmed");
  EXPECT_EQ(history["flags"][0]["paired"], nullptr);

  // Runs of another count (a config that changed between the commits): not paired either.
  ExportInput uneven = remeasured_together(10, 13, 1.4);
  for (HistoryAttempt& attempt : uneven.attempts) attempt.cases[0].metrics["latency"].mad = 0.1;
  uneven.run_samples = [](const HistoryAttempt& attempt, const std::string&,
                          const std::string&) -> std::optional<std::vector<double>> {
    return attempt.identity.sha == sha('a') ? kSwinging : std::vector<double>{14, 28, 17};
  };
  history = exported(uneven);
  EXPECT_EQ(history["flags"][0]["confirmation"], "confirmed");
  EXPECT_EQ(history["flags"][0]["paired"], nullptr);
}

TEST(HistoryExportFlagConfirmation, OnlyCommitsMeasuredInOneBatchArePaired) {
  // a and b measured again, but in two runs (r3 and r4): their runs met different moments,
  // so they are not paired, and the points decide.
  ExportInput input = input_for("ab", {success('a', "r1", at(10), {timed("sort", 10)}),
                                       success('b', "r2", at(11), {timed("sort", 12)}),
                                       success('a', "r3", at(12), {timed("sort", 15, 3)}),
                                       success('b', "r4", at(13), {timed("sort", 21, 4.2)})});
  int asked = 0;
  input.run_samples = [&asked](const HistoryAttempt& attempt, const std::string&,
                               const std::string&) -> std::optional<std::vector<double>> {
    ++asked;
    return attempt.identity.sha == sha('a') ? kSwinging : scaled(kSwinging, 1.4);
  };
  const Json history = exported(input);
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(history["flags"][0]["confirmation"], "unconfirmed");
  EXPECT_EQ(history["flags"][0]["paired"], nullptr);
}

TEST(HistoryExportFlagConfirmation, AFlagWhoseCommitsWereNotBothMeasuredAgainWaitsForIt) {
  // Only b was measured again: its flag is not yet confirmed, and the plan is told the pair.
  const HistoryAttempt first = success('a', "r1", at(10), {timed("sort", 10)});
  const ExportInput input = input_for("ab", {first, success('b', "r2", at(11), {timed("sort", 12)}),
                                             success('b', "r3", at(13), {timed("sort", 12.5)})});
  const Json history = exported(input);
  ASSERT_EQ(history["flags"].size(), 1u);
  EXPECT_EQ(history["flags"][0]["confirmation"], "not_remeasured");
  EXPECT_EQ(history["flags"][0]["earlier"], nullptr);
  std::string text;
  const ExportSummary summary = write_history(input, text);
  EXPECT_EQ(summary.flags_to_confirm,
            (std::vector<FlagToConfirm>{{sha('a'), sha('b'), "", setup_id(first)}}));
}

TEST(HistoryExportFlagConfirmation, AFlagComparesNeighboursAsMeasuredInOneBatch) {
  // r1 measured a, b and c in a busy moment; r2 measured a and b again (a confirmation) in a
  // quiet one. c was not measured again: against b's winner (7) it would rise 43%, against
  // b as r1 measured it beside c (10) it does not rise at all.
  const auto history_with_c = [](double c) {
    return exported(input_for("abc", {success('a', "r1", at(10), {timed("sort", 10)}),
                                      success('b', "r1", at(10), {timed("sort", 10)}),
                                      success('c', "r1", at(10), {timed("sort", c)}),
                                      success('a', "r2", at(12), {timed("sort", 7)}),
                                      success('b', "r2", at(12), {timed("sort", 7)})}));
  };
  const Json unchanged = history_with_c(10);
  EXPECT_EQ(unchanged["flags"], Json::array());
  EXPECT_EQ(unchanged["series"][0]["points"]["flag"], Json({0, 0, 0}));
  EXPECT_EQ(unchanged["series"][0]["points"]["median"], Json({7, 7, 10}));

  // c truly slower: flagged against b as measured in c's batch, and not yet re-measured.
  const Json slower = history_with_c(13);
  ASSERT_EQ(slower["flags"].size(), 1u);
  const Json& flag = slower["flags"][0];
  EXPECT_EQ(flag["commit"], sha('c'));
  EXPECT_EQ(flag["previous_median"], 10);
  EXPECT_EQ(flag["median"], 13);
  EXPECT_EQ(flag["change_percent"], 30);
  EXPECT_EQ(flag["confirmation"], "not_remeasured");
  EXPECT_EQ(flag["earlier"], nullptr);
  EXPECT_EQ(slower["series"][0]["points"]["flag"], Json({0, 0, 1}));
}

HistoryAttempt on(HistoryAttempt attempt, const std::string& environment) {
  attempt.environment["id"] = environment;
  return attempt;
}

TEST(HistoryExportEnvironments, ASecondMachineNeverHidesTheFirstOnesData) {
  // main measured a, b, c; bench-02 measured b later, and failed on c.
  const std::vector<HistoryAttempt> attempts = {
      on(success('a', "r1", at(10), {timed("sort", 10)}), "main"),
      on(success('b', "r1", at(11), {timed("sort", 10)}), "main"),
      on(success('c', "r1", at(12), {timed("sort", 10)}), "main"),
      on(success('b', "r2", at(20), {timed("sort", 30)}), "bench-02"),
      on(failure('c', "r2", at(21)), "bench-02")};
  const Json history = exported(input_for("abc", attempts));
  ASSERT_EQ(history["series"].size(), 2u);
  EXPECT_EQ(history["series"][0]["environment"]["id"], "main");
  EXPECT_EQ(history["series"][0]["points"]["commit"], Json({0, 1, 2}));
  EXPECT_EQ(history["series"][1]["environment"]["id"], "bench-02");
  EXPECT_EQ(history["series"][1]["points"]["commit"], Json({1}));
  // No attempt supersedes another machine's.
  for (const Json& attempt : history["attempts"]) EXPECT_EQ(attempt["superseded"], false);
  const Json& c = history["commits"][2];
  EXPECT_EQ(c["status"], "measured") << "bench-02's failure is bench-02's";
  EXPECT_EQ(c["attempt"], id('c', "r1"));
  EXPECT_EQ(c["environments"],
            Json({{"main", {{"attempt", id('c', "r1")}, {"status", "measured"}}},
                  {"bench-02", {{"attempt", id('c', "r2")}, {"status", "failed"}}}}));
  EXPECT_EQ(history["commits"][0]["environments"],
            Json({{"main", {{"attempt", id('a', "r1")}, {"status", "measured"}}}}));
  EXPECT_EQ(history["coverage"],
            Json({{"measured", 3}, {"failed", 0}, {"missing", 0}, {"monitored", 3}}));
  EXPECT_EQ(history["environments"], Json::parse(R"([
              {"id": "bench-02", "coverage": {"measured": 1, "failed": 1, "missing": 1},
               "current": "failed"},
              {"id": "main", "coverage": {"measured": 3, "failed": 0, "missing": 0},
               "current": "measured"}])"));
}

TEST(HistoryExport, LinksEveryCommitAndSaysWhereTheRawFilesAre) {
  ExportInput input = input_for("ab", {success('a', "r1", at(10), {timed("sort", 10)})});
  input.commit_url = "https://example.invalid/repo/commit/{sha}?from={sha}";
  input.raw_url = "./archive/";
  const Json history = exported(input);
  EXPECT_EQ(history["commit_url"], input.commit_url);
  EXPECT_EQ(history["raw_url"], "./archive/");
  EXPECT_EQ(history["commits"][0]["url"],
            "https://example.invalid/repo/commit/" + sha('a') + "?from=" + sha('a'));
  EXPECT_EQ(history["commits"][1]["url"],
            "https://example.invalid/repo/commit/" + sha('b') + "?from=" + sha('b'))
      << "a missing commit is a link too";
  const Json plain = exported(input_for("a", {}));
  EXPECT_EQ(plain["commit_url"], nullptr);
  EXPECT_EQ(plain["raw_url"], nullptr);
}

TEST(HistoryExportEnvironments, ACommitEveryMachineFailedIsFailed) {
  const Json history = exported(input_for(
      "a", {on(failure('a', "r1", at(10)), "main"), on(failure('a', "r2", at(11)), "bench-02")}));
  EXPECT_EQ(history["commits"][0]["status"], "failed");
  EXPECT_EQ(history["commits"][0]["attempt"], id('a', "r2")) << "the newest failure";
  EXPECT_EQ(history["coverage"]["failed"], 1);
}

TEST(HistoryExportEnvironments, ANewConfigurationKeepsTheOldMeasurementsInTheirOwnSeries) {
  HistoryAttempt o3 = success('b', "r2", at(20), {timed("sort", 8)});
  o3.configuration["build"] = {"make CFLAGS=-O3"};
  HistoryAttempt longer_timeout = success('a', "r3", at(21), {timed("sort", 10.5)});
  longer_timeout.configuration["timeout_s"] = 7200;  // a limit: the same setup as r1's
  const Json history = exported(
      input_for("ab", {success('a', "r1", at(10), {timed("sort", 10)}),
                       success('b', "r1", at(11), {timed("sort", 10)}), o3, longer_timeout}));
  ASSERT_EQ(history["series"].size(), 2u);
  EXPECT_EQ(history["series"][0]["points"]["commit"], Json({0, 1}));
  EXPECT_EQ(history["series"][0]["points"]["median"], Json({10.5, 10}))
      << "the longer timeout's attempt replaced r1's in the same series";
  EXPECT_EQ(history["series"][1]["points"]["commit"], Json({1}));
  EXPECT_EQ(history["series"][1]["points"]["median"], Json({8}));
  std::vector<bool> superseded;
  for (const Json& attempt : history["attempts"]) superseded.push_back(attempt["superseded"]);
  EXPECT_EQ(superseded, (std::vector<bool>{true, false, false, false}));
}

TEST(HistoryExport, OrdersSeriesByCountThenNewestLastCommitThenId) {
  const Json history = exported(input_for(
      "abcd", {success('a', "r1", at(10), {timed("x", 10), timed("z", 10)}),
               success('b', "r2", at(11), {timed("x", 10), timed("z", 10)}),
               success('c', "r3", at(12), {timed("x", 10), timed("y", 10)}),
               success('d', "r4", at(13), {timed("y", 10), timed("p", 10), timed("q", 10)})}));
  std::vector<std::string> names;
  for (const Json& s : history["series"]) names.push_back(s["case"]);
  const std::vector<std::string> ids = series_ids(history);
  ASSERT_EQ(names.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 3),
            (std::vector<std::string>{"x", "y", "z"}));
  // p and q: one point each, both on d, so ordered by id.
  EXPECT_LT(ids[3], ids[4]);
  EXPECT_EQ(history["series"][3]["count"], 1);
  EXPECT_EQ(history["series"][4]["count"], 1);
}

TEST(HistoryExport, IncompatibleEnvironmentsSplitIntoSeparateSeries) {
  HistoryAttempt other_cpu = success('c', "r3", at(12), {timed("sort", 100)});
  other_cpu.environment["cpu"] = "EPYC";
  const Json history =
      exported(input_for("abc", {success('a', "r1", at(10), {timed("sort", 10)}),
                                 success('b', "r2", at(11), {timed("sort", 10)}), other_cpu}));
  ASSERT_EQ(history["series"].size(), 2u);
  EXPECT_EQ(history["series"][0]["points"]["commit"], Json({0, 1}));
  EXPECT_EQ(history["series"][1]["points"]["commit"], Json({2}));
  EXPECT_EQ(history["series"][1]["environment"]["cpu"], "EPYC");
  EXPECT_EQ(history["flags"], Json::array());  // 100 ms is never compared with 10 ms
}

TEST(HistoryExport, AMetricThatIsNotATimeGetsASeriesButNoFlag) {
  MeasuredCase small = timed("sort", 10);
  small.metrics = {{"memory", {"B", 1000, 0, 1000, 1000, 5}}};
  MeasuredCase large = small;
  large.metrics["memory"] = {"B", 5000, 0, 5000, 5000, 5};
  const Json history = exported(
      input_for("ab", {success('a', "r1", at(10), {small}), success('b', "r2", at(11), {large})}));
  ASSERT_EQ(history["series"].size(), 1u);
  EXPECT_EQ(history["series"][0]["unit"], "B");
  EXPECT_EQ(history["series"][0]["points"]["flag"], Json({0, 0}));
  EXPECT_EQ(history["flags"], Json::array());
}

TEST(HistoryExport, WritesEveryAttemptWithItsErrorsAndMissingCases) {
  HistoryAttempt failed = failure('a', "r2", at(11));
  failed.finished_at = at(12);
  const Json history = exported(
      input_for("a", {failed, success('a', "r1", at(10), {timed("sort", 10), timed("find", 3)})}));
  const Json expected_success = {{"id", id('a', "r1")},
                                 {"sha", sha('a')},
                                 {"run", "r1"},
                                 {"attempt", 1},
                                 {"started_at", at(10)},
                                 {"finished_at", at(10)},
                                 {"status", "success"},
                                 {"label", "diagnostic"},
                                 {"harness_sha", sha('h')},
                                 {"harness_version", 1},
                                 {"environment", {{"cpu", "Xeon"}, {"kernel", "6.8"}}},
                                 {"configuration", {{"build", {"make"}}}},
                                 {"benchmark_sources", {{"benchmarks/sort.toml", "b1"}}},
                                 {"errors", Json::array()},
                                 {"missing_cases", Json::array()},
                                 {"case_count", 2},
                                 {"raw_path", "raw/" + id('a', "r1") + "/"},
                                 {"superseded", true}};
  Json expected_failure = expected_success;
  expected_failure["id"] = id('a', "r2");
  expected_failure["run"] = "r2";
  expected_failure["started_at"] = at(11);
  expected_failure["finished_at"] = at(12);
  expected_failure["status"] = "failure";
  expected_failure["errors"] = {{{"stage", "build"}, {"message", "make exited with status 2"}}};
  expected_failure["missing_cases"] = {"sort"};
  expected_failure["case_count"] = 0;
  expected_failure["raw_path"] = "raw/" + id('a', "r2") + "/";
  expected_failure["superseded"] = false;
  EXPECT_EQ(history["attempts"], Json({expected_success, expected_failure}));
}

TEST(HistoryExport, ListsRejectedFilesByPathAndNeverAsData) {
  ExportInput input = input_for("a", {});
  input.rejected = {{"", "attempts/notes.json", "not an attempt identity"},
                    {id('a', "r1"), "attempts/" + id('a', "r1") + ".json",
                     "cases[0].metrics.latency.median: a time's median is zero"}};
  const Json history = exported(input);
  const Json expected = {
      {{"id", id('a', "r1")},
       {"path", "attempts/" + id('a', "r1") + ".json"},
       {"reason", "cases[0].metrics.latency.median: a time's median is zero"}},
      {{"id", ""}, {"path", "attempts/notes.json"}, {"reason", "not an attempt identity"}}};
  EXPECT_EQ(history["rejected"], expected);
  EXPECT_EQ(history["commits"][0]["status"], "missing");
  EXPECT_EQ(history["attempts"], Json::array());
}

TEST(HistoryExport, WritesEveryStringAsTextAndReplacesBytesThatAreNotUtf8) {
  MeasuredCase hostile = timed("<img src=x onerror=alert(1)>\"\\\n\x01", 10);
  ExportInput input = input_for("a", {success('a', "r1", at(10), {hostile})});
  input.commits[sha('a')].summary = "caf\xC3\xA9 \xFF\xFE broken";
  std::string text;
  write_history(input, text);
  const Json history = Json::parse(text);
  EXPECT_EQ(history["commits"][0]["summary"], "caf\xC3\xA9 \xEF\xBF\xBD\xEF\xBF\xBD broken");
  EXPECT_EQ(history["series"][0]["case"], "<img src=x onerror=alert(1)>\"\\\n\x01");
  EXPECT_NE(text.find(R"("case":"<img src=x onerror=alert(1)>\"\\\n\u0001")"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate::history
