#include "report/html_site.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "model/error.hpp"
#include "report/viewer_assets.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kHistory = R"({"kind":"perfgate-history","schema_version":1,"series":[]})";

/// Every entry of `dir`, relative, sorted: what a run left behind.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    names.push_back(fs::relative(entry.path(), dir).string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

ExitCode code_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.code();
  }
  return ExitCode::kOk;
}

TEST(HtmlSite, EmbedsEveryViewerFile) {
  std::vector<std::string> paths;
  for (const ViewerAsset& asset : viewer_assets()) {
    paths.emplace_back(asset.path);
    EXPECT_FALSE(asset.content.empty()) << asset.path;
  }
  EXPECT_TRUE(std::is_sorted(paths.begin(), paths.end()));
  EXPECT_EQ(paths, (std::vector<std::string>{"boot.js", "bundle.js", "index.html", "viewer.css"}));
  // bundle.js: the scripts bundle.txt lists, in its order, byte for byte; index.html loads it.
  const fs::path viewer = fs::path(PERFGATE_SOURCE_DIR) / "web/viewer";
  std::istringstream listed(read_text_file(viewer / "bundle.txt"));
  std::string bundle;
  std::size_t scripts = 0;
  for (std::string name; std::getline(listed, name);) {
    if (name.empty() || name[0] == '#') continue;
    bundle += read_text_file(viewer / name);
    ++scripts;
  }
  EXPECT_GE(scripts, 20U);
  for (const ViewerAsset& asset : viewer_assets()) {
    if (asset.path == "bundle.js") {
      EXPECT_EQ(asset.content, bundle);
    }
    if (asset.path == "index.html") {
      EXPECT_THAT(std::string(asset.content), HasSubstr("<script src=\"bundle.js\"></script>"));
    }
  }
  for (const ViewerAsset& asset : viewer_assets()) {
    if (asset.path == "index.html") {
      EXPECT_EQ(asset.content_type, "text/html; charset=utf-8");
      EXPECT_THAT(std::string(asset.content), HasSubstr("Content-Security-Policy"));
    }
    if (asset.path == "viewer.css") {
      EXPECT_EQ(asset.content_type, "text/css; charset=utf-8");
    }
    if (asset.path == "viewer.js") {
      EXPECT_EQ(asset.content_type, "text/javascript; charset=utf-8");
    }
  }
}

TEST(HtmlSite, WritesTheViewerAndItsDataAsScripts) {
  TempDir dir;
  write_html_site(dir / "site/", {"{\"cohorts\":[]}\n", kHistory + "\n"}, false);
  const fs::path site = dir / "site";
  for (const ViewerAsset& asset : viewer_assets()) {
    EXPECT_EQ(read_text_file(site / asset.path), asset.content) << asset.path;
  }
  EXPECT_EQ(read_text_file(site / "data/store.js"),
            "window.PERFGATE_STORE = '{\"cohorts\":[]}';\n");
  EXPECT_EQ(read_text_file(site / "data/history.js"),
            "window.PERFGATE_HISTORY = '" + kHistory + "';\n");
  // Nothing but the site: the staging folder is gone.
  EXPECT_EQ(entries(dir.path()).size(), entries(site).size() + 2);  // .git/ and site/
}

TEST(HtmlSite, WritesEachCohortsDetailsAsAScriptOfItsOwn) {
  TempDir dir;
  HtmlSiteData data;
  data.store_view = "{\"cohorts\":[]}\n";
  data.cohort_details = {"{\"id\":\"a\"}\n", "{\"id\":\"it's\"}\n"};
  write_html_site(dir / "site", data, false);
  EXPECT_EQ(read_text_file(dir / "site/data/cohorts/1.js"),
            "window.PERFGATE_COHORT_1 = '{\"id\":\"a\"}';\n");
  EXPECT_EQ(read_text_file(dir / "site/data/cohorts/2.js"),
            "window.PERFGATE_COHORT_2 = '{\"id\":\"it\\'s\"}';\n");
  EXPECT_EQ(entries(dir / "site/data/cohorts").size(), 2u);
  // Without details apart, no such folder.
  write_html_site(dir / "whole", {"{\"cohorts\":[]}\n", std::nullopt}, false);
  EXPECT_FALSE(fs::exists(dir / "whole/data/cohorts"));
}

TEST(HtmlSite, LeavesOutTheDataItHasNot) {
  TempDir dir;
  write_html_site(dir / "site", {std::nullopt, kHistory}, false);
  EXPECT_FALSE(fs::exists(dir / "site/data/store.js"));
  EXPECT_TRUE(fs::exists(dir / "site/data/history.js"));
}

TEST(HtmlSite, ReplacesOnlyASiteItWroteAndOnlyWithForce) {
  TempDir dir;
  dir.write("site/notes.txt", "mine\n");
  for (const bool force : {false, true}) {
    EXPECT_EQ(code_of([&] {
                write_html_site(dir / "site", {"{}", std::nullopt}, force);
              }),
              ExitCode::kUsage);
  }
  EXPECT_EQ(read_text_file(dir / "site/notes.txt"), "mine\n");

  write_html_site(dir / "other", {"{}", std::nullopt}, false);
  EXPECT_TRUE(fs::exists(dir / "other" / kSiteMarker));
  dir.write("other/notes.txt", "added\n");
  EXPECT_EQ(code_of([&] {
              write_html_site(dir / "other", {"{}", std::nullopt}, false);
            }),
            ExitCode::kUsage);
  write_html_site(dir / "other", {"{}", std::nullopt}, true);
  EXPECT_FALSE(fs::exists(dir / "other/notes.txt"));
  EXPECT_TRUE(fs::exists(dir / "other/index.html"));
  EXPECT_TRUE(fs::exists(dir / "other" / kSiteMarker));
  for (const auto& name : entries(dir.path())) {
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name;
    EXPECT_EQ(name.find(".old-"), std::string::npos) << name;
  }
}

TEST(HtmlSite, RefusesAFolderThatHoldsAnInputOrTheCurrentFolder) {
  TempDir dir;
  write_html_site(dir / "site", {"{}", std::nullopt}, false);
  dir.write("site/perfgate.db", "a store");
  EXPECT_EQ(
      code_of([&] { check_html_site_target(dir / "site", true, {dir / "site/perfgate.db"}); }),
      ExitCode::kUsage);
  EXPECT_EQ(code_of([&] { check_html_site_target(dir / "site", true, {dir / "history.json"}); }),
            ExitCode::kOk);
  EXPECT_EQ(code_of([&] { check_html_site_target(fs::current_path(), true, {}); }),
            ExitCode::kUsage);
  EXPECT_EQ(code_of([&] { check_html_site_target(fs::current_path().parent_path(), true); }),
            ExitCode::kUsage);
}

TEST(HtmlSite, AcceptsAnEmptyFolder) {
  TempDir dir;
  fs::create_directories(dir / "site");
  write_html_site(dir / "site", {"{}", std::nullopt}, false);
  EXPECT_TRUE(fs::exists(dir / "site/index.html"));
}

TEST(HtmlSite, RefusesAMissingParentAndAFileWithoutLeavingAFolder) {
  TempDir dir;
  EXPECT_EQ(code_of([&] {
              write_html_site(dir / "no/site", {"{}", std::nullopt}, false);
            }),
            ExitCode::kNoInput);
  EXPECT_FALSE(fs::exists(dir / "no"));
  dir.write("file", "x");
  EXPECT_EQ(code_of([&] {
              write_html_site(dir / "file", {"{}", std::nullopt}, true);
            }),
            ExitCode::kUsage);
  EXPECT_EQ(read_text_file(dir / "file"), "x");
}

TEST(HtmlSite, ChecksAHistoryDocument) {
  EXPECT_EQ(code_of([] { check_history_document(kHistory, "h.json"); }), ExitCode::kOk);
  const auto message = [](const std::string& text) {
    try {
      check_history_document(text, "h.json");
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kDataError);
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(message("{"), HasSubstr("h.json: is not valid JSON"));
  EXPECT_THAT(message(R"({"kind":"perfgate-history-plan","schema_version":1})"),
              HasSubstr("h.json: is not a history.json"));
  EXPECT_THAT(message("[]"), HasSubstr("is not a history.json"));
  EXPECT_THAT(message(R"({"kind":"perfgate-history"})"), HasSubstr("schema_version is missing"));
  EXPECT_THAT(message(R"({"kind":"perfgate-history","schema_version":2})"),
              HasSubstr("schema_version 2 is newer than this perfgate reads (1)"));
}

TEST(HtmlSite, DataScriptHoldsTheJsonAsAQuotedString) {
  EXPECT_EQ(data_script("X", "[1]\n\n"), "window.X = '[1]';\n");
  // Quotes and backslashes of the text escaped; the line breaks of pretty JSON too.
  EXPECT_EQ(data_script("X", "{\n  \"it's\": \"a\\\"b\\\\c\"\r\n}\n"),
            "window.X = '{\\n  \"it\\'s\": \"a\\\\\"b\\\\\\\\c\"\\r\\n}';\n");
}

TEST(HtmlSite, DataScriptsCutALargeDocumentIntoParts) {
  // Up to the part size: one file, the same as data_script's.
  const auto one = data_scripts("store", "X", "[1,2]\n", 5);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].name, "store.js");
  EXPECT_EQ(one[0].text, "window.X = '[1,2]';\n");
  // Beyond it: the count in store.js, the parts in store.N.js, each quoted on its own (a
  // backslash escape of the JSON text may fall across two parts).
  const auto parts = data_scripts("store", "X", "[\"a'b\",\"c\\\\d\"]\n", 5);
  ASSERT_EQ(parts.size(), 4U);
  EXPECT_EQ(parts[0].name, "store.js");
  EXPECT_EQ(parts[0].text, "window.X_PARTS = 3;\n");
  EXPECT_EQ(parts[1].name, "store.1.js");
  EXPECT_EQ(parts[1].text, "window.X_1 = '[\"a\\'b';\n");
  EXPECT_EQ(parts[2].name, "store.2.js");
  EXPECT_EQ(parts[2].text, "window.X_2 = '\",\"c\\\\';\n");
  EXPECT_EQ(parts[3].name, "store.3.js");
  EXPECT_EQ(parts[3].text, "window.X_3 = '\\\\d\"]';\n");
  // Never inside a UTF-8 sequence: "é" (2 bytes) and "€" (3 bytes) stay whole.
  const auto utf8 = data_scripts("history", "H", "[\"\xC3\xA9\xE2\x82\xAC\"]", 3);
  ASSERT_EQ(utf8.size(), 5U);
  EXPECT_EQ(utf8[0].text, "window.H_PARTS = 4;\n");
  EXPECT_EQ(utf8[1].text, "window.H_1 = '[\"';\n");
  EXPECT_EQ(utf8[2].text, "window.H_2 = '\xC3\xA9';\n");
  EXPECT_EQ(utf8[3].text, "window.H_3 = '\xE2\x82\xAC';\n");
  EXPECT_EQ(utf8[4].text, "window.H_4 = '\"]';\n");
}

// A store view beyond the part size is written as parts, and nothing else changes.
TEST(HtmlSite, WritesALargeDocumentInParts) {
  TempDir dir;
  const std::string big = "[\"" + std::string(kDataPartBytes * 2, 'a') + "\"]";
  write_html_site(dir / "site", {big + "\n", kHistory}, false);
  const fs::path data = dir / "site/data";
  EXPECT_EQ(read_text_file(data / "store.js"), "window.PERFGATE_STORE_PARTS = 3;\n");
  EXPECT_THAT(read_text_file(data / "store.1.js"), StartsWith("window.PERFGATE_STORE_1 = '[\"aaa"));
  EXPECT_EQ(read_text_file(data / "store.3.js"), "window.PERFGATE_STORE_3 = 'aa\"]';\n");
  EXPECT_FALSE(fs::exists(data / "store.4.js"));
  EXPECT_EQ(read_text_file(data / "history.js"), "window.PERFGATE_HISTORY = '" + kHistory + "';\n");
  EXPECT_FALSE(fs::exists(data / "history.1.js"));
}

// The README's flow: history export -o site/history.json, then report --history
// site/history.json -o site/. The site is written around the export and keeps it.
TEST(HtmlSite, KeepsTheHistoryExportItIsWrittenAround) {
  TempDir dir;
  dir.write("site/history.json", kHistory);
  const std::vector<fs::path> kept = {dir / "site/history.json"};
  write_html_site(dir / "site", {std::nullopt, kHistory}, false, {}, kept);
  EXPECT_EQ(read_text_file(dir / "site/history.json"), kHistory);
  EXPECT_TRUE(fs::exists(dir / "site/index.html"));
  EXPECT_TRUE(fs::exists(dir / "site" / kSiteMarker));
  // Again: the site is perfgate's now, replaced with --force, the export still kept.
  EXPECT_EQ(code_of([&] {
              write_html_site(dir / "site", {std::nullopt, kHistory}, false, {}, kept);
            }),
            ExitCode::kUsage);
  write_html_site(dir / "site", {std::nullopt, kHistory}, true, {}, kept);
  EXPECT_EQ(read_text_file(dir / "site/history.json"), kHistory);
  // Anything else in a folder that is not a site still stops it, and so does an export
  // where the site writes a file of its own.
  dir.write("other/history.json", kHistory);
  dir.write("other/notes.txt", "mine");
  EXPECT_EQ(code_of([&] {
              check_html_site_target(dir / "other", true, {}, {dir / "other/history.json"});
            }),
            ExitCode::kUsage);
  dir.write("third/index.html", kHistory);
  EXPECT_EQ(
      code_of([&] { check_html_site_target(dir / "third", true, {}, {dir / "third/index.html"}); }),
      ExitCode::kUsage);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
