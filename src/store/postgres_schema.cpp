#include "store/postgres_schema.hpp"

#include <string>

#include "model/error.hpp"

namespace perfgate {
namespace {

// Any fixed number names the lock; this one is "perfgate" in ASCII.
constexpr const char* kMigrationLockSql = "SELECT pg_advisory_xact_lock(8101238757693617509)";

struct PgMigrationStep {
  int to_version;
  const char* sql;
};

// Steps are never edited once released: a change to the schema is a new step at the end.
// Text compares byte by byte (COLLATE "C") wherever order matters, as SQLite's does.
constexpr PgMigrationStep kPgMigrationSteps[] = {
    {1, R"sql(
CREATE SCHEMA IF NOT EXISTS perfgate;
CREATE TABLE perfgate.meta (
  key TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
INSERT INTO perfgate.meta (key, value) VALUES ('store_schema_version', 0), ('revision', 0);
CREATE TABLE perfgate.attempts (
  seq BIGSERIAL NOT NULL UNIQUE,
  attempt_id TEXT PRIMARY KEY,
  created_at TEXT COLLATE "C" NOT NULL,
  commit_sha TEXT NOT NULL,
  run_source TEXT NOT NULL,
  success BOOLEAN NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE perfgate.records (
  seq BIGSERIAL PRIMARY KEY,
  record_id TEXT NOT NULL UNIQUE,
  attempt_id TEXT NOT NULL REFERENCES perfgate.attempts (attempt_id),
  benchmark_id TEXT COLLATE "C" NOT NULL,
  timestamp TEXT COLLATE "C" NOT NULL,
  instant_us BIGINT,
  workload_id TEXT COLLATE "C",
  variant_id TEXT COLLATE "C",
  benchmark_version BIGINT,
  recipe_fingerprint TEXT COLLATE "C" NOT NULL,
  hardware_profile_id TEXT COLLATE "C" NOT NULL,
  software_profile_id TEXT COLLATE "C" NOT NULL,
  run_source TEXT NOT NULL,
  success BOOLEAN NOT NULL,
  baseline_eligible BOOLEAN NOT NULL,
  raw_record_sha256 TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX records_by_cohort ON perfgate.records (workload_id, variant_id, benchmark_version,
  recipe_fingerprint, hardware_profile_id, software_profile_id, instant_us);
CREATE INDEX records_by_benchmark ON perfgate.records (benchmark_id);
CREATE INDEX records_by_attempt ON perfgate.records (attempt_id);
CREATE INDEX records_by_raw_record ON perfgate.records (raw_record_sha256);
CREATE TABLE perfgate.approvals (
  approval_id TEXT NOT NULL,
  record_id TEXT NOT NULL REFERENCES perfgate.records (record_id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (approval_id, record_id)
);
CREATE INDEX approvals_by_record ON perfgate.approvals (record_id);
CREATE TABLE perfgate.work_items (
  item_id BIGSERIAL PRIMARY KEY,
  commit_sha TEXT NOT NULL,
  environment TEXT NOT NULL,
  suite TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done', 'failed')),
  lease_owner TEXT,
  lease_expires_at TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  enqueued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ,
  UNIQUE (commit_sha, environment, suite)
);
CREATE INDEX work_items_claimable ON perfgate.work_items (state, item_id);
CREATE TABLE perfgate.work_attempts (
  item_id BIGINT NOT NULL REFERENCES perfgate.work_items (item_id),
  commit_sha TEXT NOT NULL,
  environment TEXT NOT NULL,
  run TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  worker TEXT NOT NULL,
  success BOOLEAN NOT NULL,
  document TEXT NOT NULL,
  stored_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (commit_sha, environment, run, attempt)
);
CREATE UNIQUE INDEX work_attempts_one_success ON perfgate.work_attempts (item_id) WHERE success;
)sql"},
};

constexpr int latest_pg_step_version() {
  int latest = 0;
  for (const auto& step : kPgMigrationSteps) latest = step.to_version;
  return latest;
}
static_assert(latest_pg_step_version() == kPostgresStoreSchemaVersion,
              "every schema version needs its migration step");

int stored_schema_version(PgConnection& db) {
  if (!postgres_store_present(db)) return 0;
  const PgResult version =
      db.run("SELECT value FROM perfgate.meta WHERE key = 'store_schema_version'");
  if (version.rows() != 1) {
    throw Error(ExitCode::kIoError,
                db.label() +
                    ": is not a perfgate store (its perfgate.meta table has no "
                    "store_schema_version). Point the store URL at another database");
  }
  return static_cast<int>(version.integer(0, 0));
}

void refuse_newer(PgConnection& db, int version) {
  if (version > kPostgresStoreSchemaVersion) {
    throw Error(ExitCode::kIoError,
                db.label() + ": store schema version " + std::to_string(version) +
                    " was written by a newer perfgate (this one knows up to " +
                    std::to_string(kPostgresStoreSchemaVersion) + "). Upgrade perfgate");
  }
}

}  // namespace

bool postgres_store_present(PgConnection& db) {
  // The catalog read as a table, under the statement's own snapshot: to_regclass() answers
  // from a cache that a transaction which waited on the advisory lock has not refreshed,
  // and would miss the store that the runner it waited for just created.
  return db
      .run(
          "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = "
          "'perfgate' AND tablename = 'meta')")
      .boolean(0, 0);
}

void migrate_postgres_store(PgConnection& db) {
  // Most opens find the current version: check it without the lock.
  {
    const int version = stored_schema_version(db);
    refuse_newer(db, version);
    if (version == kPostgresStoreSchemaVersion) return;
  }
  PgTransaction transaction(db);
  db.exec(kMigrationLockSql);
  // Another runner may have migrated while we waited for the lock: read it again.
  const int version = stored_schema_version(db);
  refuse_newer(db, version);
  for (const auto& step : kPgMigrationSteps) {
    if (step.to_version <= version) continue;
    db.exec(step.sql);
    db.run("UPDATE perfgate.meta SET value = $1 WHERE key = 'store_schema_version'",
           {std::to_string(step.to_version)});
  }
  transaction.commit();
}

}  // namespace perfgate
