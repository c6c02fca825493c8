#include "ab/protocol.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>

#include <fstream>
#include <functional>

#include "support/fake_executor.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;

class RecordingObserver final : public AbObserver {
 public:
  void run_finished(const AbScenarioResult&, const AbRunSample& sample) override {
    runs.push_back(std::string(side_name(sample.side)) + "-" + std::to_string(sample.pair));
  }
  void scenario_updated(const AbScenarioResult&) override { ++updates; }

  std::vector<std::string> runs;
  int updates = 0;
};

PlannedScenario scenario_named(const std::string& name) {
  PlanRequest request;
  request.sides[0].command = "./base";
  request.sides[1].command = "./head";
  ScenarioFile file;
  ScenarioSpec spec;
  spec.name = name;
  file.scenarios.push_back(spec);
  request.file = file;
  request.scenario = name;
  return plan_scenarios(request).front();
}

ProcessResult lasting(double wall_s) {
  ProcessResult result;
  result.outcome = ProcessOutcome::kExited;
  result.exit_code = 0;
  result.wall_s = wall_s;
  result.user_s = 0.01;
  result.peak_rss_mb = 10;
  return result;
}

// Answers each run from `answer`, which sees the side ("base"/"head", or "" for a process
// that is not a side, such as a profiler probe) and how many runs that side already had.
struct ScriptedExecutor {
  FakeExecutor fake;
  std::map<std::string, int> counts;

  explicit ScriptedExecutor(std::function<ProcessResult(const std::string&, int)> answer) {
    fake.on_run = [this, answer](const ProcessSpec& spec) {
      const auto side = spec.env.find("PERFGATE_AB_SIDE");
      const std::string name = side == spec.env.end() ? "" : side->second;
      fake.script.push_back(answer(name, counts[name]++));
    };
  }
};

struct Fixture {
  TempDir dir;
  RecordingObserver observer;
  AbScenarioResult result;
};

TEST(AbProtocol, RunsOneWarmupPerSideThenPairsAlternatingWhichSideGoesFirst) {
  Fixture f;
  FakeExecutor executor;
  AbProtocol protocol(executor, f.dir.path(), f.observer);
  protocol.run(scenario_named("same"), f.result);
  EXPECT_THAT(f.observer.runs, ElementsAre("base-0", "head-0", "base-1", "head-1", "head-2",
                                           "base-2", "base-3", "head-3"));
  ASSERT_EQ(executor.calls.size(), 8u);
  EXPECT_EQ(executor.calls[0].log_path, f.dir / "logs/same/base-warmup.log");
  EXPECT_EQ(executor.calls[4].log_path, f.dir / "logs/same/head-2.log");
  EXPECT_EQ(executor.calls[4].env.at("PERFGATE_AB_OUTPUT_DIR"),
            (f.dir / "runs/same/head-2").string());
  EXPECT_THAT(executor.calls[4].argv, ElementsAre("/bin/sh", "-c", "./head"));
  EXPECT_EQ(f.result.status(), ScenarioStatus::kPass);
  EXPECT_TRUE(f.result.finished);
  EXPECT_FALSE(f.result.profile.has_value());
}

PlannedScenario stat_scenario(const std::string& name, std::size_t max_pairs = 60) {
  PlannedScenario scenario = scenario_named(name);
  scenario.rules.method = AbMethod::kStat;
  scenario.rules.max_pairs = max_pairs;
  scenario.rules.budgets[AbMetric::kDuration] = {0.05, 0};  // 5%, no absolute part
  return scenario;
}

/// A run of `seconds` times 1 +- 1% by run number, alternating: a little noise.
ProcessResult wobbling(double seconds, int n) {
  return lasting(seconds * (n % 2 ? 1.01 : 0.99));
}

TEST(AbProtocol, StatMethodPassesTheSameProgramOnceItsIntervalIsBelowTheBudget) {
  Fixture f;
  ScriptedExecutor executor([](const std::string&, int n) { return wobbling(1.0, n); });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(stat_scenario("same"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kPass);
  const std::size_t pairs = f.result.measured().pair_count();
  EXPECT_GE(pairs, 6u);  // alpha 0.01 decides nothing before 6 pairs
  EXPECT_LT(pairs, 60u);
  ASSERT_TRUE(f.result.verdict->metrics[0].change.has_value());
  EXPECT_NEAR(f.result.verdict->metrics[0].change->threshold, 0.05, 1e-12);
  EXPECT_THAT(f.result.verdict->reasons[0],
              ::testing::StartsWith("every metric is within budget with 99% confidence after " +
                                    std::to_string(pairs) + " pairs: latency "));
}

TEST(AbProtocol, StatMethodCallsASlowerHeadARegressionWithItsInterval) {
  Fixture f;
  ScriptedExecutor executor(
      [](const std::string& side, int n) { return wobbling(side == "head" ? 1.2 : 1.0, n); });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(stat_scenario("slow"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kRegression);
  EXPECT_EQ(f.result.measured().pair_count(), 6u);
  EXPECT_THAT(
      f.result.verdict->reasons[0],
      ::testing::MatchesRegex("latency \\+20\\.0% \\[\\+[0-9.]+%, \\+[0-9.]+%\\] \\(budget "
                              "\\+5\\.0%\\) after 6 pairs: over budget with 99% confidence"));
}

TEST(AbProtocol, StatMethodIsInconclusiveWhenMaxPairsDoNotDecide) {
  Fixture f;
  // A head about 5% slower, right at the budget, wobbling against the base: no interval
  // of 8 pairs leaves it.
  ScriptedExecutor executor([](const std::string& side, int n) {
    return side == "head" ? lasting(1.05 * (n % 2 ? 0.97 : 1.03)) : wobbling(1.0, n);
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(stat_scenario("edge", 8), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kInconclusive);
  EXPECT_EQ(f.result.measured().pair_count(), 8u);
  EXPECT_THAT(f.result.verdict->reasons[0],
              ::testing::HasSubstr("after 8 pairs: the 99% interval still holds the budget"));
}

TEST(AbProtocol, ExcludesTheWarmupsFromTheVerdict) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int n) {
    return lasting(side == "head" && n == 0 ? 50.0 : 1.0);
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("warm"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kPass);
  EXPECT_THAT(f.result.measured()[AbMetric::kDuration].head, ElementsAre(1.0, 1.0, 1.0));
  EXPECT_DOUBLE_EQ(f.result.runs[1].duration_s, 50.0);
}

TEST(AbProtocol, RunsConfirmationPairsOnlyWhenTheFirstThreeAreNotClean) {
  Fixture f;
  // The head's second measured run (pair 2) is slow once: noisy, so two more pairs run.
  ScriptedExecutor executor(
      [](const std::string& side, int n) { return lasting(side == "head" && n == 2 ? 3.0 : 1.0); });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("confirm"), f.result);
  EXPECT_THAT(f.observer.runs,
              ElementsAre("base-0", "head-0", "base-1", "head-1", "head-2", "base-2", "base-3",
                          "head-3", "head-4", "base-4", "base-5", "head-5"));
  EXPECT_EQ(f.result.status(), ScenarioStatus::kPass);
  EXPECT_EQ(f.result.verdict->metrics[0].head_noise.discarded, 1u);
}

TEST(AbProtocol, ProfilesTheHeadOfAConfirmedRegressionOutsideTheComparison) {
  Fixture f;
  ScriptedExecutor executor(
      [](const std::string& side, int) { return lasting(side == "head" ? 4.0 : 1.0); });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("slow"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kRegression);
  ASSERT_EQ(executor.fake.calls.size(), 10u);
  EXPECT_THAT(executor.fake.calls[8].argv, ElementsAre("perf", "stat", "-e", "task-clock", "true"));
  const std::string data = (f.dir / "profile/slow.perf.data").string();
  EXPECT_THAT(executor.fake.calls[9].argv,
              ElementsAre("perf", "record", "-g", "-o", data, "--", "/bin/sh", "-c", "./head"));
  EXPECT_EQ(executor.fake.calls[9].timeout_s, kDefaultProfileLimitS);
  EXPECT_EQ(f.result.profile->tool, "perf");
  EXPECT_EQ(f.result.profile->path, data);
  EXPECT_EQ(f.result.runs.size(), 8u);
}

TEST(AbProtocol, SaysWhyNoProfileWasTakenWhenNeitherProfilerWorks) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int) {
    if (side.empty()) {
      ProcessResult missing;
      missing.error = "No such file or directory";
      return missing;
    }
    return lasting(side == "head" ? 4.0 : 1.0);
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("slow"), f.result);
  EXPECT_EQ(f.result.profile->path, "");
  EXPECT_EQ(f.result.profile->note,
            "no profile: perf does not work here (perf stat -e task-clock true: could not start: "
            "No such file or directory) and valgrind does not either (valgrind --version: could "
            "not start: No such file or directory)");
}

TEST(AbProtocol, AFailedCorrectnessCheckStopsTheScenarioWithTheReason) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int n) {
    ProcessResult result = lasting(1.0);
    if (side == "base" && n == 1) result.exit_code = 3;
    return result;
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("broken"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kError);
  EXPECT_EQ(f.result.error,
            "the base run of pair 1 is invalid evidence: exit status 3, "
            "expected 0 (log: " +
                (f.dir / "logs/broken/base-1.log").string() + ")");
  EXPECT_EQ(executor.fake.calls.size(), 3u);
  EXPECT_FALSE(f.result.verdict.has_value());
}

TEST(AbProtocol, AFailingValidatorIsInvalidEvidence) {
  Fixture f;
  PlannedScenario scenario = scenario_named("validated");
  ProcessSpec validator = scenario.side(AbSide::kHead);
  validator.argv = {"./check"};
  validator.env.erase("PERFGATE_AB_SIDE");
  scenario.validator[1] = validator;
  FakeExecutor executor;
  executor.on_run = [&](const ProcessSpec& spec) {
    ProcessResult result = executor.default_result;
    if (spec.argv == std::vector<std::string>{"./check"}) result.exit_code = 1;
    executor.script.push_back(result);
  };
  AbProtocol protocol(executor, f.dir.path(), f.observer);
  protocol.run(scenario, f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kError);
  ASSERT_EQ(executor.calls.size(), 3u);
  EXPECT_EQ(executor.calls[2].env.at("PERFGATE_AB_OUTPUT_DIR"),
            (f.dir / "runs/validated/head-warmup").string());
  EXPECT_EQ(f.result.error,
            "the head warmup run is invalid evidence: validator failed: exit status 1 (see " +
                (f.dir / "logs/validated/head-warmup.validator.log").string() +
                ") (log: " + (f.dir / "logs/validated/head-warmup.log").string() + ")");
}

TEST(AbProtocol, AFixtureThatChangesIsInvalidEvidence) {
  Fixture f;
  PlannedScenario scenario = scenario_named("fixture");
  const auto fixture = f.dir.write("input.txt", "original");
  scenario.fixtures = {fixture};
  FakeExecutor executor;
  executor.on_run = [&](const ProcessSpec&) {
    if (executor.calls.size() == 4) std::ofstream(fixture) << "changed";
  };
  AbProtocol protocol(executor, f.dir.path(), f.observer);
  protocol.run(scenario, f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kError);
  EXPECT_THAT(f.result.error, ::testing::HasSubstr("the head run of pair 1 is invalid evidence: "
                                                   "fixture " +
                                                   fixture.string() + " changed during the run"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(AbProtocol, AConfirmationPairsFailureIsItsOwnReason) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int n) {
    if (side != "head") return lasting(1.0);
    ProcessResult result = lasting(n == 2 ? 2.0 : 1.0);  // noisy head: confirmation needed
    if (n == 4) result.exit_code = 3;
    return result;
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("noisy"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kError);
  EXPECT_EQ(f.result.error,
            "the head run of confirmation pair 4 is invalid evidence: exit status 3, expected 0 "
            "(log: " +
                (f.dir / "logs/noisy/head-4.log").string() + ")");
}

TEST(AbProtocol, WithoutALimitEveryRunAfterTheBaseWarmupGetsTenTimesTheSlowestWarmup) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int n) {
    if (n == 0) return lasting(side == "base" ? 2.0 : 9.0);
    return lasting(1.0);
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("limited"), f.result);
  const auto& calls = executor.fake.calls;
  ASSERT_GE(calls.size(), 3u);
  EXPECT_EQ(calls[0].timeout_s, std::nullopt);  // the base warmup: nothing to derive from yet
  EXPECT_EQ(calls[1].timeout_s, 60);            // 10 x 2 s is below the 60 s floor
  EXPECT_EQ(calls[2].timeout_s, 90);            // 10 x the 9 s head warmup
  EXPECT_EQ(f.result.timeout_s, 90);
  EXPECT_EQ(f.result.timeout_source, "default");
}

TEST(AbProtocol, AWarmupThatTimedOutDoesNotRaiseTheStatedLimit) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int) {
    if (side == "base") return lasting(0.5);
    ProcessResult result = lasting(60);
    result.outcome = ProcessOutcome::kTimedOut;
    result.timeout_s = 60;
    return result;
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  protocol.run(scenario_named("hangs"), f.result);
  EXPECT_EQ(f.result.status(), ScenarioStatus::kError);
  EXPECT_EQ(f.result.timeout_s, 60);
  EXPECT_EQ(f.result.error, "the head warmup run is invalid evidence: timed out after 60 s (log: " +
                                (f.dir / "logs/hangs/head-warmup.log").string() + ")");
}

TEST(AbProtocol, AnInterruptedRunLeavesTheScenarioUnfinishedAndUnrecorded) {
  Fixture f;
  ScriptedExecutor executor([](const std::string& side, int) {
    ProcessResult result = lasting(1.0);
    if (side == "head") {
      result.outcome = ProcessOutcome::kInterrupted;
      result.signal = SIGTERM;
    }
    return result;
  });
  AbProtocol protocol(executor.fake, f.dir.path(), f.observer);
  try {
    protocol.run(scenario_named("stopped"), f.result);
    FAIL() << "expected AbInterrupted";
  } catch (const AbInterrupted& interrupted) {
    EXPECT_EQ(interrupted.signal, SIGTERM);
  }
  EXPECT_EQ(f.result.runs.size(), 1u);
  EXPECT_FALSE(f.result.finished);
  EXPECT_EQ(f.result.error, "");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
