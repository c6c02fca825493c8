#pragma once
// The SQLite store's tables and their versions. A database records its schema version in
// `meta`; opening one runs every newer migration step, in order, in one transaction.
#include "store/sqlite_connection.hpp"

namespace perfgate {

/// The schema this perfgate writes.
inline constexpr int kSqliteStoreSchemaVersion = 2;

/// Brings the database to kSqliteStoreSchemaVersion: creates the tables in an empty
/// database, migrates an older one forward. Error(kIoError) for a database written by a
/// newer perfgate, or one that holds other tables and is not a perfgate store.
void migrate_sqlite_store(SqliteConnection& db);

}  // namespace perfgate
