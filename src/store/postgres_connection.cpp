#include "store/postgres_connection.hpp"

#include <algorithm>
#include <cstdlib>

#include "model/error.hpp"
#include "store/postgres_url.hpp"

namespace perfgate {
namespace {

// libpq's messages span lines ("...failed: No such file\n\tIs the server running...?");
// perfgate's errors are one line.
std::string trimmed(std::string text) {
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at)) {
    std::size_t end = at + 1;
    while (end < text.size() && (text[end] == '\t' || text[end] == ' ')) ++end;
    text.replace(at, end - at, end < text.size() ? " " : "");
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '.')) {
    text.pop_back();
  }
  return text;
}

// libpq's connection errors carry no SQLSTATE: tell a missing database by its message.
bool names_missing_database(const std::string& message) {
  return message.find("database \"") != std::string::npos &&
         message.find("does not exist") != std::string::npos;
}

}  // namespace

long long PgResult::integer(int row, int column) const {
  return std::strtoll(PQgetvalue(result_.get(), row, column), nullptr, 10);
}

std::optional<long long> PgResult::optional_integer(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return integer(row, column);
}

PgConnection::PgConnection(const std::string& url)
    : connection_(nullptr, &PQfinish), label_(redact_postgres_url(url)) {
  refuse_password_in_url(url);
  connection_.reset(PQconnectdb(url.c_str()));
  if (!connection_) {
    throw Error(ExitCode::kIoError, label_ + ": cannot connect: out of memory");
  }
  if (PQstatus(connection_.get()) != CONNECTION_OK) {
    const std::string message = trimmed(PQerrorMessage(connection_.get()));
    if (names_missing_database(message)) {
      throw Error(ExitCode::kNoInput,
                  label_ + ": " + message +
                      ". Check the database name in the URL, or create the database (createdb) "
                      "before the first upload");
    }
    throw PgConnectionLost(
        label_ + ": cannot connect: " + message +
        ". Check that the server is running and the URL's host, port and user; a "
        "password goes in ~/.pgpass, PGPASSFILE or PGPASSWORD");
  }
  // Messages the server sends (NOTICE) would interleave with perfgate's own output.
  PQsetNoticeProcessor(
      connection_.get(), [](void*, const char*) {}, nullptr);
}

void PgConnection::reconnect_if_lost() {
  if (!broken_ && PQstatus(connection_.get()) == CONNECTION_OK) return;
  if (in_transaction_) {
    throw PgConnectionLost(label_ +
                           ": the connection to the server was lost inside a transaction; "
                           "nothing of it was stored. Retry when the server is back");
  }
  // Statements prepared on the old session are gone with it.
  prepared_.clear();
  PQreset(connection_.get());
  broken_ = PQstatus(connection_.get()) != CONNECTION_OK;
  if (broken_) {
    throw PgConnectionLost(label_ +
                           ": cannot connect again: " + trimmed(PQerrorMessage(connection_.get())) +
                           ". Retry when the server is back");
  }
}

void PgConnection::fail(PGresult* result, const std::string& what) {
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  std::string message = trimmed(PQerrorMessage(connection_.get()));
  if (result != nullptr) PQclear(result);
  if (message.rfind("ERROR:  ", 0) == 0) message = message.substr(8);
  if (sqlstate == "22021" || sqlstate == "22P05" || sqlstate == "54000") {
    throw Error(ExitCode::kDataError,
                label_ + ": " + what + ": " + message +
                    ". PostgreSQL text holds valid UTF-8 without NUL bytes; rename the "
                    "benchmark or use a sqlite: or dir: store");
  }
  std::string fix = "Check the server's log";
  if (sqlstate == "42501") {
    fix =
        "The role lacks a privilege: grant it (docs/store.md lists the grants), or use a "
        "role that owns the store";
  } else if (sqlstate == "53100") {
    fix = "The server's disk is full; free space and retry";
  } else if (sqlstate.empty() || sqlstate.rfind("08", 0) == 0 || sqlstate.rfind("57P0", 0) == 0 ||
             PQstatus(connection_.get()) != CONNECTION_OK) {
    // 08: connection exceptions; 57P01-57P03: the server shutting down, crashed or starting.
    // No SQLSTATE: libpq's own error, which is about the connection ("server closed the
    // connection unexpectedly" may leave its status OK): the next statement connects anew.
    broken_ = true;
    throw PgConnectionLost(label_ + ": " + what + ": " + message +
                           ". The connection to the server was lost; nothing of the "
                           "unfinished transaction was stored. Retry when the server is back");
  }
  throw Error(ExitCode::kIoError, label_ + ": " + what + ": " + message + ". " + fix);
}

PgResult PgConnection::run(const std::string& sql, const std::vector<PgParam>& params) {
  reconnect_if_lost();
  auto prepared = prepared_.find(sql);
  if (prepared == prepared_.end()) {
    const std::string name = "perfgate_" + std::to_string(prepared_.size() + 1);
    PGresult* result = PQprepare(connection_.get(), name.c_str(), sql.c_str(), 0, nullptr);
    if (PQresultStatus(result) != PGRES_COMMAND_OK) fail(result, "cannot prepare a query");
    PQclear(result);
    prepared = prepared_.emplace(sql, name).first;
  }
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& param : params) values.push_back(param ? param->c_str() : nullptr);
  PGresult* result =
      PQexecPrepared(connection_.get(), prepared->second.c_str(), static_cast<int>(values.size()),
                     values.data(), nullptr, nullptr, 0);
  const auto status = PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(result, "query failed");
  return PgResult(result);
}

void PgConnection::exec(const std::string& sql) {
  reconnect_if_lost();
  PGresult* result = PQexec(connection_.get(), sql.c_str());
  const auto status = PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(result, "statement failed");
  PQclear(result);
}

void PgConnection::copy_in(const std::string& copy_sql, const std::string& rows) {
  reconnect_if_lost();
  PGresult* start = PQexec(connection_.get(), copy_sql.c_str());
  if (PQresultStatus(start) != PGRES_COPY_IN) fail(start, "cannot start COPY");
  PQclear(start);
  // In pieces: the server refuses a message of 1 GB or more (an attempt of a million
  // records), and a piece need not end where a row does.
  constexpr std::size_t kPiece = 8 << 20;
  for (std::size_t at = 0; at < rows.size(); at += kPiece) {
    const std::size_t size = std::min(kPiece, rows.size() - at);
    if (PQputCopyData(connection_.get(), rows.data() + at, static_cast<int>(size)) != 1) {
      fail(nullptr, "COPY failed");
    }
  }
  if (PQputCopyEnd(connection_.get(), nullptr) != 1) fail(nullptr, "COPY failed");
  PGresult* result = PQgetResult(connection_.get());
  if (PQresultStatus(result) != PGRES_COMMAND_OK) {
    // Drain what follows so the connection is usable for the ROLLBACK.
    while (PGresult* more = PQgetResult(connection_.get())) PQclear(more);
    fail(result, "COPY failed");
  }
  PQclear(result);
  while (PGresult* more = PQgetResult(connection_.get())) PQclear(more);
}

PgTransaction::~PgTransaction() {
  if (!open_) return;
  // A lost connection rolled back on the server by itself: nothing to send then.
  const bool lost = db_.broken_ || PQstatus(db_.connection_.get()) != CONNECTION_OK;
  db_.in_transaction_ = false;
  if (lost) return;
  try {
    db_.exec("ROLLBACK");
  } catch (...) {
  }
}

void PgTransaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
  db_.in_transaction_ = false;
}

void append_copy_field(std::string& row, const PgParam& value) {
  if (!value) {
    row += "\\N";
    return;
  }
  for (const char c : *value) {
    switch (c) {
      case '\\':
        row += "\\\\";
        break;
      case '\t':
        row += "\\t";
        break;
      case '\n':
        row += "\\n";
        break;
      case '\r':
        row += "\\r";
        break;
      default:
        row += c;
    }
  }
}

std::string text_array_literal(const std::vector<std::string>& values) {
  std::string literal = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) literal += ',';
    literal += '"';
    for (const char c : values[i]) {
      if (c == '"' || c == '\\') literal += '\\';
      literal += c;
    }
    literal += '"';
  }
  return literal + "}";
}

}  // namespace perfgate
