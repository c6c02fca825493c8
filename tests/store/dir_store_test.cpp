#include "store/dir_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

Error open_error(const std::string& url) {
  try {
    open_store(url);
  } catch (const Error& e) {
    return e;
  }
  return Error(ExitCode::kOk, "no error");
}

TEST(DirStore, LaysOutAMarkerAndOneFolderPerKindOfFile) {
  TempDir dir;
  const auto root = dir / "store";
  open_store("dir:" + root.string());
  EXPECT_EQ(Json::parse(read_text_file(root / "store.json")),
            Json({{"kind", "perfgate-dir-store"}, {"store_schema_version", 1}}));
  EXPECT_TRUE(std::filesystem::is_directory(root / "attempts"));
  EXPECT_TRUE(std::filesystem::is_directory(root / "approvals"));
  EXPECT_EQ(read_text_file(root / ".gitignore"), "store.lock\n.tmp-*\n");
}

TEST(DirStore, WritesEachAttemptAndApprovalAsItsOwnPrettyFile) {
  TempDir dir;
  const auto root = dir / "store";
  auto store = open_store("dir:" + root.string());
  const Attempt a =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  store->append(a);
  store->approve({a.records[0].record_id}, "manifest-1", store->revision());

  const std::string attempt_text = read_text_file(root / "attempts" / (a.attempt_id + ".json"));
  EXPECT_EQ(attempt_text, to_json(a).dump(2) + "\n");
  const Json approval = Json::parse(read_text_file(root / "approvals" / "manifest-1.json"));
  EXPECT_EQ(approval["approval_id"], "manifest-1");
  EXPECT_EQ(approval["record_ids"], Json::array({a.records[0].record_id}));
  EXPECT_EQ(approval["created_at"].get<std::string>().size(), 20u);
}

TEST(DirStore, DerivesItsRevisionFromTheSortedFileNames) {
  TempDir dir;
  const auto root = dir / "store";
  auto store = open_store("dir:" + root.string());
  const Attempt a =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  store->append(a);
  EXPECT_EQ(store->revision(), sha256_hex("attempts/" + a.attempt_id + ".json\n"));
}

TEST(DirStore, IgnoresTemporaryFilesLeftByACrashedWriter) {
  TempDir dir;
  const auto root = dir / "store";
  auto store = open_store("dir:" + root.string());
  const std::string revision = store->revision();
  dir.write("store/attempts/.tmp-123-abc-deadbeef.json", "{\"half\": ");
  auto reopened = open_store("dir:" + root.string());
  EXPECT_TRUE(reopened->list_attempts().empty());
  EXPECT_EQ(reopened->revision(), revision);
}

TEST(DirStore, RecreatesFoldersThatGitDidNotKeep) {
  TempDir dir;
  const auto root = dir / "store";
  open_store("dir:" + root.string());
  std::filesystem::remove(root / "approvals");
  auto store = open_store("dir:" + root.string());
  EXPECT_TRUE(std::filesystem::is_directory(root / "approvals"));
  EXPECT_TRUE(store->list_attempts().empty());
}

TEST(DirStore, RefusesAFolderThatHoldsOtherFiles) {
  TempDir dir;
  dir.write("project/README.md", "hello");
  const Error e = open_error("dir:" + (dir / "project").string());
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_EQ(std::string(e.what()),
            (dir / "project").string() +
                ": is not a perfgate directory store (it holds README.md but no store.json). Point "
                "dir: at a store, an empty folder or a path that does not exist yet");
}

TEST(DirStore, RefusesAFile) {
  TempDir dir;
  const auto file = dir.write("store", "x");
  const Error e = open_error("dir:" + file.string());
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_THAT(e.what(), HasSubstr("(it is a file, not a folder)"));
}

TEST(DirStore, RefusesAStoreWrittenByANewerPerfgate) {
  TempDir dir;
  dir.write("store/store.json", R"({"kind": "perfgate-dir-store", "store_schema_version": 2})");
  const Error e = open_error("dir:" + (dir / "store").string());
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_EQ(std::string(e.what()), (dir / "store").string() +
                                       ": store schema version 2 was written by a newer perfgate "
                                       "(this one knows up to 1). Upgrade perfgate");
}

TEST(DirStore, NamesAnAttemptFileThatWasEditedByHand) {
  TempDir dir;
  const auto root = dir / "store";
  const Attempt a =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  open_store("dir:" + root.string())->append(a);
  const auto file = root / "attempts" / (a.attempt_id + ".json");
  Json edited = to_json(a);
  edited["commit_sha"] = "rewritten";
  std::filesystem::remove(file);
  dir.write(file.lexically_relative(dir.path()), edited.dump());
  const Error e = open_error("dir:" + root.string());
  EXPECT_EQ(e.code(), ExitCode::kDataError);
  EXPECT_THAT(e.what(), HasSubstr(file.string() + ": attempt " + a.attempt_id +
                                  ": attempt_id does not match its content"));
}

TEST(DirStore, NamesAnAttemptFileThatIsNotJson) {
  TempDir dir;
  const auto root = dir / "store";
  open_store("dir:" + root.string());
  const auto file = dir.write("store/attempts/" + std::string(64, 'a') + ".json", "{");
  const Error e = open_error("dir:" + root.string());
  EXPECT_EQ(e.code(), ExitCode::kDataError);
  EXPECT_EQ(std::string(e.what()), file.string() +
                                       ": is not valid JSON. Stored files are never edited; "
                                       "restore it from the store's history (e.g. git)");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
