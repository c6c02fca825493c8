#pragma once
// PostgreSQL store URLs (SPEC §12): libpq's own URI form, postgresql://[user@][host][:port]
// [/dbname][?param=value&…] (postgres:// too). Credentials come only from libpq's standard
// sources (PGPASSFILE or ~/.pgpass, PGPASSWORD, a service file), never from the URL, so a
// password cannot reach a shell history, a process list, a log or a record.
#include <string>
#include <string_view>

namespace perfgate {

/// Whether the URL names a PostgreSQL store (postgresql:// or postgres://).
bool is_postgres_url(std::string_view url);

/// The URL with any password (user:PASSWORD@ or password=…) replaced by "***": the only
/// form of it that messages, logs and records may show.
std::string redact_postgres_url(std::string_view url);

/// Error(kUsage) when the URL carries a password, naming the standard places for one.
void refuse_password_in_url(std::string_view url);

}  // namespace perfgate
