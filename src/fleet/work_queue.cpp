#include "fleet/work_queue.hpp"

#include "history/history_attempt.hpp"
#include "model/error.hpp"
#include "store/postgres_url.hpp"

namespace perfgate {
namespace {

WorkItem item_from(const PgResult& result, int row) {
  return WorkItem{result.integer(row, 0), result.text(row, 1), result.text(row, 2),
                  result.text(row, 3), static_cast<int>(result.integer(row, 4))};
}

void check_environment(const std::string& environment) {
  if (!history::valid_run_id(environment)) {
    throw Error(ExitCode::kUsage, "--environment: '" + environment +
                                      "' is not a machine id. Use letters, digits, '.', '_' and "
                                      "'-', e.g. gpu-h100-1");
  }
}

}  // namespace

WorkQueue::WorkQueue(const std::string& url) {
  if (!is_postgres_url(url)) {
    throw Error(ExitCode::kUsage,
                "--store " + url +
                    ": the work queue lives in a PostgreSQL store that every runner reaches. "
                    "Pass --store postgresql://[USER@]HOST[:PORT]/DATABASE (or set "
                    "PERFGATE_STORE)");
  }
  store_ = std::make_unique<PostgresStore>(url, /*must_exist=*/false);
}

std::size_t WorkQueue::enqueue(const std::vector<std::string>& commits,
                               const std::string& environment, const std::string& suite) {
  check_environment(environment);
  for (const auto& sha : commits) {
    if (!history::is_full_sha(sha)) {
      throw Error(ExitCode::kUsage, "commit '" + sha +
                                        "' is not a full SHA. Pass 40 lowercase hex digits "
                                        "(git rev-parse COMMIT)");
    }
  }
  PgConnection& db = store_->connection();
  PgTransaction transaction(db);
  std::size_t added = 0;
  for (const auto& sha : commits) {
    added += static_cast<std::size_t>(
        db.run("INSERT INTO perfgate.work_items (commit_sha, environment, suite) VALUES ($1, $2, "
               "$3) ON CONFLICT (commit_sha, environment, suite) DO NOTHING RETURNING item_id",
               {sha, environment, suite})
            .rows());
  }
  transaction.commit();
  return added;
}

std::optional<WorkItem> WorkQueue::claim(const std::string& worker, const std::string& environment,
                                         const std::string& suite, int lease_seconds) {
  check_environment(environment);
  // SKIP LOCKED: runners claiming at once each take a different row instead of queueing
  // on the same one. The outer UPDATE re-checks the row after locking it.
  const PgResult claimed = store_->connection().run(
      "UPDATE perfgate.work_items SET state = 'claimed', lease_owner = $1, "
      "lease_expires_at = now() + make_interval(secs => $4), attempts = attempts + 1 "
      "WHERE item_id = (SELECT item_id FROM perfgate.work_items WHERE environment = $2 AND "
      "suite = $3 AND (state = 'queued' OR (state = 'claimed' AND lease_expires_at < now())) "
      "ORDER BY item_id LIMIT 1 FOR UPDATE SKIP LOCKED) "
      "RETURNING item_id, commit_sha, environment, suite, attempts",
      {worker, environment, suite, std::to_string(lease_seconds)});
  if (claimed.rows() == 0) return std::nullopt;
  return item_from(claimed, 0);
}

std::optional<WorkItem> WorkQueue::held_claim(const std::string& worker,
                                              const std::string& environment,
                                              const std::string& suite, int lease_seconds) {
  const PgResult held = store_->connection().run(
      "UPDATE perfgate.work_items SET lease_expires_at = now() + make_interval(secs => $4) "
      "WHERE item_id = (SELECT item_id FROM perfgate.work_items WHERE lease_owner = $1 AND "
      "environment = $2 AND suite = $3 AND state = 'claimed' ORDER BY item_id LIMIT 1) "
      "RETURNING item_id, commit_sha, environment, suite, attempts",
      {worker, environment, suite, std::to_string(lease_seconds)});
  if (held.rows() == 0) return std::nullopt;
  return item_from(held, 0);
}

bool WorkQueue::renew(const WorkItem& item, const std::string& worker, int lease_seconds) {
  return store_->connection()
             .run(
                 "UPDATE perfgate.work_items SET lease_expires_at = now() + "
                 "make_interval(secs => $3) WHERE item_id = $1 AND lease_owner = $2 AND state = "
                 "'claimed' AND attempts = $4 RETURNING item_id",
                 {std::to_string(item.item_id), worker, std::to_string(lease_seconds),
                  std::to_string(item.claim)})
             .rows() > 0;
}

void WorkQueue::release(const WorkItem& item, const std::string& worker) {
  store_->connection().run(
      "UPDATE perfgate.work_items SET state = 'queued', lease_owner = NULL, lease_expires_at = "
      "NULL WHERE item_id = $1 AND lease_owner = $2 AND state = 'claimed' AND attempts = $3",
      {std::to_string(item.item_id), worker, std::to_string(item.claim)});
}

CompleteOutcome WorkQueue::complete(const WorkItem& item, const std::string& worker, bool success,
                                    const std::string& document) {
  PgConnection& db = store_->connection();
  PgTransaction transaction(db);
  // Stored already: this is a retry of a COMMIT whose answer the connection lost.
  if (db.run("SELECT 1 FROM perfgate.work_attempts WHERE item_id = $1 AND attempt = $2 AND "
             "worker = $3",
             {std::to_string(item.item_id), std::to_string(item.claim), worker})
          .rows() > 0) {
    return CompleteOutcome::kStored;
  }
  // Still ours? The row lock keeps another runner from claiming it until we commit.
  const PgResult held = db.run(
      "SELECT 1 FROM perfgate.work_items WHERE item_id = $1 AND lease_owner = $2 AND state = "
      "'claimed' AND attempts = $3 FOR UPDATE",
      {std::to_string(item.item_id), worker, std::to_string(item.claim)});
  if (held.rows() == 0) return CompleteOutcome::kLeaseLost;
  db.run(
      "INSERT INTO perfgate.work_attempts (item_id, commit_sha, environment, run, attempt, "
      "worker, success, document) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      {std::to_string(item.item_id), item.commit_sha, item.environment, item.run(),
       std::to_string(item.claim), worker, success ? "t" : "f", document});
  db.run(
      "UPDATE perfgate.work_items SET state = $2, lease_owner = NULL, lease_expires_at = NULL, "
      "finished_at = now() WHERE item_id = $1",
      {std::to_string(item.item_id), success ? "done" : "failed"});
  transaction.commit();
  return CompleteOutcome::kStored;
}

std::string WorkQueue::describe(const WorkItem& item) {
  const PgResult now = store_->connection().run(
      "SELECT w.state, coalesce(w.lease_owner, ''), w.attempts, coalesce((SELECT a.worker || "
      "' (claim ' || a.attempt || ')' FROM perfgate.work_attempts a WHERE a.item_id = "
      "w.item_id ORDER BY a.attempt DESC LIMIT 1), '') FROM perfgate.work_items w WHERE "
      "w.item_id = $1",
      {std::to_string(item.item_id)});
  if (now.rows() == 0) return "no longer queued";
  const std::string state = now.text(0, 0);
  if (state == "claimed") {
    return "claimed by " + now.text(0, 1) + " (claim " + now.text(0, 2) + ")";
  }
  if (state == "done" || state == "failed") return state + " by " + now.text(0, 3);
  return state;
}

std::vector<WorkItemStatus> WorkQueue::list() {
  const PgResult result = store_->connection().run(
      "SELECT w.item_id, w.commit_sha, w.environment, w.suite, w.attempts, w.state, "
      "coalesce(w.lease_owner, ''), (SELECT count(*) FROM perfgate.work_attempts a WHERE "
      "a.item_id = w.item_id) FROM perfgate.work_items w ORDER BY w.item_id");
  std::vector<WorkItemStatus> items;
  for (int i = 0; i < result.rows(); ++i) {
    items.push_back({item_from(result, i), result.text(i, 5), result.text(i, 6),
                     static_cast<int>(result.integer(i, 7))});
  }
  return items;
}

std::vector<std::string> WorkQueue::attempt_documents(long long item_id) {
  const PgResult result = store_->connection().run(
      "SELECT document FROM perfgate.work_attempts WHERE item_id = $1 ORDER BY attempt",
      {std::to_string(item_id)});
  std::vector<std::string> documents;
  for (int i = 0; i < result.rows(); ++i) documents.push_back(result.text(i, 0));
  return documents;
}

}  // namespace perfgate
