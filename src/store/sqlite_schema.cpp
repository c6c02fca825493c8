#include "store/sqlite_schema.hpp"

#include <string>

#include "model/error.hpp"

namespace perfgate {
namespace {

// One step from version `to_version - 1` to `to_version`. Steps are never edited once
// released: a change to the schema is a new step at the end.
struct MigrationStep {
  int to_version;
  const char* sql;
};

constexpr MigrationStep kMigrationSteps[] = {
    {1, R"sql(
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO meta (key, value) VALUES ('store_schema_version', 0), ('revision', 0);
CREATE TABLE attempts (
  attempt_id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  run_source TEXT NOT NULL,
  success INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  record_id TEXT NOT NULL UNIQUE,
  attempt_id TEXT NOT NULL REFERENCES attempts (attempt_id),
  benchmark_id TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  workload_id TEXT,
  variant_id TEXT,
  benchmark_version INTEGER,
  recipe_fingerprint TEXT NOT NULL,
  hardware_profile_id TEXT NOT NULL,
  software_profile_id TEXT NOT NULL,
  run_source TEXT NOT NULL,
  success INTEGER NOT NULL,
  baseline_eligible INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX records_by_cohort ON records (workload_id, variant_id, benchmark_version,
  recipe_fingerprint, hardware_profile_id, software_profile_id, timestamp);
CREATE INDEX records_by_benchmark ON records (benchmark_id, timestamp);
CREATE INDEX records_by_attempt ON records (attempt_id);
CREATE TABLE approvals (
  approval_id TEXT NOT NULL,
  record_id TEXT NOT NULL REFERENCES records (record_id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (approval_id, record_id)
);
CREATE INDEX approvals_by_record ON approvals (record_id);
)sql"},
    // The raw record a record was normalised from, as its own indexed column: a measurement
    // is stored once, whatever verdict it was given (compare --upload run twice).
    {2, R"sql(
ALTER TABLE records ADD COLUMN raw_record_sha256 TEXT NOT NULL DEFAULT '';
UPDATE records SET raw_record_sha256 = coalesce(json_extract(json, '$.raw_record_sha256'), '');
CREATE INDEX records_by_raw_record ON records (raw_record_sha256);
)sql"},
};

constexpr int latest_step_version() {
  int latest = 0;
  for (const auto& step : kMigrationSteps) latest = step.to_version;
  return latest;
}
static_assert(latest_step_version() == kSqliteStoreSchemaVersion,
              "every schema version needs its migration step");

Error not_a_store(const SqliteConnection& db, const std::string& why) {
  return Error(ExitCode::kIoError,
               db.file() + ": is not a perfgate store (" + why +
                   "). Point the store URL at a perfgate store or at a path that does not exist "
                   "yet");
}

// 0 for an empty database (no tables at all).
int stored_schema_version(SqliteConnection& db) {
  SqliteStatement has_meta =
      db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
  has_meta.step();
  if (has_meta.integer(0) == 0) {
    SqliteStatement objects = db.prepare("SELECT count(*) FROM sqlite_master");
    objects.step();
    if (objects.integer(0) != 0) throw not_a_store(db, "it holds tables but no meta table");
    return 0;
  }
  SqliteStatement version = db.prepare("SELECT value FROM meta WHERE key = 'store_schema_version'");
  if (!version.step()) throw not_a_store(db, "its meta table has no store_schema_version");
  return static_cast<int>(version.integer(0));
}

void refuse_newer(const SqliteConnection& db, int version) {
  if (version > kSqliteStoreSchemaVersion) {
    throw Error(ExitCode::kIoError,
                db.file() + ": store schema version " + std::to_string(version) +
                    " was written by a newer perfgate (this one knows up to " +
                    std::to_string(kSqliteStoreSchemaVersion) + "). Upgrade perfgate");
  }
}

}  // namespace

void migrate_sqlite_store(SqliteConnection& db) {
  {
    // Most opens find the current version: check it without taking the write lock.
    SqliteTransaction read(db, SqliteTransaction::Kind::kRead);
    const int version = stored_schema_version(db);
    refuse_newer(db, version);
    if (version == kSqliteStoreSchemaVersion) return;
  }
  SqliteTransaction write(db, SqliteTransaction::Kind::kWrite);
  // Another process may have migrated while we waited for the lock: read it again.
  const int version = stored_schema_version(db);
  refuse_newer(db, version);
  for (const auto& step : kMigrationSteps) {
    if (step.to_version <= version) continue;
    db.exec(step.sql);
    db.prepare("UPDATE meta SET value = ?1 WHERE key = 'store_schema_version'")
        .bind(1, static_cast<long long>(step.to_version))
        .run();
  }
  write.commit();
}

}  // namespace perfgate
