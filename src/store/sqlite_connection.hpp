#pragma once
// Owned SQLite handles: a connection, a prepared statement and a transaction guard.
// Every SQLite failure becomes Error(kIoError) naming the database file.
#include <sqlite3.h>

#include <chrono>
#include <optional>
#include <string>

namespace perfgate {

class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, const std::string& sql, const std::string& file);
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  /// Parameters are numbered from 1, as in SQLite.
  SqliteStatement& bind(int index, const std::string& text);
  SqliteStatement& bind(int index, long long value);
  SqliteStatement& bind(int index, const std::optional<std::string>& text);  ///< NULL when unset
  SqliteStatement& bind(int index, const std::optional<long long>& value);   ///< NULL when unset

  /// Runs to the next row: true when one is available, false when done.
  bool step();
  /// Runs a statement that returns no rows.
  void run();
  /// Makes the statement ready to run again with new parameters.
  void reset();

  /// Columns are numbered from 0.
  std::string text(int column) const;
  long long integer(int column) const;
  std::optional<double> real(int column) const;  ///< nullopt for NULL

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
  std::string file_;
};

/// How a connection opens its file.
enum class SqliteAccess {
  kReadWrite,  ///< created when missing
  kReadOnly,   ///< mode=ro: reads, and sees writers; WAL needs the -shm file or its folder
  /// immutable=1: reads a file that nobody writes meanwhile, without the -shm file (a
  /// folder the reader cannot write, after the last writer closed)
  kImmutable,
};

class SqliteConnection {
 public:
  /// Opens (creating when missing, for kReadWrite) the database file.
  explicit SqliteConnection(const std::string& file,
                            SqliteAccess access = SqliteAccess::kReadWrite);
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;
  ~SqliteConnection();

  /// Runs one or more statements whose rows, if any, are not needed.
  void exec(const std::string& sql);
  /// exec, tried again every 10 ms for up to `limit` while another connection holds a lock.
  /// For a statement that reads and then writes outside a transaction, such as
  /// `PRAGMA journal_mode = WAL` on a store being created: when another connection holds the
  /// write lock, SQLite answers it "database is locked" at once instead of calling the busy
  /// handler, since waiting with a read lock held could deadlock.
  void exec_waiting_for_locks(const std::string& sql, std::chrono::milliseconds limit);
  SqliteStatement prepare(const std::string& sql);
  sqlite3* handle() const { return db_; }
  const std::string& file() const { return file_; }

 private:
  sqlite3* db_ = nullptr;
  std::string file_;
};

/// BEGIN (read) or BEGIN IMMEDIATE (write) … COMMIT; rolls back unless committed.
/// A write transaction takes the write lock up front, so two writers queue on the busy
/// timeout instead of failing when one of them upgrades a read.
class SqliteTransaction {
 public:
  enum class Kind { kRead, kWrite };
  SqliteTransaction(SqliteConnection& db, Kind kind);
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  ~SqliteTransaction();
  void commit();

 private:
  SqliteConnection& db_;
  bool open_ = true;
};

/// Error(kIoError) for a failed SQLite call: "<file>: <what>: <sqlite message>. <fix>".
[[noreturn]] void throw_sqlite_error(sqlite3* db, int code, const std::string& file,
                                     const std::string& what);

}  // namespace perfgate
