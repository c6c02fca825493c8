#include "store/sqlite_connection.hpp"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "model/error.hpp"

namespace perfgate {

void throw_sqlite_error(sqlite3* db, int code, const std::string& file, const std::string& what) {
  const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  std::string fix = "Check that the file is readable and writable and the disk has space";
  switch (code & 0xFF) {
    case SQLITE_NOTADB:
      throw Error(ExitCode::kIoError, file + ": is not a perfgate store (" + message +
                                          "). Point the store URL at a perfgate SQLite store "
                                          "or at a path that does not exist yet");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      fix =
          "Another process held the store's write lock for more than 30 s; retry when it "
          "is done";
      break;
    case SQLITE_FULL:
      fix = "Free disk space and retry";
      break;
    case SQLITE_CORRUPT:
      fix = "The database is damaged; restore it from a backup";
      break;
    default:
      break;
  }
  throw Error(ExitCode::kIoError, file + ": " + what + ": " + message + ". " + fix);
}

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& sql, const std::string& file)
    : db_(db), file_(file) {
  const int rc =
      sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &statement_, nullptr);
  if (rc != SQLITE_OK) throw_sqlite_error(db_, rc, file_, "cannot prepare a query");
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::bind(int index, const std::string& text) {
  const int rc = sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()),
                                   SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) throw_sqlite_error(db_, rc, file_, "cannot bind a query parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, long long value) {
  const int rc = sqlite3_bind_int64(statement_, index, value);
  if (rc != SQLITE_OK) throw_sqlite_error(db_, rc, file_, "cannot bind a query parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::optional<std::string>& text) {
  if (text) return bind(index, *text);
  const int rc = sqlite3_bind_null(statement_, index);
  if (rc != SQLITE_OK) throw_sqlite_error(db_, rc, file_, "cannot bind a query parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::optional<long long>& value) {
  if (value) return bind(index, *value);
  const int rc = sqlite3_bind_null(statement_, index);
  if (rc != SQLITE_OK) throw_sqlite_error(db_, rc, file_, "cannot bind a query parameter");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw_sqlite_error(db_, rc, file_, "query failed");
}

void SqliteStatement::run() {
  while (step()) {
  }
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

std::string SqliteStatement::text(int column) const {
  const auto* bytes = sqlite3_column_text(statement_, column);
  if (bytes == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(bytes),
                     static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
}

long long SqliteStatement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}

std::optional<double> SqliteStatement::real(int column) const {
  if (sqlite3_column_type(statement_, column) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(statement_, column);
}

namespace {

// A file name as an SQLite URI ("file:" + the path with %, ? and # escaped), with `query`.
std::string sqlite_uri(const std::string& file, const std::string& query) {
  std::string uri = "file:";
  for (const char c : file) {
    if (c == '%' || c == '?' || c == '#') {
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

}  // namespace

SqliteConnection::SqliteConnection(const std::string& file, SqliteAccess access) : file_(file) {
  int rc = SQLITE_OK;
  if (access == SqliteAccess::kReadWrite) {
    rc = sqlite3_open_v2(file.c_str(), &db_,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  } else {
    const std::string uri =
        sqlite_uri(file, access == SqliteAccess::kReadOnly ? "mode=ro" : "mode=ro&immutable=1");
    rc = sqlite3_open_v2(uri.c_str(), &db_,
                         SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  }
  if (rc != SQLITE_OK) {
    // Even a failed open allocates a handle; it carries the message and must be closed.
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    throw Error(ExitCode::kIoError, file + ": cannot open the store: " + message +
                                        ". Check that the folder exists and is writable");
  }
  sqlite3_extended_result_codes(db_, 1);
}

SqliteConnection::~SqliteConnection() {
  sqlite3_close(db_);
}

void SqliteConnection::exec(const std::string& sql) {
  exec_waiting_for_locks(sql, std::chrono::milliseconds(0));
}

void SqliteConnection::exec_waiting_for_locks(const std::string& sql,
                                              std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    const bool locked = (rc & 0xFF) == SQLITE_BUSY || (rc & 0xFF) == SQLITE_LOCKED;
    if (!locked || std::chrono::steady_clock::now() >= deadline) {
      throw_sqlite_error(db_, rc, file_, "statement failed");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

SqliteStatement SqliteConnection::prepare(const std::string& sql) {
  return SqliteStatement(db_, sql, file_);
}

SqliteTransaction::SqliteTransaction(SqliteConnection& db, Kind kind) : db_(db) {
  db_.exec(kind == Kind::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
}

SqliteTransaction::~SqliteTransaction() {
  // Never throws: a failed rollback leaves SQLite to roll back when the connection closes.
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

}  // namespace perfgate
