#include "serve/dashboard_api.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "model/json.hpp"
#include "report/viewer_assets.hpp"
#include "support/memory_store.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

Attempt attempt_of(const std::string& benchmark, const std::string& timestamp, double latency) {
  Attempt attempt;
  attempt.created_at = timestamp;
  attempt.commit_sha = "c0ffee";
  attempt.run_source = "local";
  NormalizedRecord r;
  r.benchmark_id = benchmark;
  r.config_schema_version = 2;
  r.workload_id = benchmark;
  r.variant_id = "std";
  r.benchmark_version = 1;
  r.recipe_fingerprint = "recipe-" + benchmark;
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-1";
  r.timestamp = timestamp;
  r.run_source = "local";
  r.metrics["latency"] = {latency, "s", Direction::kLowerIsBetter};
  attempt.records.push_back(r);
  assign_attempt_id(attempt);
  return attempt;
}

struct Fixture {
  MemoryStore* store = nullptr;
  std::unique_ptr<DashboardApi> api;
  explicit Fixture(std::optional<std::filesystem::path> history = std::nullopt,
                   std::string commit_url = "") {
    auto owned = std::make_unique<MemoryStore>();
    store = owned.get();
    store->append(attempt_of("sort", "2026-11-30T10:00:00Z", 0.25));
    store->append(attempt_of("scan", "2026-12-01T10:00:00Z", 0.5));
    store->append(attempt_of("sort", "2026-12-01T11:00:00Z", 0.26));
    api =
        std::make_unique<DashboardApi>(std::move(owned), std::move(history), std::move(commit_url));
  }
  Json json(const std::string& path, const QueryParameters& query = {}) {
    const DashboardResponse response = api->get(path, query);
    EXPECT_EQ(response.status, 200) << path << ": " << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_TRUE(response.is_data);
    return Json::parse(response.body);
  }
};

TEST(DashboardApi, ServesTheStoreViewAndSeesNewRecordsWithoutARestart) {
  Fixture f;
  Json view = f.json("/data/store.json");
  EXPECT_EQ(view["kind"], "perfgate-store-view");
  EXPECT_EQ(view["record_count"], 3);
  EXPECT_EQ(view["store"], "memory:");
  ASSERT_EQ(view["cohorts"].size(), 2u);
  EXPECT_EQ(view["cohorts"][0]["records"]["timestamp"],
            Json::parse(R"(["2026-11-30T10:00:00Z","2026-12-01T11:00:00Z"])"));
  f.store->append(attempt_of("sort", "2026-12-02T10:00:00Z", 0.3));
  view = f.json("/data/store.json");
  EXPECT_EQ(view["record_count"], 4);
  EXPECT_EQ(view["cohorts"][0]["metrics"][0]["values"], Json::parse("[0.25,0.26,0.3]"));
}

TEST(DashboardApi, SaysInEveryStoreDocumentWhereCommitsLink) {
  Fixture plain;
  EXPECT_EQ(plain.json("/data/store.json")["commit_url"], nullptr);
  Fixture linked(std::nullopt, "https://git.example/repo/commit/{sha}");
  EXPECT_EQ(linked.json("/data/store.json")["commit_url"], "https://git.example/repo/commit/{sha}");
  EXPECT_EQ(linked.json("/api/v1/cohorts")["commit_url"], "https://git.example/repo/commit/{sha}");
  EXPECT_EQ(linked.json("/api/v1/series",
                        {{"cohort", "scan/std/v1/recipe-scan/hw-1/sw-1"}})["commit_url"],
            "https://git.example/repo/commit/{sha}");
}

TEST(DashboardApi, LabelsOneCohortsSeriesAsTheCohortListDoes) {
  Fixture f;
  Attempt elsewhere = attempt_of("sort", "2026-12-02T10:00:00Z", 0.3);
  elsewhere.records[0].hardware_profile_id = "hw-2";
  assign_attempt_id(elsewhere);
  f.store->append(elsewhere);
  const Json cohorts = f.json("/api/v1/cohorts");
  std::map<std::string, std::string> labels;
  for (const Json& cohort : cohorts["cohorts"]) labels[cohort["id"]] = cohort["label"];
  EXPECT_EQ(labels, (std::map<std::string, std::string>{
                        {"scan/std/v1/recipe-scan/hw-1/sw-1", "scan/std"},
                        {"sort/std/v1/recipe-sort/hw-1/sw-1", "sort/std (hw-1)"},
                        {"sort/std/v1/recipe-sort/hw-2/sw-1", "sort/std (hw-2)"}}));
  const Json series = f.json("/api/v1/series", {{"cohort", "sort/std/v1/recipe-sort/hw-1/sw-1"}});
  ASSERT_EQ(series["cohorts"].size(), 1u);
  EXPECT_EQ(series["cohorts"][0]["label"], "sort/std (hw-1)");
  EXPECT_EQ(series["record_count"], 2);
}

TEST(DashboardApi, ListsCohortsAndOneCohortsSeries) {
  Fixture f;
  const Json cohorts = f.json("/api/v1/cohorts");
  ASSERT_EQ(cohorts["cohorts"].size(), 2u);
  const std::string id = cohorts["cohorts"][0]["id"];
  EXPECT_EQ(id, "sort/std/v1/recipe-sort/hw-1/sw-1");
  EXPECT_EQ(cohorts["cohorts"][0]["record_count"], 2);
  const Json series = f.json("/api/v1/series", {{"cohort", id}});
  ASSERT_EQ(series["cohorts"].size(), 1u);
  EXPECT_EQ(series["cohorts"][0]["id"], id);
  EXPECT_EQ(series["record_count"], 2);

  const DashboardResponse unknown = f.api->get("/api/v1/series", {{"cohort", "nope"}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.body, HasSubstr("no cohort 'nope'"));
  EXPECT_EQ(f.api->get("/api/v1/series", {}).status, 400);
}

TEST(DashboardApi, FiltersRecords) {
  Fixture f;
  Json records = f.json("/api/v1/records", {{"benchmark", "so*"}});
  EXPECT_EQ(records["records"].size(), 2u);
  EXPECT_EQ(records["records"][0]["timestamp"], "2026-12-01T11:00:00Z");  // newest first
  EXPECT_EQ(records["filter"]["benchmark"], "so*");
  records = f.json("/api/v1/records", {{"limit", "1"}});
  ASSERT_EQ(records["records"].size(), 1u);
  EXPECT_EQ(records["records"][0]["benchmark_id"], "sort");
  records = f.json("/api/v1/records", {{"cohort", "scan/std/v1/recipe-scan/hw-1/sw-1"}});
  ASSERT_EQ(records["records"].size(), 1u);
  EXPECT_EQ(records["records"][0]["benchmark_id"], "scan");
  records = f.json("/api/v1/records", {{"since", "2026-12-01"}});
  EXPECT_EQ(records["records"].size(), 2u);

  const DashboardResponse bad_limit = f.api->get("/api/v1/records", {{"limit", "ten"}});
  EXPECT_EQ(bad_limit.status, 400);
  EXPECT_THAT(bad_limit.body, HasSubstr("limit 'ten' is not a whole number"));
  EXPECT_EQ(f.api->get("/api/v1/records", {{"since", "yesterday-ish"}}).status, 400);
  const DashboardResponse no_day = f.api->get("/api/v1/records", {{"since", "2026-13-45"}});
  EXPECT_EQ(no_day.status, 400);
  EXPECT_THAT(no_day.body, HasSubstr("since: '2026-13-45' is not a day of the calendar"));
  // A NUL no longer cuts the message short: it is shown as \x00, and the reason follows.
  const DashboardResponse nul = f.api->get("/api/v1/records", {{"since", std::string(1, '\0')}});
  EXPECT_EQ(nul.status, 400);
  EXPECT_THAT(nul.body, HasSubstr("since: '\\\\x00' is not a time window. Use a duration"));
}

TEST(DashboardApi, ListsAttempts) {
  Fixture f;
  const Json attempts = f.json("/api/v1/attempts");
  ASSERT_EQ(attempts["attempts"].size(), 3u);
  EXPECT_EQ(attempts["attempts"][0]["created_at"], "2026-12-01T11:00:00Z");
  EXPECT_EQ(attempts["attempts"][0]["record_count"], 1);
  EXPECT_EQ(attempts["attempts"][0]["commit_sha"], "c0ffee");
  EXPECT_EQ(attempts["api_version"], 1);
}

TEST(DashboardApi, ServesTheViewerFilesAndNothingElse) {
  Fixture f;
  const DashboardResponse index = f.api->get("/", {});
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_FALSE(index.is_data);
  for (const ViewerAsset& asset : viewer_assets()) {
    EXPECT_EQ(f.api->get("/" + std::string(asset.path), {}).body, asset.content);
  }
  for (const char* path : {"/../../etc/passwd", "/etc/passwd", "/data/../index.html", "/viewer.js/",
                           "//viewer.js", "/api/v2/cohorts"}) {
    const DashboardResponse response = f.api->get(path, {});
    EXPECT_EQ(response.status, 404) << path;
    EXPECT_EQ(Json::parse(response.body)["status"], 404) << path;
  }
  EXPECT_EQ(f.json("/api/v1")["api_version"], 1);
  // What a site on disk has, and a served page asks for first: absent, as a script.
  const DashboardResponse script = f.api->get("/data/store.js", {});
  EXPECT_EQ(script.status, 404);
  EXPECT_EQ(script.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(script.body,
            "// data/store.js is only in sites written to disk; a served page fetches the .json\n");
}

TEST(DashboardApi, ServesTheHistoryFileAsItIsNow) {
  TempDir dir;
  const auto file = dir.write("history.json", R"({"kind":"perfgate-history","schema_version":1})");
  Fixture f(file);
  EXPECT_EQ(f.json("/data/history.json")["schema_version"], 1);
  dir.write("history.json", R"({"kind":"perfgate-history","schema_version":1,"series":[]})");
  EXPECT_EQ(f.json("/api/v1/history")["series"], Json::array());
  dir.write("history.json", "{");
  const DashboardResponse broken = f.api->get("/data/history.json", {});
  EXPECT_EQ(broken.status, 500);
  EXPECT_THAT(broken.body, HasSubstr("is not valid JSON"));

  Fixture without;
  const DashboardResponse none = without.api->get("/data/history.json", {});
  EXPECT_EQ(none.status, 404);
  EXPECT_THAT(none.body, HasSubstr("--history"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
