// The work queue's rules on a real PostgreSQL server: claims never overlap, an expired lease
// is claimed again, a runner that lost its lease stores nothing, and the table itself
// refuses a second success for an item.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "fleet/work_queue.hpp"
#include "model/error.hpp"
#include "store/postgres_connection.hpp"
#include "support/postgres_server.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

std::string sha(int i) {
  std::string text = std::to_string(i);
  return std::string(40 - text.size(), 'a') + text;
}

class WorkQueueTest : public ::testing::Test {
 protected:
  WorkQueueTest() : url_(new_postgres_test_database()), queue_(url_) {}
  std::string url_;
  WorkQueue queue_;
};

TEST_F(WorkQueueTest, QueuesEachCommitOnceWhateverHowOftenItIsEnqueued) {
  EXPECT_EQ(queue_.enqueue({sha(1), sha(2)}, "box-1", "benchmarks/"), 2u);
  EXPECT_EQ(queue_.enqueue({sha(2), sha(3)}, "box-1", "benchmarks/"), 1u);
  EXPECT_EQ(queue_.enqueue({sha(1)}, "box-2", "benchmarks/"), 1u);
  const auto items = queue_.list();
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].item.commit_sha, sha(1));
  EXPECT_EQ(items[0].state, "queued");
  EXPECT_EQ(items[3].item.environment, "box-2");
}

TEST_F(WorkQueueTest, RefusesAShortShaAndABadEnvironmentBeforeQueueingAnything) {
  try {
    queue_.enqueue({sha(1), "abc123"}, "box-1", "s");
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_THAT(e.what(), HasSubstr("'abc123' is not a full SHA"));
  }
  EXPECT_THROW(queue_.enqueue({sha(1)}, "box 1", "s"), Error);
  EXPECT_TRUE(queue_.list().empty());
}

TEST_F(WorkQueueTest, RefusesAStoreThatIsNotPostgres) {
  try {
    WorkQueue sqlite("sqlite:queue.db");
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_THAT(e.what(), HasSubstr("the work queue lives in a PostgreSQL store"));
  }
}

TEST_F(WorkQueueTest, GivesRunnersClaimingAtOnceDifferentItemsOfTheirEnvironmentOnly) {
  queue_.enqueue({sha(1), sha(2), sha(3)}, "box-1", "s");
  queue_.enqueue({sha(4)}, "box-2", "s");
  // Another connection holds the oldest row locked, as a runner in mid-claim would.
  PgConnection other(url_);
  PgTransaction holding(other);
  other.run("SELECT 1 FROM perfgate.work_items WHERE commit_sha = $1 FOR UPDATE", {sha(1)});
  const auto first = queue_.claim("w1", "box-1", "s", 60);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->commit_sha, sha(2)) << "the locked row is skipped, not waited for";
  const auto second = queue_.claim("w2", "box-1", "s", 60);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->commit_sha, sha(3));
  EXPECT_FALSE(queue_.claim("w3", "box-1", "s", 60));
  EXPECT_FALSE(queue_.claim("w3", "box-1", "other-suite", 60));
  const auto other_box = queue_.claim("w4", "box-2", "s", 60);
  ASSERT_TRUE(other_box);
  EXPECT_EQ(other_box->commit_sha, sha(4));
  EXPECT_EQ(other_box->claim, 1);
}

TEST_F(WorkQueueTest, ClaimsAnItemAgainOnceItsRunnersLeaseExpiredAndDropsTheLateResult) {
  queue_.enqueue({sha(1)}, "box-1", "s");
  const auto dead = queue_.claim("dead", "box-1", "s", 1);
  ASSERT_TRUE(dead);
  EXPECT_FALSE(queue_.claim("w2", "box-1", "s", 60)) << "the lease still runs";
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  const auto again = queue_.claim("w2", "box-1", "s", 60);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->item_id, dead->item_id);
  EXPECT_EQ(again->claim, 2);
  EXPECT_EQ(again->run(), "item-" + std::to_string(dead->item_id));

  EXPECT_FALSE(queue_.renew(*dead, "dead", 60));
  EXPECT_EQ(queue_.complete(*dead, "dead", true, "{\"late\":true}"), CompleteOutcome::kLeaseLost);
  EXPECT_TRUE(queue_.renew(*again, "w2", 60));
  EXPECT_EQ(queue_.complete(*again, "w2", true, "{\"on_time\":true}"), CompleteOutcome::kStored);
  EXPECT_EQ(queue_.attempt_documents(again->item_id),
            std::vector<std::string>{"{\"on_time\":true}"});
  const auto items = queue_.list();
  EXPECT_EQ(items[0].state, "done");
  EXPECT_EQ(items[0].attempts_stored, 1);
  EXPECT_EQ(items[0].lease_owner, "");
  EXPECT_FALSE(queue_.claim("w3", "box-1", "s", 60)) << "a done item is never claimed";
}

TEST_F(WorkQueueTest, QueuesAReleasedItemAgainAndMarksAFailedOneFailed) {
  queue_.enqueue({sha(1), sha(2)}, "box-1", "s");
  const auto interrupted = queue_.claim("w1", "box-1", "s", 60);
  ASSERT_TRUE(interrupted);
  queue_.release(*interrupted, "w1");
  EXPECT_EQ(queue_.list()[0].state, "queued");
  const auto retried = queue_.claim("w2", "box-1", "s", 60);
  ASSERT_TRUE(retried);
  EXPECT_EQ(retried->commit_sha, sha(1));
  EXPECT_EQ(retried->claim, 2);
  EXPECT_EQ(queue_.complete(*retried, "w2", false, "{}"), CompleteOutcome::kStored);
  EXPECT_EQ(queue_.list()[0].state, "failed");
}

// The guarantee does not rest on the code above: the table itself refuses.
TEST_F(WorkQueueTest, RefusesASecondSuccessOrASecondAttemptOfTheSameClaimInTheTable) {
  queue_.enqueue({sha(1)}, "box-1", "s");
  const auto item = queue_.claim("w1", "box-1", "s", 60);
  ASSERT_TRUE(item);
  queue_.complete(*item, "w1", true, "{}");
  PgConnection db(url_);
  const std::string id = std::to_string(item->item_id);
  EXPECT_THROW(db.run("INSERT INTO perfgate.work_attempts (item_id, commit_sha, environment, run, "
                      "attempt, worker, success, document) VALUES ($1, $2, 'box-1', $3, 2, 'x', "
                      "true, '{}')",
                      {id, sha(1), item->run()}),
               Error);
  EXPECT_THROW(db.run("INSERT INTO perfgate.work_attempts (item_id, commit_sha, environment, run, "
                      "attempt, worker, success, document) VALUES ($1, $2, 'box-1', $3, 1, 'x', "
                      "false, '{}')",
                      {id, sha(1), item->run()}),
               Error);
  EXPECT_EQ(queue_.attempt_documents(item->item_id).size(), 1u);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
