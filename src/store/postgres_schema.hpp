#pragma once
// The PostgreSQL store's tables, all in the schema "perfgate", and their forward
// migrations: each open checks the stored version, and a migration runs in one transaction
// under an advisory lock, so two runners opening an old store at once migrate it once.
#include "store/postgres_connection.hpp"

namespace perfgate {

inline constexpr int kPostgresStoreSchemaVersion = 1;

/// Whether the database holds a perfgate store (the perfgate.meta table).
bool postgres_store_present(PgConnection& db);

/// Brings the store to kPostgresStoreSchemaVersion, creating it in an empty database.
/// Error(kIoError) for a store written by a newer perfgate (nothing is changed).
void migrate_postgres_store(PgConnection& db);

}  // namespace perfgate
