#include "history/commit_plan.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

using List = std::vector<std::string>;

PlanRequest request(List monitored, std::map<std::string, CommitState> states = {}) {
  PlanRequest r;
  r.target = monitored.back();
  r.monitored = std::move(monitored);
  r.states = std::move(states);
  return r;
}

TEST(CommitPlan, SelectsTheUnmeasuredTargetFirstThenTheOldestMissing) {
  PlanRequest r = request({"c1", "c2", "c3", "c4", "c5"});
  r.max = 3;
  const CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c5", "c1", "c2"}));
  EXPECT_EQ(plan.missing, (List{"c3", "c4"}));
}

TEST(CommitPlan, AMeasuredTargetLeavesRoomForTheBacklog) {
  PlanRequest r = request({"c1", "c2", "c3"}, {{"c3", CommitState::kMeasured}});
  r.max = 8;
  const CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c1", "c2"}));
  EXPECT_EQ(plan.measured, (List{"c3"}));
  EXPECT_TRUE(plan.missing.empty());
}

TEST(CommitPlan, FailedCommitsWaitForRetrySoTheyCannotStarveTheBacklog) {
  PlanRequest r =
      request({"c1", "c2", "c3"}, {{"c1", CommitState::kFailed}, {"c3", CommitState::kMeasured}});
  r.max = 1;
  CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c2"}));
  EXPECT_EQ(plan.failed, (List{"c1"}));
  r.retry = true;
  plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c1"}));
  EXPECT_EQ(plan.missing, (List{"c2"}));
}

TEST(CommitPlan, AnExplicitCommitIsMeasuredAgainWhateverItsState) {
  PlanRequest r = request({"c1", "c2", "c3"}, {{"c2", CommitState::kMeasured}});
  r.commit = "c2";
  const CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c2"}));
  EXPECT_EQ(plan.missing, (List{"c1", "c3"}));
}

TEST(CommitPlan, ConfirmsFlagsFirstAWholePairAtATimeWithinTheBudget) {
  PlanRequest r = request({"c1", "c2", "c3", "c4", "c5", "c6"}, {{"c1", CommitState::kMeasured},
                                                                 {"c2", CommitState::kMeasured},
                                                                 {"c3", CommitState::kMeasured},
                                                                 {"c4", CommitState::kMeasured}});
  r.confirm = {{"c1", "c2"}, {"c2", "c3"}, {"c3", "c4"}};
  r.max = 4;
  CommitPlan plan = plan_commits(r);
  // The unmeasured target first, then c1 c2, then c3 (c2 is chosen already); the pair c3 c4
  // would need a fifth: no half confirmation.
  EXPECT_EQ(plan.selected, (List{"c6", "c1", "c2", "c3"}));
  EXPECT_EQ(plan.confirming, (List{"c1", "c2", "c3"}));
  EXPECT_EQ(plan.measured, (List{"c4"}));
  EXPECT_EQ(plan.missing, (List{"c5"}));
  r.max = 1;  // not even one pair: no half confirmation, the backlog instead
  plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c6"}));
  EXPECT_TRUE(plan.confirming.empty());
}

TEST(CommitPlan, IgnoresAFlagPairOutsideTheMonitoredCommits) {
  PlanRequest r = request({"c1", "c2"}, {{"c1", CommitState::kMeasured}});
  r.confirm = {{"zz", "c1"}};
  const CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c2"}));
  EXPECT_TRUE(plan.confirming.empty());
}

TEST(CommitPlan, RefusesACommitOutsideTheMonitoredInterval) {
  PlanRequest r = request({"c1", "c2"});
  r.commit = "zz";
  try {
    plan_commits(r);
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
  }
}

TEST(CommitPlan, ListsEveryRemainingMissingCommit) {
  List monitored;
  for (int i = 0; i < 20; ++i) monitored.push_back("c" + std::to_string(i));
  PlanRequest r = request(monitored);
  const CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected.size(), 8u);
  EXPECT_EQ(plan.selected.front(), "c19");
  EXPECT_EQ(plan.missing.size(), 12u);
  EXPECT_EQ(plan.missing.front(), "c7");
  EXPECT_EQ(plan.missing.back(), "c18");
}

TEST(CommitPlan, BridgesMeasureTheNewCommitsMeasuredNeighboursAgainWithTheBudgetLeft) {
  // c1 c2 measured, c3 failed, c4 c5 new, c6 measured: c4's flag compares it with c2 (the
  // failed c3 has no point), c5's next point is c6's.
  PlanRequest r = request({"c1", "c2", "c3", "c4", "c5", "c6"}, {{"c1", CommitState::kMeasured},
                                                                 {"c2", CommitState::kMeasured},
                                                                 {"c3", CommitState::kFailed},
                                                                 {"c6", CommitState::kMeasured}});
  r.target = "c5";
  r.bridge = true;
  r.max = 8;
  CommitPlan plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c5", "c6", "c2", "c4"})) << "each next to the commit it bridges";
  EXPECT_EQ(plan.bridging, (List{"c6", "c2"}));
  EXPECT_EQ(plan.measured, (List{"c1"}));
  EXPECT_EQ(plan.failed, (List{"c3"}));
  // Only what the new commits leave: never one new commit fewer.
  r.max = 3;
  plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c5", "c6", "c4"}));
  EXPECT_EQ(plan.bridging, (List{"c6"})) << "the target's neighbour first: it was chosen first";
  r.max = 2;
  plan = plan_commits(r);
  EXPECT_EQ(plan.selected, (List{"c5", "c4"}));
  EXPECT_TRUE(plan.bridging.empty());
  // Without bridges, with --commit, and where no neighbour has a measurement: none.
  r.max = 8;
  r.bridge = false;
  EXPECT_EQ(plan_commits(r).selected, (List{"c5", "c4"}));
  r.bridge = true;
  r.commit = "c4";
  EXPECT_EQ(plan_commits(r).selected, (List{"c4"}));
  PlanRequest fresh = request({"c1", "c2", "c3"});
  fresh.bridge = true;
  EXPECT_EQ(plan_commits(fresh).selected, (List{"c3", "c1", "c2"}));
  EXPECT_TRUE(plan_commits(fresh).bridging.empty());
}

TEST(CommitPlan, PlanFileRoundTrips) {
  PlanFile file;
  file.branch = "main";
  file.archive = "git:perfgate-data";
  file.baseline = "a";
  file.target = "c";
  file.current = "c";
  file.harness_sha = "h";
  file.harness_version = 2;
  file.created_at = "2026-12-02T06:00:00Z";
  file.retry = true;
  file.monitored = {"a", "b", "c"};
  file.plan.selected = {"c", "a"};
  file.plan.confirming = {"a"};
  file.plan.bridging = {"c"};
  file.plan.missing = {"b"};
  const PlanFile read = read_plan_file(to_json(file).dump(), "plan.json");
  EXPECT_EQ(to_json(read), to_json(file));
  EXPECT_EQ(read.plan.bridging, List{"c"});
  EXPECT_EQ(plan_file_text(file), pretty_json(to_json(file)));
  // A plan written before --confirm-flags existed has no "confirming".
  Json older = to_json(file);
  older.erase("confirming");
  EXPECT_TRUE(read_plan_file(older.dump(), "plan.json").plan.confirming.empty());
  // Nor "bridging", before bridges.
  older.erase("bridging");
  EXPECT_TRUE(read_plan_file(older.dump(), "plan.json").plan.bridging.empty());
}

TEST(CommitPlan, PlanFileTextIsTheIndentedDocument) {
  PlanFile file;
  file.branch = "r\xC3\xA9lease/\"1\"";  // UTF-8 and a quote, escaped as nlohmann escapes them
  file.archive = "dir:../archive\\x";
  file.baseline = "a";
  file.target = "c";
  file.current = "c";
  file.harness_sha = "h";
  file.harness_version = 3;
  file.created_at = "2026-12-02T06:00:00.000001Z";
  file.monitored = {"a", "b", "c"};
  file.plan.selected = {"c"};
  file.plan.missing = {"a", "b"};
  // failed and measured empty: written as []
  EXPECT_EQ(plan_file_text(file), pretty_json(to_json(file)));
  file.retry = true;
  file.plan.failed = {"a"};
  file.plan.missing = {};
  file.plan.measured = {"b"};
  EXPECT_EQ(plan_file_text(file), pretty_json(to_json(file)));
  EXPECT_EQ(read_plan_file(plan_file_text(file), "plan.json").plan.measured, List{"b"});
  // The machine, the setup and an accepted rewrite, as plan writes them.
  file.environment = "bench-02";
  file.setup = "0123456789abcdef";
  file.rewrites = {{"c", "d", "2026-12-04T10:00:00.000001Z", "reviewer"}};
  file.extensions = {{"a", "z", 3, "2026-12-04T11:00:00.000001Z", "adopter"}};
  EXPECT_EQ(plan_file_text(file), pretty_json(to_json(file)));
  const PlanFile read = read_plan_file(plan_file_text(file), "plan.json");
  EXPECT_EQ(read.environment, "bench-02");
  EXPECT_EQ(read.setup, "0123456789abcdef");
  EXPECT_EQ(read.rewrites, file.rewrites);
  EXPECT_EQ(read.extensions, file.extensions);
}

TEST(CommitPlan, RefusesAFileThatIsNotAPlan) {
  EXPECT_THROW(read_plan_file(R"({"schema_version": 1})", "x.json"), Error);
  EXPECT_THROW(read_plan_file("not json", "x.json"), Error);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
