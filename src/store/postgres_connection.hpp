#pragma once
// An owned libpq connection with prepared statements, results and a transaction guard.
// Every failure becomes an Error naming the store by its redacted URL; the password, if
// libpq found one, is never part of a message.
#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/error.hpp"

namespace perfgate {

/// Error(kIoError): the connection to the server was lost or could not be made again (a
/// restart, pg_terminate_backend, a network cut). The next statement run outside a
/// transaction connects again, so a caller may retry the whole operation.
class PgConnectionLost : public Error {
 public:
  explicit PgConnectionLost(const std::string& message) : Error(ExitCode::kIoError, message) {}
};

/// A statement's parameter in text form; nullopt is SQL NULL.
using PgParam = std::optional<std::string>;

class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, &PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  bool is_null(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
  std::string text(int row, int column) const {
    return std::string(PQgetvalue(result_.get(), row, column),
                       static_cast<std::size_t>(PQgetlength(result_.get(), row, column)));
  }
  long long integer(int row, int column) const;
  std::optional<long long> optional_integer(int row, int column) const;
  /// PostgreSQL's boolean text: 't' or 'f'.
  bool boolean(int row, int column) const {
    return PQgetvalue(result_.get(), row, column)[0] == 't';
  }

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

class PgConnection {
 public:
  /// Connects with libpq. Error(kNoInput) for a database that does not exist,
  /// Error(kIoError) for a server that cannot be reached or refuses the login.
  explicit PgConnection(const std::string& url);
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  /// Runs a statement, prepared on this connection the first time it is used. A connection
  /// found lost is made again first, outside a transaction; inside one, the statement is
  /// PgConnectionLost, since what the transaction did is gone with it.
  PgResult run(const std::string& sql, const std::vector<PgParam>& params = {});
  /// Runs statements that take no parameters (a migration step, BEGIN, COMMIT).
  void exec(const std::string& sql);
  /// COPY … FROM STDIN with `rows` in COPY's text format (copy_text_field escapes a value).
  void copy_in(const std::string& copy_sql, const std::string& rows);
  /// The store's URL with any password hidden, for messages.
  const std::string& label() const { return label_; }

 private:
  friend class PgTransaction;
  [[noreturn]] void fail(PGresult* result, const std::string& what);
  /// Connects again when the connection is known lost (PgConnectionLost when that fails,
  /// or when a transaction was open on it).
  void reconnect_if_lost();

  bool in_transaction_ = false;
  bool broken_ = false;  ///< a statement failed for want of the connection
  std::unique_ptr<PGconn, decltype(&PQfinish)> connection_;
  std::string label_;
  std::unordered_map<std::string, std::string> prepared_;  ///< SQL -> statement name
};

/// BEGIN … COMMIT; rolls back unless committed (also when the connection was lost).
class PgTransaction {
 public:
  explicit PgTransaction(PgConnection& db) : db_(db) {
    db_.exec("BEGIN");
    db_.in_transaction_ = true;
  }
  PgTransaction(const PgTransaction&) = delete;
  PgTransaction& operator=(const PgTransaction&) = delete;
  ~PgTransaction();
  void commit();

 private:
  PgConnection& db_;
  bool open_ = true;
};

/// One field of a COPY text-format row: backslash, tab, newline and carriage return escaped;
/// nullopt is \N.
void append_copy_field(std::string& row, const PgParam& value);

/// A PostgreSQL text[] literal of the values ({"a","b"}), for `= ANY($1::text[])`.
std::string text_array_literal(const std::vector<std::string>& values);

}  // namespace perfgate
