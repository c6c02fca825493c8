#include "report/store_view.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "model/json.hpp"
#include "report/change_report.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

NormalizedRecord v2(const std::string& timestamp, double latency) {
  NormalizedRecord r;
  r.record_id = "r-" + timestamp;
  r.benchmark_id = "sort";
  r.config_schema_version = 2;
  r.workload_id = "sort";
  r.variant_id = "std";
  r.benchmark_version = 3;
  r.recipe_fingerprint = "0123456789abcdef0123";
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-2";
  r.device = "cpu";
  r.timestamp = timestamp;
  r.run_source = "scheduled_main";
  r.comparison_status = kPass;
  r.comparison_status_reason = "within budget";
  r.baseline_status = kBaselineCompared;
  r.metrics["latency"] = {latency, "s", Direction::kLowerIsBetter};
  return r;
}

NormalizedRecord legacy(const std::string& timestamp) {
  NormalizedRecord r;
  r.record_id = "legacy-" + timestamp;
  r.benchmark_id = "old";
  r.device = "NVIDIA L40S";
  r.timestamp = timestamp;
  r.metrics["throughput"] = {12.5, "fps", Direction::kHigherIsBetter};
  return r;
}

/// A column as the viewer reads it: a dictionary {codes, values} expanded to one entry per
/// record.
Json decoded(const Json& column) {
  if (column.is_array()) return column;
  Json out = Json::array();
  for (const Json& code : column.at("codes"))
    out.push_back(column.at("values").at(code.get<std::size_t>()));
  return out;
}

StoreViewContext context() {
  return {"sqlite:perf.db", "2026-12-02T16:00:00Z", "", "", "", ""};
}

Json view_of(const std::vector<StoredRecord>& records, const StoreViewContext& c = context()) {
  const std::string text = write_store_view(records, c);
  EXPECT_EQ(text.back(), '\n');
  const Json json = Json::parse(text);
  // Written compact with sorted keys: byte for byte what nlohmann writes for the document.
  EXPECT_EQ(text, json.dump() + "\n");
  return json;
}

TEST(StoreView, GroupsRecordsByCohortInColumnsOldestFirst) {
  NormalizedRecord middle = v2("2026-11-30T10:00:00Z", 0.30);
  middle.metrics.erase("latency");
  middle.metrics["memory"] = {41.5, "MB", Direction::kLowerIsBetter};
  middle.commit_sha = "9f1c";
  middle.branch = "main";
  // A store lists newest first.
  const std::vector<StoredRecord> records{
      {v2("2026-12-01T10:00:00+02:00", 0.20), "att-3", true},
      {middle, "att-2", false},
      {v2("2026-11-29T10:00:00Z", 0.25), "att-1", true},
      {legacy("2026-12-02T09:00:00Z"), "att-4", true},
  };
  const Json view = view_of(records);
  EXPECT_EQ(view["schema_version"], 1);
  EXPECT_EQ(view["kind"], "perfgate-store-view");
  EXPECT_EQ(view["commit_url"], nullptr);
  EXPECT_EQ(view["store"], "sqlite:perf.db");
  EXPECT_EQ(view["generated_at"], "2026-12-02T16:00:00Z");
  EXPECT_EQ(view["record_count"], 4);
  EXPECT_EQ(view["filter"], Json::parse(R"({"benchmark":null,"since":null})"));
  EXPECT_EQ(view["unplaced_records"], Json::array());
  ASSERT_EQ(view["cohorts"].size(), 2u);

  const Json& sort = view["cohorts"][0];  // three records before one
  EXPECT_EQ(sort["id"], "sort/std/v3/0123456789ab/hw-1/sw-2");
  // No sibling (another cohort of sort/std) to tell it from: workload and variant alone.
  EXPECT_EQ(sort["label"], "sort/std");
  EXPECT_EQ(sort["kind"], "v2");
  EXPECT_EQ(sort["identity"], Json::parse(R"({"workload_id":"sort","variant_id":"std",
      "benchmark_version":3,"recipe_fingerprint":"0123456789abcdef0123",
      "hardware_profile_id":"hw-1","software_profile_id":"sw-2"})"));
  EXPECT_EQ(sort["benchmarks"], Json::parse(R"(["sort"])"));
  EXPECT_EQ(sort["devices"], Json::parse(R"(["cpu"])"));
  const Json& columns = sort["records"];
  // Timestamps as UTC text, whatever offset the record was written with.
  EXPECT_EQ(columns["timestamp"], Json::parse(R"(["2026-11-29T10:00:00Z",
      "2026-11-30T10:00:00Z","2026-12-01T08:00:00Z"])"));
  EXPECT_EQ(columns["attempt"], Json::parse(R"(["att-1","att-2","att-3"])"));
  EXPECT_EQ(columns["commit"], Json::parse(R"([null,"9f1c",null])"));
  // Repeated texts as dictionaries: each distinct text once, an index per record.
  EXPECT_EQ(columns["branch"], Json::parse(R"({"codes":[0,1,0],"values":[null,"main"]})"));
  EXPECT_EQ(columns["comparison_status"], Json::parse(R"({"codes":[0,0,0],"values":["PASS"]})"));
  EXPECT_EQ(columns["eligible"], Json::parse("[true,false,true]"));
  EXPECT_EQ(columns["success"], Json::parse("[true,true,true]"));
  EXPECT_EQ(decoded(columns["comparison_reason"])[0], "within budget");
  EXPECT_EQ(decoded(columns["baseline_status"])[2], "compared");
  EXPECT_EQ(decoded(columns["run_source"])[0], "scheduled_main");
  EXPECT_EQ(decoded(columns["benchmark"])[1], "sort");
  // Ids shortened to 12 characters, as short SHAs.
  EXPECT_EQ(columns["record"][0], "r-2026-11-29");
  // A missing value is null, never 0.
  EXPECT_EQ(sort["metrics"], Json::parse(R"([
      {"changes":[],"name":"latency","unit":"s","direction":"lower","values":[0.25,null,0.2],
       "verdicts":{"codes":[0,0,0],"values":[null]}},
      {"changes":[],"name":"memory","unit":"MB","direction":"lower","values":[null,41.5,null],
       "verdicts":{"codes":[0,0,0],"values":[null]}}])"));
  EXPECT_EQ(sort["skipped_metrics"], Json::array());

  const Json& old = view["cohorts"][1];
  EXPECT_EQ(old["id"], "legacy-v1/old/NVIDIA L40S");
  EXPECT_EQ(old["label"], "Legacy v1 (old, NVIDIA L40S)");
  EXPECT_EQ(old["kind"], "legacy_v1");
  EXPECT_EQ(old["identity"]["workload_id"], nullptr);
  EXPECT_EQ(old["identity"]["benchmark_version"], nullptr);
  EXPECT_EQ(old["metrics"][0]["direction"], "higher");
}

TEST(StoreView, GivesEachMetricItsOwnVerdictInEveryRecord) {
  NormalizedRecord record = v2("2026-12-01T10:00:00Z", 0.3);
  record.metrics["memory"] = {40, "MB", Direction::kLowerIsBetter};
  record.metrics["rows"] = {7, "", Direction::kLowerIsBetter};
  record.comparison_status = kRegression;
  MetricComparison latency;
  latency.metric = "latency";
  latency.current = 0.3;
  latency.threshold_exceeded = true;
  latency.regressed = true;
  MetricComparison memory;
  memory.metric = "memory";
  memory.current = 40;
  memory.threshold_exceeded = true;
  memory.not_gated = "under the 256 MB floor";
  MetricComparison gpu;
  gpu.metric = "gpu_memory";  // compared, not measured: no value, so no chart
  record.comparisons = {latency, memory, gpu};
  NormalizedRecord calm = v2("2026-12-02T10:00:00Z", 0.2);
  calm.metrics["memory"] = {40, "MB", Direction::kLowerIsBetter};
  MetricComparison ok;
  ok.metric = "latency";
  ok.current = 0.2;
  MetricComparison stat;
  stat.metric = "memory";
  stat.current = 40;
  stat.inconclusive = true;
  calm.comparisons = {ok, stat};
  const Json view = view_of({{record, "a-1", true}, {calm, "a-2", true}});
  std::map<std::string, Json> verdicts;
  for (const Json& metric : view["cohorts"][0]["metrics"])
    verdicts[metric["name"]] = decoded(metric["verdicts"]);
  EXPECT_EQ(verdicts["latency"], Json::parse(R"(["regressed","ok"])"));
  EXPECT_EQ(verdicts["memory"], Json::parse(R"(["not_gated","inconclusive"])"));
  EXPECT_EQ(verdicts["rows"], Json::parse("[null,null]"));  // compared on no record
}

TEST(StoreView, KeepsAnEmptyTextApartFromAMissingOne) {
  NormalizedRecord r = v2("2026-11-29T10:00:00Z", 0.25);
  r.comparison_status_reason = "";
  r.branch = "";
  const Json columns = view_of({{r, "att", false}})["cohorts"][0]["records"];
  EXPECT_EQ(columns["comparison_reason"], Json::parse(R"({"codes":[0],"values":[""]})"));
  EXPECT_EQ(columns["branch"], Json::parse(R"({"codes":[0],"values":[null]})"));
}

TEST(StoreView, ListsMetricsWithoutValuesAsSkipped) {
  NormalizedRecord r = v2("2026-11-29T10:00:00Z", 0.25);
  r.regression_thresholds["throughput"] = {0.05, 0, true};
  MetricComparison missing;
  missing.metric = "vae.decode";
  r.comparisons.push_back(missing);
  const Json view = view_of({{r, "att", false}});
  EXPECT_EQ(view["cohorts"][0]["skipped_metrics"], Json::parse(R"([
      {"name":"throughput","unit":"units/s","direction":"higher"},
      {"name":"vae.decode","unit":"","direction":"lower"}])"));
  EXPECT_EQ(view["cohorts"][0]["metrics"].size(), 1u);
}

TEST(StoreView, LabelsAnIncompleteV2IdentityInvalid) {
  NormalizedRecord r = v2("2026-11-29T10:00:00Z", 0.25);
  r.variant_id.reset();
  const Json view = view_of({{r, "att", false}});
  EXPECT_EQ(view["cohorts"][0]["id"], "invalid-v2/sort");
  EXPECT_EQ(view["cohorts"][0]["label"], "Invalid v2 (sort)");
  EXPECT_EQ(view["cohorts"][0]["kind"], "invalid_v2");
  EXPECT_EQ(view["cohorts"][0]["identity"]["variant_id"], nullptr);
  EXPECT_EQ(view["cohorts"][0]["identity"]["workload_id"], "sort");
}

TEST(StoreView, OrdersCohortsByCountThenNewestThenId) {
  NormalizedRecord a = v2("2026-11-29T10:00:00Z", 1);
  NormalizedRecord b = a;
  b.workload_id = "b-work";
  b.timestamp = "2026-11-30T10:00:00Z";
  NormalizedRecord c = a;
  c.workload_id = "a-work";
  const Json view = view_of({{a, "1", true}, {b, "2", true}, {c, "3", true}});
  ASSERT_EQ(view["cohorts"].size(), 3u);
  EXPECT_EQ(view["cohorts"][0]["identity"]["workload_id"], "b-work");  // newest
  EXPECT_EQ(view["cohorts"][1]["identity"]["workload_id"], "a-work");  // same instant: by id
  EXPECT_EQ(view["cohorts"][2]["identity"]["workload_id"], "sort");
}

TEST(StoreView, KeepsHostileTextAsDataAndEchoesTheFilter) {
  NormalizedRecord r = v2("2026-11-29T10:00:00Z", 0.25);
  r.benchmark_id = "<img src=x onerror=alert(1)>\"\\\n";
  r.comparison_status_reason = "</script><script>alert(2)</script>";
  r.metrics["\u00b5s \"quoted\""] = {1, "<b>", Direction::kLowerIsBetter};
  const Json view = view_of({{r, "att", false}},
                            {"dir:x", "2026-12-02T16:00:00Z", "sort*", "2026-11-01", "", ""});
  EXPECT_EQ(view["cohorts"][0]["benchmarks"][0], "<img src=x onerror=alert(1)>\"\\\n");
  EXPECT_EQ(decoded(view["cohorts"][0]["records"]["comparison_reason"])[0],
            "</script><script>alert(2)</script>");
  EXPECT_EQ(view["cohorts"][0]["metrics"][1]["name"], "\u00b5s \"quoted\"");
  EXPECT_EQ(view["cohorts"][0]["metrics"][1]["unit"], "<b>");
  EXPECT_EQ(view["filter"], Json::parse(R"({"benchmark":"sort*","since":"2026-11-01"})"));
}

TEST(StoreView, ListsRecordsWithoutAnInstantApart) {
  NormalizedRecord broken = v2("yesterday", 0.3);
  broken.record_id = "0123456789abcdef";
  const Json view = view_of({{v2("2026-11-29T10:00:00Z", 0.25), "a1", true}, {broken, "a2", true}});
  EXPECT_EQ(view["record_count"], 1);
  EXPECT_EQ(view["cohorts"][0]["records"]["timestamp"].size(), 1u);
  EXPECT_EQ(view["unplaced_records"], Json::parse(R"([{"benchmark":"sort",
      "record":"0123456789ab","timestamp":"yesterday"}])"));
}

TEST(StoreView, WritesAnEmptyStore) {
  const Json view = view_of({});
  EXPECT_EQ(view["cohorts"], Json::array());
  EXPECT_EQ(view["record_count"], 0);
}

TEST(StoreView, IndexesCohortsWithCountsAndTimeRange) {
  const std::vector<StoredRecord> records{{v2("2026-12-01T10:00:00Z", 0.2), "a2", true},
                                          {v2("2026-11-29T10:00:00Z", 0.25), "a1", true},
                                          {legacy("2026-12-02T09:00:00Z"), "a3", true}};
  const std::string text = write_store_cohort_index(records, context());
  const Json index = Json::parse(text);
  EXPECT_EQ(text, index.dump() + "\n");
  EXPECT_EQ(index["kind"], "perfgate-store-cohorts");
  EXPECT_EQ(index["record_count"], 3);
  EXPECT_EQ(index["cohorts"], Json::parse(R"json([
      {"id":"sort/std/v3/0123456789ab/hw-1/sw-2","kind":"v2",
       "label":"sort/std","record_count":2,
       "first":"2026-11-29T10:00:00Z","last":"2026-12-01T10:00:00Z","benchmarks":["sort"],
       "metrics":["latency"]
},
      {"id":"legacy-v1/old/NVIDIA L40S","kind":"legacy_v1","label":"Legacy v1 (old, NVIDIA L40S)",
       "record_count":1,"first":"2026-12-02T09:00:00Z","last":"2026-12-02T09:00:00Z",
       "benchmarks":["old"],"metrics":["throughput"]}])json"));
}

TEST(StoreView, GivesEachRecordTheSpreadOfItsRuns) {
  NormalizedRecord four = v2("2026-11-26T10:00:00Z", 0.3125);
  four.metrics["latency"].samples = {0.375, 0.125, 0.25, 0.5};
  four.metrics["memory"] = {40, "MB", Direction::kLowerIsBetter, {40}};
  NormalizedRecord one = v2("2026-11-27T10:00:00Z", 0.2);
  one.metrics["latency"].samples = {0.2};  // a single run has no spread
  NormalizedRecord none = v2("2026-11-28T10:00:00Z", 0);
  none.metrics.erase("latency");
  none.metrics["memory"] = {41, "MB", Direction::kLowerIsBetter};
  NormalizedRecord three = v2("2026-11-29T10:00:00Z", 0.5);
  three.metrics["latency"].samples = {0.2500049, 0.75, 0.51234567};
  NormalizedRecord not_finite = v2("2026-11-30T10:00:00Z", 0.5);
  not_finite.metrics["latency"].samples = {std::nan(""), 0.5};
  const Json view = view_of({{not_finite, "a5", true},
                             {three, "a4", true},
                             {none, "a3", true},
                             {one, "a2", true},
                             {four, "a1", true}});
  const Json& latency = view["cohorts"][0]["metrics"][0];
  ASSERT_EQ(latency["name"], "latency");
  // Min, median (type 7: halfway between 0.25 and 0.375 of four) and max of each record's
  // runs, to 4 significant digits; null for one run, no latency, or one finite sample.
  EXPECT_EQ(latency["spread"], Json::parse(R"({"max":[0.5,null,null,0.75,null],
      "median":[0.3125,null,null,0.5123,null],"min":[0.125,null,null,0.25,null]})"));
  EXPECT_EQ(latency["values"], Json::parse("[0.3125,0.2,null,0.5,0.5]"));
  // No record with two runs of memory (an import of aggregates): no spread at all.
  const Json& memory = view["cohorts"][0]["metrics"][1];
  ASSERT_EQ(memory["name"], "memory");
  EXPECT_FALSE(memory.contains("spread"));
}

TEST(StoreView, CarriesTheProjectsCommitPage) {
  const std::vector<StoredRecord> records{{v2("2026-11-29T10:00:00Z", 0.25), "a1", true}};
  StoreViewContext with_page = context();
  with_page.commit_url = "https://git.example/repo/commit/{sha}";
  EXPECT_EQ(view_of(records, with_page)["commit_url"], "https://git.example/repo/commit/{sha}");
  EXPECT_EQ(view_of(records)["commit_url"], nullptr);
  const Json index = Json::parse(write_store_cohort_index(records, with_page));
  EXPECT_EQ(index["commit_url"], "https://git.example/repo/commit/{sha}");
}

TEST(StoreView, LabelsSiblingCohortsByWhatTellsThemApart) {
  const auto state = [](const std::string& n, const std::string& hardware,
                        const std::string& recipe) {
    NormalizedRecord r = v2("2026-11-29T10:00:00Z", 0.25);
    r.benchmark_id = "sort[n=" + n + ",threads=8]";
    r.parameters = {{"n", n}, {"threads", "8"}};
    r.hardware_profile_id = hardware;
    r.recipe_fingerprint = recipe;
    return r;
  };
  const std::vector<StoredRecord> records{
      {state("200000", "hw-1a2b3c4d5e6f7081", "3f2a9c81d0e4aa"), "a1", true},
      {state("500000", "hw-1a2b3c4d5e6f7081", "77aa01c2d3e4bb"), "a2", true},
      {state("200000", "hw-1a2b9c4d5e6f7081", "3f2a9c81d0e4aa"), "a3", true},
      {legacy("2026-11-29T10:00:00Z"), "a4", true}};
  std::map<std::string, std::string> labels;
  const Json view = view_of(records);
  for (const Json& cohort : view["cohorts"]) labels[cohort["id"]] = cohort["label"];
  EXPECT_EQ(
      labels,
      (std::map<std::string, std::string>{
          {"sort/std/v3/3f2a9c81d0e4/hw-1a2b3c4d5e6f7081/sw-2", "sort/std (n=200000, hw-1a2b3)"},
          {"sort/std/v3/3f2a9c81d0e4/hw-1a2b9c4d5e6f7081/sw-2", "sort/std (n=200000, hw-1a2b9)"},
          {"sort/std/v3/77aa01c2d3e4/hw-1a2b3c4d5e6f7081/sw-2", "sort/std (n=500000)"},
          {"legacy-v1/old/NVIDIA L40S", "Legacy v1 (old, NVIDIA L40S)"}}));
  // serve's cohort index names them alike.
  std::map<std::string, std::string> indexed;
  const Json index = Json::parse(write_store_cohort_index(records, context()));
  for (const Json& cohort : index["cohorts"]) indexed[cohort["id"]] = cohort["label"];
  EXPECT_EQ(indexed, labels);
}

TEST(StoreView, WritesOneCohortLabelledAmongAllOfThem) {
  NormalizedRecord other_machine = v2("2026-11-30T10:00:00Z", 0.3);
  other_machine.hardware_profile_id = "hw-77778888";
  NormalizedRecord broken = v2("yesterday", 0.3);
  broken.record_id = "0123456789abcdef";
  NormalizedRecord broken_elsewhere = other_machine;
  broken_elsewhere.timestamp = "last week";
  const std::vector<StoredRecord> records{{v2("2026-11-29T10:00:00Z", 0.25), "a1", true},
                                          {v2("2026-11-28T10:00:00Z", 0.2), "a2", true},
                                          {other_machine, "a3", true},
                                          {broken, "a4", true},
                                          {broken_elsewhere, "a5", true},
                                          {legacy("2026-11-29T10:00:00Z"), "a6", true}};
  StoreViewContext one = context();
  one.cohort = "sort/std/v3/0123456789ab/hw-1/sw-2";
  const Json view = view_of(records, one);
  ASSERT_EQ(view["cohorts"].size(), 1u);
  EXPECT_EQ(view["cohorts"][0]["id"], "sort/std/v3/0123456789ab/hw-1/sw-2");
  EXPECT_EQ(view["cohorts"][0]["label"], "sort/std (hw-1)");  // beside sort/std (hw-7777)
  EXPECT_EQ(view["record_count"], 2);
  EXPECT_EQ(view["unplaced_records"], Json::parse(R"([{"benchmark":"sort",
      "record":"0123456789ab","timestamp":"yesterday"}])"));
  EXPECT_EQ(view_of(records)["record_count"], 4);
}

TEST(StoreView, MarksEachMetricsChangePointsAtTheRecordThatStartsThem) {
  // Twelve nights at 10 ms, then twelve at 12 ms; a failed run of 50 ms in the middle of
  // the second level is a record of the columns but no point of the series.
  std::vector<StoredRecord> records;
  for (int night = 1; night <= 25; ++night) {
    const double latency =
        night == 17 ? 0.050 : (night > 12 ? 0.012 : 0.010) * (night % 2 ? 1.01 : 0.99);
    NormalizedRecord r = v2(fmt::format("2026-11-{:02}T02:00:00Z", night), latency);
    r.metrics["memory"] = {night > 12 ? 5.0 : 0.0, "MB", Direction::kLowerIsBetter};
    r.success = night != 17;
    records.insert(records.begin(), StoredRecord{r, "att", true});  // newest first
  }
  const Json view = Json::parse(write_store_view(records, {}));
  const Json& changes = view["cohorts"][0]["metrics"][0]["changes"];
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0]["index"], 12);  // night 13, the 13th column
  EXPECT_DOUBLE_EQ(changes[0]["before"].get<double>(), 0.010);
  EXPECT_DOUBLE_EQ(changes[0]["after"].get<double>(), 0.012);
  EXPECT_NEAR(changes[0]["relative_change"].get<double>(), 0.2, 1e-12);
  EXPECT_EQ(changes[0]["worse"], true);
  EXPECT_LT(changes[0]["p_value"].get<double>(), 1e-10);
  // From a level of 0 no percentage says how far: relative_change is null, not infinite.
  const Json& memory = view["cohorts"][0]["metrics"][1]["changes"];
  ASSERT_EQ(memory.size(), 1u);
  EXPECT_EQ(memory[0]["before"], 0);
  EXPECT_TRUE(memory[0]["relative_change"].is_null());
  EXPECT_EQ(memory[0]["worse"], true);
  // The same change `perfgate history changes` reports.
  const auto series = analyse_changes(records, "latency", {});
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].changes.size(), 1u);
  EXPECT_EQ(series[0].points[series[0].changes[0].index].timestamp, "2026-11-13T02:00:00Z");
}

TEST(StoreView, WritesEachCohortsDetailsApartAndNamesTheRecordsWhatChangedShows) {
  // Twenty-five nights of one cohort: a step at night 13, night 17 failed, night 20 a
  // REGRESSION, night 22 INCONCLUSIVE; and one legacy record.
  std::vector<StoredRecord> records;
  for (int night = 1; night <= 25; ++night) {
    const double latency = (night > 12 ? 0.012 : 0.010) * (night % 2 ? 1.01 : 0.99);
    NormalizedRecord r = v2(fmt::format("2026-11-{:02}T02:00:00Z", night), latency);
    r.record_id = fmt::format("record-{:02}-of-the-store", night);
    r.commit_sha = fmt::format("c{:02}", night);
    r.branch = "main";
    r.metrics["latency"].samples = {latency * 0.9, latency, latency * 1.1};
    r.success = night != 17;
    if (night == 20) r.comparison_status = "REGRESSION";
    if (night == 22) r.comparison_status = "INCONCLUSIVE";
    records.insert(records.begin(), StoredRecord{r, fmt::format("attempt-{:02}", night), true});
  }
  records.push_back({legacy("2026-12-02T09:00:00Z"), "att-legacy", false});
  const StoreViewApart apart = write_store_view_apart(records, context());

  // The document is write_store_view's, less the detail columns and the spread, plus
  // "details": which file holds them, and the commit and record of the named records.
  Json whole = view_of(records);
  const Json first = Json::parse(apart.document);
  EXPECT_EQ(apart.document, first.dump() + "\n");  // compact, sorted keys
  ASSERT_EQ(apart.details.size(), 2u);
  EXPECT_EQ(first["cohorts"][0]["details"], Json::parse(R"({"file":1,
      "rows":[12,16,19,21],"commit":["c13","c17","c20","c22"],
      "record":["record-13-of","record-17-of","record-20-of","record-22-of"]})"));
  EXPECT_EQ(first["cohorts"][1]["details"],
            Json::parse(R"({"file":2,"rows":[],"commit":[],"record":[]})"));
  for (std::size_t c = 0; c < 2; ++c) {
    Json& cohort = whole["cohorts"][c];
    const Json details = Json::parse(apart.details[c]);
    EXPECT_EQ(apart.details[c], details.dump() + "\n");
    EXPECT_EQ(details["kind"], "perfgate-store-cohort-details");
    EXPECT_EQ(details["id"], cohort["id"]);
    // The detail columns, exactly as the whole document has them.
    Json columns = Json::object();
    for (const char* column :
         {"attempt", "baseline_status", "benchmark", "branch", "commit", "eligible", "record"}) {
      columns[column] = cohort["records"][column];
      cohort["records"].erase(column);
    }
    EXPECT_EQ(details["records"], columns);
    Json spreads = Json::array();
    for (Json& metric : cohort["metrics"]) {
      if (!metric.contains("spread")) continue;
      spreads.push_back({{"name", metric["name"]}, {"spread", metric["spread"]}});
      metric.erase("spread");
    }
    EXPECT_EQ(details["metrics"], spreads);
    cohort["details"] = first["cohorts"][c]["details"];
  }
  EXPECT_EQ(whole["cohorts"][0]["metrics"][0]["changes"][0]["index"], 12);
  EXPECT_EQ(Json::parse(apart.details[0])["metrics"].size(), 1u);  // latency has runs
  EXPECT_EQ(first, whole);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
