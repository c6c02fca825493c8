#include "store/dir_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "store/store_fixtures.hpp"
#include "store/stored_rows.hpp"
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

/// The damage this process noted in the store at `url`.
std::vector<DamagedRecord> damage_in(const std::string& url) {
  std::vector<DamagedRecord> found;
  for (const auto& record : damaged_records_seen()) {
    if (record.store == url) found.push_back(record);
  }
  return found;
}

/// Rewrites the stored file of attempt `a` in the store at `root` with `json`.
void rewrite_attempt_file(const TempDir& dir, const std::filesystem::path& root, const Attempt& a,
                          const std::string& json) {
  const auto file = root / "attempts" / (a.attempt_id + ".json");
  std::filesystem::remove(file);
  dir.write(file.lexically_relative(dir.path()), json);
}

// Issue 33, 7: damage keeps the damaged attempt out, names it, and leaves every other
// attempt readable; a copy (read_attempt) refuses it.
TEST(DirStore, LeavesOutAnAttemptWhoseHeaderWasEditedByHandAndReadsTheRest) {
  TempDir dir;
  const auto root = dir / "store";
  const std::string url = "dir:" + root.string();
  const Attempt a =
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")});
  const Attempt b =
      test_attempt("2026-01-02T00:00:00Z", {test_record("b", "2026-01-02T00:00:01Z")});
  open_store(url)->append(a);
  open_store(url)->append(b);
  Json edited = to_json(a);
  edited["commit_sha"] = "rewritten";
  rewrite_attempt_file(dir, root, a, edited.dump());

  const auto store = open_store(url);
  const auto records = store->list_records({});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].record.benchmark_id, "b");
  const auto damage = damage_in(url);
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_EQ(damage[0].record_id, a.records[0].record_id);
  EXPECT_EQ(damage[0].attempt_id, a.attempt_id);
  EXPECT_THAT(damage[0].why, HasSubstr("its header or record list no longer matches its id"));
  EXPECT_EQ(store->list_attempts().size(), 2u);
  try {
    store->read_attempt(a.attempt_id);
    ADD_FAILURE() << "read_attempt gave a damaged attempt";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_THAT(e.what(), HasSubstr("attempt " + a.attempt_id + " is damaged"));
  }
  EXPECT_EQ(store->read_attempt(b.attempt_id)->records.size(), 1u);
}

TEST(DirStore, LeavesOutOneEditedRecordAndKeepsTheOtherRecordsOfItsAttempt) {
  TempDir dir;
  const auto root = dir / "store";
  const std::string url = "dir:" + root.string();
  const Attempt a = test_attempt(
      "2026-01-01T00:00:00Z",
      {test_record("a", "2026-01-01T00:00:01Z"), test_record("b", "2026-01-01T00:00:02Z")});
  open_store(url)->append(a);
  Json edited = to_json(a);
  edited["records"][0]["metrics"]["latency"]["value"] = 2.0;  // one digit
  rewrite_attempt_file(dir, root, a, edited.dump());

  const auto records = open_store(url)->list_records({});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].record.benchmark_id, "b");
  const auto damage = damage_in(url);
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_EQ(damage[0].record_id, a.records[0].record_id);
  EXPECT_EQ(damage[0].why, "");
}

TEST(DirStore, NamesAnAttemptFileThatIsNotJsonAndReadsTheRest) {
  TempDir dir;
  const auto root = dir / "store";
  const std::string url = "dir:" + root.string();
  const Attempt b =
      test_attempt("2026-01-02T00:00:00Z", {test_record("b", "2026-01-02T00:00:01Z")});
  open_store(url)->append(b);
  const auto file = dir.write("store/attempts/" + std::string(64, 'a') + ".json", "{");
  const auto store = open_store(url);
  EXPECT_EQ(store->list_records({}).size(), 1u);
  const auto damage = damage_in(url);
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_EQ(damage[0].record_id, "");
  EXPECT_EQ(damage[0].attempt_id, std::string(64, 'a'));
  EXPECT_THAT(damage[0].why, HasSubstr(file.string() + ": it does not read as an attempt"));
  EXPECT_THROW(store->read_attempt(std::string(64, 'a')), Error);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
