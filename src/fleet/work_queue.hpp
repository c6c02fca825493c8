#pragma once
// The fleet's work queue (SPEC §12), in a PostgreSQL store: one row per planned (commit,
// environment, suite), claimed by one runner at a time with SELECT … FOR UPDATE SKIP LOCKED
// and held by a lease the runner renews while it measures. A runner that dies stops
// renewing; once its lease expires the item is claimed again. Each finished claim stores
// one attempt, under a unique (commit, environment, run, attempt), and at most one
// successful attempt per item: a second measurement of the same work is impossible, not
// just unlikely. Tables: postgres_schema.cpp; behaviour: docs/fleet.md.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/postgres_store.hpp"

namespace perfgate {

struct WorkItem {
  long long item_id = 0;
  std::string commit_sha;
  std::string environment;
  std::string suite;
  int claim = 0;  ///< 1 for the first claim of the item, 2 after a runner lost it, …
  /// The run id its attempts are stored under: "item-<item_id>".
  std::string run() const { return "item-" + std::to_string(item_id); }
};

struct WorkItemStatus {
  WorkItem item;
  std::string state;  ///< queued, claimed, done or failed
  std::string lease_owner;
  int attempts_stored = 0;
};

enum class CompleteOutcome {
  kStored,    ///< the attempt is stored and the item is done (or failed)
  kLeaseLost  ///< another runner holds the item now: nothing was stored
};

class WorkQueue {
 public:
  /// Opens (creating the store in an empty database) the queue of a PostgreSQL store.
  /// Error(kUsage) for any other kind of store URL.
  explicit WorkQueue(const std::string& url);

  /// Queues each commit (full SHAs) for the environment and suite; commits already queued
  /// or measured there are left as they are, so enqueuing twice is a no-op. Returns how
  /// many were new. Error(kUsage) for a commit that is not a full SHA or a bad environment.
  std::size_t enqueue(const std::vector<std::string>& commits, const std::string& environment,
                      const std::string& suite);

  /// Claims the oldest item of the environment and suite that is queued, or whose lease
  /// expired, for `lease_seconds`; nullopt when there is none.
  std::optional<WorkItem> claim(const std::string& worker, const std::string& environment,
                                const std::string& suite, int lease_seconds);

  /// The item this worker holds in the environment and suite, with its lease extended;
  /// nullopt when none. After a claim whose answer the connection lost: the claim may have
  /// committed, and the runner then takes up what it holds instead of leaving it to lapse.
  std::optional<WorkItem> held_claim(const std::string& worker, const std::string& environment,
                                     const std::string& suite, int lease_seconds);

  /// Extends the lease; false when the worker no longer holds the item.
  bool renew(const WorkItem& item, const std::string& worker, int lease_seconds);

  /// Gives the item back to the queue unmeasured (an interrupted worker).
  void release(const WorkItem& item, const std::string& worker);

  /// Stores the claim's attempt (a history attempt document, success or failure) and
  /// finishes the item in one transaction, if the worker still holds it. Completing the
  /// same claim again (a retry after the connection was lost at COMMIT) is kStored.
  CompleteOutcome complete(const WorkItem& item, const std::string& worker, bool success,
                           const std::string& document);

  /// What the item is now, for a runner whose lease lapsed: "claimed by w2 (claim 2)",
  /// "done by w2 (claim 2)", "queued".
  std::string describe(const WorkItem& item);

  /// Every item, oldest first.
  std::vector<WorkItemStatus> list();

  /// Each stored attempt document of the item, oldest first.
  std::vector<std::string> attempt_documents(long long item_id);

  std::string url() const { return store_->url(); }

 private:
  std::unique_ptr<PostgresStore> store_;
};

}  // namespace perfgate
