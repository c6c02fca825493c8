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

/// The URL as libpq reads it (every key and value percent-decoded), written back in one
/// canonical form with every secret (user:PASSWORD@, password=, sslpassword=, in any
/// encoding or case) as "***": the only form of it that messages, logs, pages and records
/// may show. A URL that cannot be read safely shows as "postgresql://(not shown)".
std::string redact_postgres_url(std::string_view url);

/// Error(kUsage) when the URL carries a secret (a password after the user name, or a
/// password or sslpassword parameter, however encoded), naming the standard places for
/// one; and when it cannot be read safely (a bad '%' escape, an '@' after the host, a
/// parameter without '='), without showing it.
void refuse_password_in_url(std::string_view url);

}  // namespace perfgate
