#include "history/ledger.hpp"

#include <gtest/gtest.h>

#include <set>

#include "history/archive.hpp"
#include "history/history_attempt.hpp"
#include "history/series_identity.hpp"
#include "model/error.hpp"
#include "support/memory_archive.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

/// Ancestry of a small graph given as child -> parents.
AncestryCheck graph(std::map<std::string, std::vector<std::string>> parents) {
  return [parents](const std::string& ancestor, const std::string& descendant) {
    std::vector<std::string> pending{descendant};
    std::set<std::string> seen;
    while (!pending.empty()) {
      const std::string sha = pending.back();
      pending.pop_back();
      if (sha == ancestor) return true;
      if (!seen.insert(sha).second) continue;
      if (auto it = parents.find(sha); it != parents.end()) {
        pending.insert(pending.end(), it->second.begin(), it->second.end());
      }
    }
    return false;
  };
}

Ledger ledger(std::string current, std::vector<std::string> monitored) {
  return Ledger{"main", "a", std::move(current), std::move(monitored), {}, {}, {}};
}

TEST(Ledger, FirstPlanBecomesTheLedger) {
  const Ledger observed = ledger("c", {"a", "b", "c"});
  EXPECT_EQ(merge_ledger(std::nullopt, observed, graph({})), observed);
}

TEST(Ledger, AFastForwardAppendsTheNewCommitsAndMovesCurrent) {
  const auto ancestry = graph({{"b", {"a"}}, {"c", {"b"}}, {"d", {"c"}}, {"e", {"d"}}});
  const Ledger merged =
      merge_ledger(ledger("c", {"a", "b", "c"}), ledger("e", {"a", "b", "c", "d", "e"}), ancestry);
  EXPECT_EQ(merged.current, "e");
  EXPECT_EQ(merged.monitored, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
}

TEST(Ledger, AMergeThatReordersParentsKeepsEveryCommitMonitoredBefore) {
  // main was a-b-c; a feature branch x-y from b merged by fast-forward as m with parents
  // (y, c): m's first-parent path is a-b-x-y-m, and c is only a second parent.
  const auto ancestry =
      graph({{"b", {"a"}}, {"c", {"b"}}, {"x", {"b"}}, {"y", {"x"}}, {"m", {"y", "c"}}});
  const Ledger merged =
      merge_ledger(ledger("c", {"a", "b", "c"}), ledger("m", {"a", "b", "x", "y", "m"}), ancestry);
  EXPECT_EQ(merged.current, "m");
  EXPECT_EQ(merged.monitored, (std::vector<std::string>{"a", "b", "x", "y", "m", "c"}))
      << "c stays monitored; x, y and m follow b, the commit before them on the new path";
}

TEST(Ledger, ALateBatchNeitherShrinksTheLedgerNorMovesCurrentBack) {
  const auto ancestry = graph({{"b", {"a"}}, {"c", {"b"}}, {"d", {"c"}}});
  Ledger late = ledger("b", {"a", "b"});
  late.attempts["late"] = {true, "2026-01-01T00:00:00Z", "m1", "s1"};
  const Ledger merged = merge_ledger(ledger("d", {"a", "b", "c", "d"}), late, ancestry);
  EXPECT_EQ(merged.current, "d");
  EXPECT_EQ(merged.monitored, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(merged.attempts.count("late"), 1u);
}

TEST(Ledger, ARewrittenBranchIsRefusedNamingBothTips) {
  const auto ancestry = graph({{"b", {"a"}}, {"c", {"b"}}, {"c2", {"b"}}});
  try {
    merge_ledger(ledger("c", {"a", "b", "c"}), ledger("c2", {"a", "b", "c2"}), ancestry);
    FAIL() << "a rewrite was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    const std::string message = error.what();
    EXPECT_NE(message.find("moved from c to c2, which does not contain it"), std::string::npos)
        << message;
  }
}

TEST(Ledger, AnAcceptedRewriteMovesCurrentAndKeepsEveryCommit) {
  const auto ancestry = graph({{"b", {"a"}}, {"c", {"b"}}, {"c2", {"b"}}, {"d2", {"c2"}}});
  Ledger observed = ledger("d2", {"a", "b", "c2", "d2"});
  observed.rewrites = {{"c", "c2", "2026-12-04T10:00:00Z", "reviewer"}};
  const Ledger merged = merge_ledger(ledger("c", {"a", "b", "c"}), observed, ancestry);
  EXPECT_EQ(merged.current, "d2") << "the new tip contains the accepted new tip";
  EXPECT_EQ(merged.monitored, (std::vector<std::string>{"a", "b", "c2", "d2", "c"}))
      << "c stays monitored; the new path follows b";
  EXPECT_EQ(merged.rewrites, observed.rewrites);
  EXPECT_EQ(read_ledger(to_json(merged).dump(), "plan.json"), merged);
  // A rewrite of another tip accepts nothing.
  Ledger other = ledger("c2", {"a", "b", "c2"});
  other.rewrites = {{"x", "c2", "2026-12-04T10:00:00Z", "reviewer"}};
  EXPECT_THROW(merge_ledger(ledger("c", {"a", "b", "c"}), other, ancestry), Error);
}

TEST(Ledger, AnotherActivationCommitIsRefused) {
  Ledger other = ledger("c", {"b", "c"});
  other.baseline = "b";
  EXPECT_THROW(merge_ledger(ledger("c", {"a", "b", "c"}), other, graph({})), Error);
}

TEST(Ledger, TheLatestAttemptByStartWinsEvenWhenItFailed) {
  Ledger l = ledger("b", {"a", "b"});
  const std::string a(40, 'a');
  const std::string b(40, 'b');
  l.attempts[a + "-r1-1"] = {true, "2026-01-01T10:00:00Z", "m1", "s1"};
  l.attempts[a + "-r2-1"] = {false, "2026-01-02T10:00:00Z", "m1", "s1"};
  // Started later but with a name that sorts first: start time decides, not the name.
  l.attempts[b + "-r9-1"] = {false, "2026-01-01T10:00:00Z", "m1", "s1"};
  l.attempts[b + "-r0-1"] = {true, "2026-01-01T11:00:00+00:00", "m1", "s1"};
  const auto states = commit_states(l, "m1", "s1");
  EXPECT_EQ(states.at(a), CommitState::kFailed);
  EXPECT_EQ(states.at(b), CommitState::kMeasured);
}

TEST(Ledger, AtTheSameInstantTheGreaterIdentityWinsAsInTheExport) {
  Ledger l = ledger("a", {"a"});
  const std::string a(40, 'a');
  // Attempt 10 is greater than attempt 2, though its text sorts first.
  l.attempts[a + "-r-10"] = {false, "2026-01-01T10:00:00Z", "m1", "s1"};
  l.attempts[a + "-r-2"] = {true, "2026-01-01T10:00:00+00:00", "m1", "s1"};
  EXPECT_EQ(commit_states(l, "m1", "s1").at(a), CommitState::kFailed);
}

TEST(Ledger, CountsOnlyTheAttemptsOfOneEnvironmentInOneSetup) {
  Ledger l = ledger("b", {"a", "b"});
  const std::string a(40, 'a');
  const std::string b(40, 'b');
  l.attempts[a + "-r1-1"] = {true, "2026-01-01T10:00:00Z", "m1", "s1"};
  // Later failures elsewhere: another machine, another setup. Neither hides m1's success.
  l.attempts[a + "-r2-1"] = {false, "2026-01-02T10:00:00Z", "m2", "s1"};
  l.attempts[a + "-r3-1"] = {false, "2026-01-03T10:00:00Z", "m1", "s2"};
  l.attempts[b + "-r2-1"] = {true, "2026-01-02T10:00:00Z", "m2", "s1"};
  const auto here = commit_states(l, "m1", "s1");
  EXPECT_EQ(here.at(a), CommitState::kMeasured);
  EXPECT_EQ(here.count(b), 0u) << "measured on m2 only: missing on m1";
  EXPECT_EQ(commit_states(l, "m2", "s1").at(a), CommitState::kFailed);
  EXPECT_EQ(commit_states(l, "m2", "s1").at(b), CommitState::kMeasured);
  EXPECT_EQ(commit_states(l, "m1", "s2").at(a), CommitState::kFailed);
  EXPECT_TRUE(commit_states(l, "m3", "s1").empty());
}

using FileSnapshot = testing::MemorySnapshot;

TEST(Ledger, ALedgerOfAnOlderPerfgateLearnsEachAttemptsMachineAndSetupFromItsFile) {
  Json json = to_json(ledger("a", {"a"}));
  const std::string id = std::string(40, 'a') + "-r-1";
  const std::string unreadable = std::string(40, 'a') + "-r-2";
  json["attempts"][id] = {{"status", "failure"}, {"started_at", "2026-01-01T00:00:00Z"}};
  json["attempts"][unreadable] = {{"status", "failure"}, {"started_at", "2026-01-02T00:00:00Z"}};
  Ledger old = read_ledger(json.dump(), "plan.json");
  EXPECT_EQ(old.attempts.at(id).environment, "");
  EXPECT_EQ(old.attempts.at(id).setup, "");

  HistoryAttempt attempt;
  attempt.identity = {std::string(40, 'a'), "r", 1};
  attempt.harness_sha = std::string(40, 'h');
  attempt.started_at = "2026-01-01T00:00:00Z";
  attempt.finished_at = "2026-01-01T00:01:00Z";
  attempt.environment = {{"id", "bench-01"}};
  attempt.configuration = {{"build", {"make"}}, {"timeout_s", 60}};
  attempt.success = false;  // a failure needs no cases, and counts for its machine alike
  attempt.errors = {{"build", "make exited with status 2"}};
  attempt.raw_path = "raw/" + id + "/";
  FileSnapshot snapshot;
  snapshot.files["attempts/" + id + ".json"] = pretty_json(to_json(attempt));
  snapshot.files["attempts/" + unreadable + ".json"] = "{not json";
  EXPECT_EQ(complete_ledger(old, snapshot, "dir:/archive"), 1u);
  EXPECT_EQ(old.attempts.at(id).environment, "bench-01");
  EXPECT_EQ(old.attempts.at(id).setup, setup_id(attempt));
  EXPECT_EQ(old.attempts.at(unreadable).environment, "") << "counts for no environment";
  EXPECT_EQ(commit_states(old, "bench-01", setup_id(attempt)).at(std::string(40, 'a')),
            CommitState::kFailed);
  // Written back with them, and read as written.
  EXPECT_EQ(to_json(old)["attempts"][id]["environment"], "bench-01");
  EXPECT_EQ(read_ledger(to_json(old).dump(), "plan.json"), old);
}

TEST(Ledger, RefusesAnAttemptStatusItDoesNotKnow) {
  Json json = to_json(ledger("a", {"a"}));
  json["attempts"][std::string(40, 'a') + "-r-1"] = {{"status", "sucess"},
                                                     {"started_at", "2026-01-01T00:00:00Z"}};
  EXPECT_THROW(read_ledger(json.dump(), "plan.json"), Error);
}

TEST(Ledger, RoundTripsThroughItsJson) {
  Ledger l = ledger("c", {"a", "b", "c"});
  l.attempts[std::string(40, 'c') + "-local-1"] = {true, "2026-01-01T10:00:00.5Z", "m1", "s1"};
  EXPECT_EQ(read_ledger(to_json(l).dump(), "plan.json"), l);
}

TEST(Ledger, RefusesALedgerOfANewerSchema) {
  Json json = to_json(ledger("a", {"a"}));
  json["schema_version"] = 2;
  try {
    read_ledger(json.dump(), "archive/plan.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("archive/plan.json: schema_version: version 2 is not supported"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
