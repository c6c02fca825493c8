#pragma once
// The SQLite store (SPEC §12, `sqlite:PATH`): one database file in WAL mode. Attempts,
// records and approvals are rows; the records' cohort columns are indexed for the
// rolling-baseline look-up. Layout and guarantees: docs/store.md.
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "store/sqlite_connection.hpp"
#include "store/store.hpp"

namespace perfgate {

class SqliteStore final : public Store {
 public:
  /// Opens or creates the database file (and its folder), migrating older schemas. With
  /// kReadOnly or kImmutable it only reads: nothing is created, and a store whose schema
  /// is older than this perfgate's cannot be read until a writer opens it.
  SqliteStore(std::string url, const std::filesystem::path& file,
              SqliteAccess access = SqliteAccess::kReadWrite);

  using Store::append;
  AppendOutcome append(const Attempt& attempt, RepeatedMeasurements repeated) override;
  std::vector<std::string> already_stored(const std::vector<std::string>& keys) override;
  std::vector<StoredRecord> baseline_records(const CohortKey& cohort, std::size_t count) override;
  std::vector<StoredRecord> list_records(const RecordFilter& filter) override;
  std::vector<CohortKey> list_cohorts() override;
  std::vector<AttemptSummary> list_attempts() override;
  std::optional<Attempt> read_attempt(const std::string& attempt_id) override;
  std::vector<Approval> list_approvals() override;
  std::string revision() override;
  void approve(const std::vector<std::string>& record_ids, const std::string& approval_id,
               const std::string& expected_revision) override;
  bool has_approval(const std::string& approval_id) override;
  std::string url() const override { return url_; }

 private:
  using SqlArgument = std::variant<std::string, long long>;
  /// Stored records matching `where` (SQL over the records table `r` with parameters
  /// ?1, ?2, … taken from `arguments`), newest first, at most `limit` (0 = all).
  std::vector<StoredRecord> select_records(const std::string& where,
                                           const std::vector<SqlArgument>& arguments,
                                           std::size_t limit);
  bool stored_copy_matches(const Attempt& attempt, const std::vector<std::string>& texts);

  std::string url_;
  SqliteConnection db_;
};

}  // namespace perfgate
