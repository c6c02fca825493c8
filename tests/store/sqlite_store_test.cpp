#include "store/sqlite_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "model/error.hpp"
#include "store/sqlite_connection.hpp"
#include "store/sqlite_schema.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

std::string single_text(SqliteConnection& db, const std::string& sql) {
  SqliteStatement query = db.prepare(sql);
  EXPECT_TRUE(query.step()) << sql;
  return query.text(0);
}

Error open_error(const std::string& url) {
  try {
    open_store(url);
  } catch (const Error& e) {
    return e;
  }
  return Error(ExitCode::kOk, "no error");
}

TEST(SqliteStore, CreatesTheDatabaseAndItsFolderInWalMode) {
  TempDir dir;
  const auto file = dir / "nested" / "deeper" / "perfgate.db";
  open_store("sqlite:" + file.string());
  ASSERT_TRUE(std::filesystem::exists(file));
  SqliteConnection db(file.string());
  EXPECT_EQ(single_text(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(single_text(db, "SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
}

// Eight processes creating one store at once (StoreConcurrency) raced here once, in a
// fresh-clone make test: one switching the new file to WAL held its write lock, and SQLite
// told another one switching it too "database is locked" at once, busy timeout or not.
TEST(SqliteStore, OpensAStoreWhoseWriteLockAnotherConnectionHoldsOnceItIsFree) {
  TempDir dir;
  const auto file = dir / "perfgate.db";
  SqliteConnection creating(file.string());  // a new, empty file
  creating.exec("BEGIN IMMEDIATE");
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    creating.exec("COMMIT");
  });
  std::string opened = "opened";
  try {
    open_store("sqlite:" + file.string());
  } catch (const Error& e) {
    opened = e.what();
  }
  release.join();
  EXPECT_EQ(opened, "opened");
  SqliteConnection db(file.string());
  EXPECT_EQ(single_text(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(single_text(db, "SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
}

TEST(SqliteStore, PassesSqlitesIntegrityCheckAfterWrites) {
  TempDir dir;
  const auto file = dir / "perfgate.db";
  {
    auto store = open_store("sqlite:" + file.string());
    const Attempt a = test_attempt(
        "2026-01-01T00:00:00Z",
        {test_record("a", "2026-01-01T00:00:01Z"), test_record("b", "2026-01-01T00:00:02Z")});
    store->append(a);
    store->approve({a.records[0].record_id}, "m", store->revision());
  }
  SqliteConnection db(file.string());
  EXPECT_EQ(single_text(db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(single_text(db, "SELECT count(*) FROM records"), "2");
  EXPECT_EQ(single_text(db, "SELECT count(*) FROM approvals"), "1");
}

TEST(SqliteStore, RefusesADatabaseWrittenByANewerPerfgate) {
  TempDir dir;
  const auto file = dir / "perfgate.db";
  open_store("sqlite:" + file.string());
  {
    SqliteConnection db(file.string());
    db.exec("UPDATE meta SET value = 99 WHERE key = 'store_schema_version'");
  }
  const Error e = open_error("sqlite:" + file.string());
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_EQ(std::string(e.what()),
            file.string() +
                ": store schema version 99 was written by a newer perfgate (this one knows up to "
                "2). Upgrade perfgate");
}

TEST(SqliteStore, RefusesAFileThatIsNotADatabase) {
  TempDir dir;
  const auto file = dir.write("notes.txt", std::string(4096, 'x'));
  const Error e = open_error("sqlite:" + file.string());
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_THAT(e.what(), HasSubstr(file.string() + ": is not a perfgate store ("));
}

TEST(SqliteStore, RefusesADatabaseOfAnotherProgram) {
  TempDir dir;
  const auto file = dir / "other.db";
  {
    SqliteConnection db(file.string());
    db.exec("CREATE TABLE customers (id INTEGER)");
  }
  const Error e = open_error("sqlite:" + file.string());
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_EQ(std::string(e.what()),
            file.string() +
                ": is not a perfgate store (it holds tables but no meta table). Point the store "
                "URL at a perfgate store or at a path that does not exist yet");
}

TEST(SqliteStore, LaysOutAnEmptyDatabaseFileOnce) {
  TempDir dir;
  const auto file = dir.write("perfgate.db", "");
  open_store("sqlite:" + file.string());
  open_store("sqlite:" + file.string());
  SqliteConnection db(file.string());
  EXPECT_EQ(single_text(db, "SELECT group_concat(key || '=' || value, ',') FROM meta"),
            "store_schema_version=2,revision=0");
}

TEST(SqliteStore, MigratesAVersion1StoreAndFindsItsMeasurementsByRawDigest) {
  TempDir dir;
  const std::string url = "sqlite:" + (dir / "perfgate.db").string();
  NormalizedRecord record = test_record("a", "2026-01-01T00:00:01Z");
  record.raw_record_sha256 = std::string(64, 'a');
  open_store(url)->append(test_attempt("2026-01-01T00:00:00Z", {record}));
  {
    // Turn the file back into what perfgate wrote before schema version 2.
    SqliteConnection db((dir / "perfgate.db").string());
    db.exec("DROP INDEX records_by_raw_record");
    db.exec("ALTER TABLE records DROP COLUMN raw_record_sha256");
    db.exec("UPDATE meta SET value = 1 WHERE key = 'store_schema_version'");
  }
  const auto store = open_store(url);
  EXPECT_THAT(store->already_stored({std::string(64, 'a'), std::string(64, 'b')}),
              ::testing::ElementsAre(std::string(64, 'a')));
  SqliteConnection db((dir / "perfgate.db").string());
  EXPECT_EQ(single_text(db, "SELECT value FROM meta WHERE key = 'store_schema_version'"), "2");
  EXPECT_EQ(single_text(db, "SELECT raw_record_sha256 FROM records"), std::string(64, 'a'));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
