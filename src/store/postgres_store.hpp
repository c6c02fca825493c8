#pragma once
// The PostgreSQL store (SPEC §12, `postgresql://…`): a team's one store that every runner
// writes to at once. Tables live in the schema "perfgate" (postgres_schema.cpp); writes
// queue on one row lock, so each append or approval is one transaction that sees every
// earlier one. Layout, grants and guarantees: docs/store.md.
#include <string>
#include <vector>

#include "store/postgres_connection.hpp"
#include "store/store.hpp"

namespace perfgate {

class PostgresStore final : public Store {
 public:
  /// Connects and migrates; creates the store in a database that holds none, unless
  /// `must_exist`, when such a database is Error(kNoInput) and is left untouched.
  PostgresStore(const std::string& url, bool must_exist);

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
  /// The URL with any password hidden.
  std::string url() const override { return db_.label(); }

  /// The connection, for the work queue that shares the store's database.
  PgConnection& connection() { return db_; }

 private:
  /// Records matching `where` (SQL over perfgate.records r with $1… from `params`),
  /// newest first, at most `limit` (0 = all).
  std::vector<StoredRecord> select_records(const std::string& where,
                                           const std::vector<PgParam>& params, std::size_t limit);
  bool stored_copy_matches(const Attempt& attempt, const std::vector<std::string>& texts);
  /// Takes the store's write lock for the open transaction and returns the revision.
  long long lock_revision();

  PgConnection db_;
};

}  // namespace perfgate
