// perfgate history, end to end: the real binary on repositories the tests build.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>
#include <utility>

#include "model/json.hpp"
#include "support/background_perfgate.hpp"
#include "support/cli_runner.hpp"
#include "support/git_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using testing::run_perfgate;

constexpr const char* kProject = R"(
[run]
num_warmup_runs = 0
num_measurement_runs = 2

[history]
build = ["sh build.sh"]
suite = "benchmarks/"
max_per_run = 8
)";

/// build.sh makes the program; a commit whose build.sh fails does not build.
const std::map<std::string, std::string> kFiles = {
    {"perfgate.toml", kProject},
    {"build.sh", "mkdir -p out && printf '#!/bin/sh\\nexit 0\\n' > out/app && chmod +x out/app\n"},
    {"benchmarks/app.toml", "benchmark_id = \"app\"\ncommand = [\"out/app\"]\n"},
};

Json read_json(const fs::path& file) {
  std::ifstream in(file);
  return Json::parse(in);
}

std::string read_plan_text(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class HistoryCommand : public ::testing::Test {
 protected:
  HistoryCommand() : git_(dir_ / "repo") {
    git_.commit({{"README", "before perfgate\n"}}, "start");
    activation_ = git_.commit(kFiles, "perfgate: monitor main");
  }

  testing::CliResult perfgate(const std::vector<std::string>& args,
                              const std::map<std::string, std::string>& env = {}) {
    return run_perfgate(args, git_.dir(), env);
  }
  std::string note(int i) {
    return git_.commit({{"NOTES", "note " + std::to_string(i) + "\n"}},
                       "note " + std::to_string(i));
  }

  /// plan + measure + publish; returns the plan.
  Json round(const std::string& name, const std::vector<std::string>& plan_flags = {}) {
    std::vector<std::string> args = {"history", "plan", "-o", (dir_ / (name + ".json")).string()};
    args.insert(args.end(), plan_flags.begin(), plan_flags.end());
    const auto plan = perfgate(args);
    EXPECT_EQ(plan.exit_code, 0) << plan.err;
    const auto measure =
        perfgate({"history", "measure", "--plan", (dir_ / (name + ".json")).string(), "-o",
                  (dir_ / name).string(), "--run", name});
    EXPECT_EQ(measure.exit_code, 0) << measure.err;
    const auto publish = perfgate({"history", "publish", "--batch", (dir_ / name).string()});
    EXPECT_EQ(publish.exit_code, 0) << publish.err;
    return read_json(dir_ / (name + ".json"));
  }

  /// Two commits on main: "note 1" (with `project` as perfgate.toml, whose flags need a rise
  /// of more than 20 ms), then "app: sleeps", whose program sleeps 50 ms. Returns both SHAs.
  std::pair<std::string, std::string> note_then_sleeping_app(std::string project) {
    project += "[history.flags]\nabsolute_ms = 20\n";
    const std::string before =
        git_.commit({{"NOTES", "note 1\n"}, {"perfgate.toml", project}}, "note 1");
    const std::string slow = git_.commit(
        {{"build.sh",
          "mkdir -p out && printf '#!/bin/sh\\nsleep 0.05\\n' > out/app && chmod +x out/app\n"}},
        "app: sleeps");
    return {before, slow};
  }

  Json exported() {
    const auto result =
        perfgate({"history", "export", "-o", (dir_ / "site" / "history.json").string(), "--force"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return read_json(dir_ / "site" / "history.json");
  }

  TempDir dir_;
  testing::GitFixture git_;
  std::string activation_;
};

TEST_F(HistoryCommand, PlansTheTargetFirstThenTheOldestAndMeasuresOneAttemptEach) {
  std::vector<std::string> commits = {activation_};
  for (int i = 1; i <= 4; ++i) commits.push_back(note(i));
  const Json plan = round("b1", {"--max", "3"});
  EXPECT_EQ(plan["baseline"], activation_) << "the first commit whose perfgate.toml has [history]";
  EXPECT_EQ(plan["monitored"], Json(commits));
  EXPECT_EQ(plan["selected"], Json({commits[4], commits[0], commits[1]}));
  EXPECT_EQ(plan["missing"], Json({commits[2], commits[3]}));
  EXPECT_EQ(read_json(dir_ / "b1" / "batch.json")["complete"], true);
  for (const auto& sha : {commits[4], commits[0], commits[1]}) {
    const Json attempt = read_json(dir_ / "b1" / "attempts" / (sha + "-b1-1.json"));
    EXPECT_EQ(attempt["status"], "success");
    EXPECT_EQ(attempt["cases"][0]["name"], "app");
    EXPECT_EQ(attempt["cases"][0]["repetitions"], 2);
  }
  // What the budget leaves measures the new commits' measured neighbours again, next to
  // them (bridges): each flag then compares two measurements of one batch.
  const Json second = round("b2");
  EXPECT_EQ(second["selected"], Json({commits[1], commits[2], commits[3], commits[4]}));
  EXPECT_EQ(second["bridging"], Json({commits[1], commits[4]}));
  EXPECT_EQ(second["measured"], Json({commits[0]}));
  const Json history = exported();
  EXPECT_EQ(history["coverage"],
            (Json{{"monitored", 5}, {"measured", 5}, {"failed", 0}, {"missing", 0}}));
  EXPECT_EQ(history["current"], commits[4]);
  EXPECT_EQ(
      git_.git({"show", "perfgate-data:baseline.json"}).find(activation_) != std::string::npos,
      true);
  // The bridges' new attempts win: every point from c1 on is batch b2's.
  for (const Json& series : history["series"]) {
    const Json& attempt = series["points"]["attempt"];
    for (std::size_t i = 1; i < attempt.size(); ++i) {
      const std::string id = history["attempts"][attempt[i].get<std::size_t>()]["id"];
      EXPECT_NE(id.find("-b2-"), std::string::npos) << id;
    }
  }
  // A bridge never displaces a new commit, and --no-bridge measures none.
  const std::string fifth = note(5);
  const std::string sixth = note(6);
  const Json third = round("b3", {"--max", "2"});
  EXPECT_EQ(third["selected"], Json({sixth, fifth}));
  EXPECT_EQ(third["bridging"], Json::array());
  const std::string seventh = note(7);
  EXPECT_EQ(round("b4", {"--no-bridge"})["selected"], Json({seventh}));
}

TEST_F(HistoryCommand, MeasuresThePlansCommitsInAlternationRunByRunUnlessInterleaveIsOne) {
  // Each run of the program appends its commit's note to one log outside the copies, so the
  // log is the order in which the runs met the machine.
  const fs::path log = dir_ / "runs.log";
  const std::string build = "mkdir -p out && printf '#!/bin/sh\\nhead -n 1 NOTES >> " +
                            log.string() + "\\n' > out/app && chmod +x out/app\n";
  round("b0");  // the activation commit, whose program logs nothing
  git_.commit({{"build.sh", build}, {"NOTES", "note 0\n"}}, "app: logs its runs");
  for (int i = 1; i <= 2; ++i) note(i);
  const auto runs_in_order = [&] {
    std::ifstream in(log);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  };
  // plan, measure, publish: what measure said.
  const auto measure = [&](const std::string& name) {
    const fs::path plan_file = dir_ / (name + ".json");
    const auto plan = perfgate({"history", "plan", "--no-bridge", "-o", plan_file.string()});
    EXPECT_EQ(plan.exit_code, 0) << plan.err;
    EXPECT_EQ(read_json(plan_file)["selected"].size(), 3u) << plan.out;
    const auto measured = perfgate({"history", "measure", "--plan", plan_file.string(), "-o",
                                    (dir_ / name).string(), "--run", name});
    EXPECT_EQ(measured.exit_code, 0) << measured.err;
    const auto publish = perfgate({"history", "publish", "--batch", (dir_ / name).string()});
    EXPECT_EQ(publish.exit_code, 0) << publish.err;
    return measured.out + measured.err;
  };

  // The default: the three commits built first, then two rounds, each commit once a round.
  const std::string said = measure("b1");
  EXPECT_NE(said.find("[1-3/3] measuring 3 commits in alternation, run by run: "),
            std::string::npos)
      << said;
  std::vector<std::string> order = runs_in_order();
  ASSERT_EQ(order.size(), 6u);
  for (const std::size_t round : {0u, 3u}) {
    EXPECT_EQ(std::set<std::string>(order.begin() + round, order.begin() + round + 3),
              (std::set<std::string>{"note 0", "note 1", "note 2"}))
        << "round from line " << round;
  }
  const Json plan = read_json(dir_ / "b1.json");
  for (const Json& sha : plan["selected"]) {
    const Json attempt =
        read_json(dir_ / "b1" / "attempts" / (sha.get<std::string>() + "-b1-1.json"));
    EXPECT_EQ(attempt["status"], "success");
    EXPECT_EQ(attempt["cases"][0]["repetitions"], 2);
  }

  // interleave = 1: one commit after the other, both of its runs together.
  fs::remove(log);
  std::string project = kProject;
  project += "interleave = 1\n";
  git_.commit({{"perfgate.toml", project}}, "perfgate: one commit at a time");
  for (int i = 3; i <= 4; ++i) note(i);
  const std::string one_by_one = measure("b2");
  EXPECT_NE(one_by_one.find("[1/3] measuring "), std::string::npos) << one_by_one;
  EXPECT_EQ(one_by_one.find("in alternation"), std::string::npos) << one_by_one;
  order = runs_in_order();
  ASSERT_EQ(order.size(), 6u);
  for (const std::size_t commit : {0u, 2u, 4u}) EXPECT_EQ(order[commit], order[commit + 1]);
  EXPECT_EQ((std::set<std::string>{order[0], order[2], order[4]}),
            (std::set<std::string>{"note 2", "note 3", "note 4"}));
}

TEST_F(HistoryCommand, ConfirmFlagsMeasuresAFlaggedCommitAndTheOneBeforeItAgain) {
  // Only a rise of more than 20 ms flags: the 50 ms sleep does, the noise of a 1 ms program
  // on a machine busy with other tests (its CPU time, its wall time) does not.
  const auto [before, slow] = note_then_sleeping_app(kProject);
  round("b1");
  Json history = exported();
  ASSERT_FALSE(history["flags"].empty());
  for (const Json& flag : history["flags"]) {
    EXPECT_EQ(flag["commit"], slow);
    EXPECT_EQ(flag["confirmation"], "not_remeasured");
  }

  const auto plan =
      perfgate({"history", "plan", "--confirm-flags", "-o", (dir_ / "b2.json").string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("confirming 2 flag commit(s) and the commit(s) before them: " +
                          before.substr(0, 12) + " " + slow.substr(0, 12)),
            std::string::npos)
      << plan.out;
  const Json planned = round("b2", {"--confirm-flags", "--force"});
  EXPECT_EQ(planned["selected"], Json({before, slow}));
  EXPECT_EQ(planned["confirming"], Json({before, slow}));
  // Measured in alternation, run by run; each commit's runs are still one case of its
  // repetitions, and one raw record.
  for (const std::string& sha : {before, slow}) {
    const Json attempt = read_json(dir_ / "b2" / "attempts" / (sha + "-b2-1.json"));
    EXPECT_EQ(attempt["status"], "success");
    EXPECT_EQ(attempt["cases"][0]["repetitions"], 2);
    std::vector<fs::path> records;
    for (const auto& entry :
         fs::directory_iterator(dir_ / "b2" / "raw" / (sha + "-b2-1") / "results")) {
      if (entry.path().extension() == ".json") records.push_back(entry.path());
    }
    ASSERT_EQ(records.size(), 1u);
    const Json raw = read_json(records[0]);
    EXPECT_EQ(raw["num_measurement_runs"], 2);
    EXPECT_EQ(raw["runs"].size(), 2u);
    EXPECT_EQ(raw["runs"][1]["index"], 1);
    EXPECT_EQ(raw["recipe"]["run_config"]["num_measurement_runs"], 2) << raw["recipe"];
  }

  history = exported();
  std::map<std::string, std::string> metric_of;
  for (const Json& series : history["series"]) metric_of[series["id"]] = series["metric"];
  int latency_flags = 0;
  for (const Json& flag : history["flags"]) {
    EXPECT_TRUE(flag["earlier"].is_object()) << flag;
    // 1 ms to 50 ms of wall time holds in both measurements, however busy the machine; CPU
    // time of so short a program may not (its MADs are then as large as the rise).
    if (metric_of[flag["series"]] != "latency") continue;
    ++latency_flags;
    EXPECT_EQ(flag["confirmation"], "confirmed") << flag;
  }
  EXPECT_EQ(latency_flags, 1) << history["flags"];
  const auto again =
      perfgate({"history", "plan", "--confirm-flags", "-o", (dir_ / "b3.json").string()});
  EXPECT_NE(again.out.find("confirming: no flag waits for a re-measurement"), std::string::npos)
      << again.out;
}

TEST_F(HistoryCommand, ConfirmationReadsTheRunsOfBothMeasurementsRoundByRound) {
  // Five runs a commit: enough to pair the two commits' runs round by round, from the raw
  // records the archive holds. A 50 ms sleep against a program that exits at once is a rise
  // in every round of both measurements, however busy the machine.
  std::string project = kProject;
  project.replace(project.find("num_measurement_runs = 2"), 24, "num_measurement_runs = 5");
  const auto [before, slow] = note_then_sleeping_app(project);
  round("b1");
  round("b2", {"--confirm-flags", "--force"});
  const Json history = exported();
  std::map<std::string, std::string> metric_of;
  for (const Json& series : history["series"]) metric_of[series["id"]] = series["metric"];
  int latency_flags = 0;
  for (const Json& flag : history["flags"]) {
    if (metric_of[flag["series"]] != "latency") continue;
    ++latency_flags;
    EXPECT_EQ(flag["commit"], slow);
    EXPECT_EQ(flag["previous_commit"], before);
    EXPECT_EQ(flag["confirmation"], "confirmed") << flag;
    for (const Json& paired : {flag["paired"], flag["earlier"]["paired"]}) {
      ASSERT_TRUE(paired.is_object()) << flag;
      EXPECT_EQ(paired["rounds"], 5);
      EXPECT_EQ(paired["rises"], true);
      // At least 50 ms over a program that takes a few: far above +100% in every round.
      EXPECT_GT(paired["lower_percent"].get<double>(), 100) << flag;
      EXPECT_GE(paired["change_percent"].get<double>(), paired["lower_percent"].get<double>());
      EXPECT_GT(paired["lower_rise"].get<double>(), 0.02) << flag;  // seconds: over 20 ms
    }
  }
  EXPECT_EQ(latency_flags, 1) << history["flags"];
}

// Instruction counts (issue 36) through history: each commit's configs ask for them, the
// counted runs happen once per commit (in the first round of the alternation), and the
// flags of a count need no absolute floor: the commit that adds work is flagged in
// instructions, the notes never are, however busy the machine running the tests.
TEST_F(HistoryCommand, CountsInstructionsAndFlagsOnlyTheCommitThatAddsWork) {
  const auto loop_app = [](int iterations) {
    return "mkdir -p out && printf '#!/bin/sh\\ni=0; while [ $i -lt " + std::to_string(iterations) +
           " ]; do i=$((i+1)); done\\n' > out/app && chmod +x out/app\n";
  };
  const std::string counted_config =
      "benchmark_id = \"app\"\ncommand = [\"out/app\"]\n[run_config]\n"
      "measure = [\"time\", \"instructions\"]\ncounter = \"valgrind\"\n";
  const std::string first = git_.commit(
      {{"build.sh", loop_app(2000)}, {"benchmarks/app.toml", counted_config}}, "app: a loop");
  const std::string note_before = note(1);
  const std::string slow = git_.commit({{"build.sh", loop_app(3000)}}, "app: 50% more work");
  const std::string note_after = note(2);
  round("b1");

  const Json attempt = read_json(dir_ / "b1" / "attempts" / (slow + "-b1-1.json"));
  ASSERT_EQ(attempt["status"], "success") << attempt;
  const Json& instructions = attempt["cases"][0]["metrics"]["instructions"];
  EXPECT_EQ(instructions["count"], 2);  // the counted runs, not the 2 repetitions' timings
  EXPECT_EQ(instructions["unit"], "instructions");
  EXPECT_EQ(instructions["mad"], 0);  // deterministic
  EXPECT_EQ(attempt["cases"][0]["metrics"]["latency"]["count"], 2);

  const Json history = exported();
  std::map<std::string, std::string> metric_of;
  for (const Json& series : history["series"]) metric_of[series["id"]] = series["metric"];
  std::vector<std::string> counted_flags;
  for (const Json& flag : history["flags"]) {
    const std::string metric = metric_of[flag["series"]];
    if (metric != "instructions" && metric != "estimated_cycles") continue;
    counted_flags.push_back(metric + " " + flag["commit"].get<std::string>());
    EXPECT_GT(flag["change_percent"].get<double>(), 30) << flag;
  }
  std::sort(counted_flags.begin(), counted_flags.end());
  EXPECT_EQ(counted_flags,
            (std::vector<std::string>{"estimated_cycles " + slow, "instructions " + slow}))
      << history["flags"];
  (void)first;
  (void)note_before;
  (void)note_after;
}

TEST_F(HistoryCommand, ACommitWithoutPerfgateTomlRunsItsCommandsInItsOwnCopyOnly) {
  // A commit from before adoption: no perfgate.toml, and a build that makes no program.
  git_.remove("perfgate.toml");
  const std::string bare = git_.commit({{"build.sh", "true\n"}}, "no perfgate.toml yet");
  git_.commit({{"perfgate.toml", kProject}, {"build.sh", kFiles.at("build.sh")}}, "adopted");
  // The checkout perfgate starts in has a program of the same name that leaves a mark.
  const fs::path own = git_.dir() / "out" / "app";
  fs::create_directories(own.parent_path());
  std::ofstream(own) << "#!/bin/sh\ntouch \"" << (dir_ / "ran-in-checkout").string() << "\"\n";
  fs::permissions(own, fs::perms::owner_all);

  ASSERT_EQ(
      perfgate({"history", "plan", "--commit", bare, "-o", (dir_ / "p.json").string()}).exit_code,
      0);
  const auto measure = perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                                 (dir_ / "b").string(), "--run", "r1"});
  EXPECT_EQ(measure.exit_code, 0) << measure.err;
  EXPECT_FALSE(fs::exists(dir_ / "ran-in-checkout")) << "the checkout's program ran";
  const Json attempt = read_json(dir_ / "b" / "attempts" / (bare + "-r1-1.json"));
  EXPECT_EQ(attempt["status"], "failure");
  EXPECT_EQ(attempt["missing_cases"], Json({"app"}));
}

TEST_F(HistoryCommand, TimeoutBoundsEveryRunOfTheSuiteAndIsRecordedAsTheFailure) {
  std::string project = kProject;
  project.replace(project.find("[history]\n"), 10, "[history]\ntimeout_s = 1\n");
  const std::string slow = git_.commit(
      {{"perfgate.toml", project},
       {"build.sh",
        "mkdir -p out && printf '#!/bin/sh\\nsleep 60\\n' > out/app && chmod +x out/app\n"}},
      "app: sleeps a minute");
  ASSERT_EQ(
      perfgate({"history", "plan", "--commit", slow, "-o", (dir_ / "p.json").string()}).exit_code,
      0);
  const auto measure = perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                                 (dir_ / "b").string(), "--run", "r1"});
  EXPECT_EQ(measure.exit_code, 0) << measure.err;
  const Json attempt = read_json(dir_ / "b" / "attempts" / (slow + "-r1-1.json"));
  EXPECT_EQ(attempt["status"], "failure");
  ASSERT_FALSE(attempt["errors"].empty());
  EXPECT_NE(attempt["errors"][0]["message"].get<std::string>().find("timed out after 1 s"),
            std::string::npos)
      << attempt["errors"];
}

TEST_F(HistoryCommand, PublishingTheSameBatchTwiceIsANoOp) {
  note(1);
  round("b1");
  const std::string tip = git_.rev("perfgate-data");
  const auto again = perfgate({"history", "publish", "--batch", (dir_ / "b1").string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("nothing to publish"), std::string::npos) << again.out;
  EXPECT_EQ(git_.rev("perfgate-data"), tip);
}

TEST_F(HistoryCommand, AFailedBuildIsAFailedAttemptThatOnlyTheTargetsValidationFails) {
  const std::string broken = git_.commit(
      {{"build.sh", "echo 'app.c:3: error: expected ;' >&2; exit 3\n"}}, "break the build");
  const std::string fixed = git_.commit({{"build.sh", kFiles.at("build.sh")}}, "fix the build");
  const auto plan = perfgate({"history", "plan", "-o", (dir_ / "p.json").string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto measure = perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                                 (dir_ / "b").string(), "--run", "r1"});
  EXPECT_EQ(measure.exit_code, 0) << "measure records failures; validate is the step that fails\n"
                                  << measure.err;
  const Json attempt = read_json(dir_ / "b" / "attempts" / (broken + "-r1-1.json"));
  EXPECT_EQ(attempt["status"], "failure");
  EXPECT_EQ(attempt["errors"][0]["stage"], "build");
  const std::string message = attempt["errors"][0]["message"];
  EXPECT_NE(message.find("build command 1 of 1 (sh build.sh) failed: exit status 3"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("app.c:3: error: expected ;"), std::string::npos) << message;
  // Every case of the suite is missing, as the seed and docs/history-json.md say.
  EXPECT_EQ(attempt["missing_cases"], Json({"app"}));
  EXPECT_TRUE(fs::exists(dir_ / "b" / "raw" / (broken + "-r1-1") / "build-1.log"));
  const auto validate = perfgate({"history", "validate", "--batch", (dir_ / "b").string()});
  EXPECT_EQ(validate.exit_code, 0) << "a failed backfill commit does not fail a valid target\n"
                                   << validate.out;
  EXPECT_NE(validate.out.find("FAILED  " + broken), std::string::npos) << validate.out;
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b").string()}).exit_code, 0);
  const Json history = exported();
  for (const Json& commit : history["commits"]) {
    EXPECT_EQ(commit["status"], commit["sha"] == broken ? "failed" : "measured");
  }
  (void)fixed;

  // The target itself failing makes validate fail, and a failed commit waits for --retry.
  const std::string again = git_.commit({{"build.sh", "exit 1\n"}}, "break it again");
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p2.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "p2.json")["failed"], Json({broken}));
  ASSERT_EQ(perfgate({"history", "measure", "--plan", (dir_ / "p2.json").string(), "-o",
                      (dir_ / "b2").string(), "--run", "r2"})
                .exit_code,
            0);
  const auto failing = perfgate({"history", "validate", "--batch", (dir_ / "b2").string()});
  EXPECT_EQ(failing.exit_code, 1) << failing.out;
  EXPECT_NE(failing.out.find("failed: its latest attempt is a failure"), std::string::npos)
      << failing.out;
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b2").string()}).exit_code, 0);
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p3.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "p3.json")["selected"], Json::array()) << "failures wait for --retry";
  EXPECT_EQ(read_json(dir_ / "p3.json")["failed"], Json({broken, again}));
  ASSERT_EQ(
      perfgate({"history", "plan", "--no-bridge", "--retry", "-o", (dir_ / "p4.json").string()})
          .exit_code,
      0);
  EXPECT_EQ(read_json(dir_ / "p4.json")["selected"], Json({again, broken})) << "the target first";
}

TEST_F(HistoryCommand, ASecondMachineNeitherHidesNorFailsTheFirstMachinesData) {
  // build.sh fails where $FAIL_HERE is set: bench-02, in this test.
  git_.commit({{"build.sh", "test -z \"$FAIL_HERE\" || { echo 'no compiler here' >&2; exit 4; }\n" +
                                kFiles.at("build.sh")}},
              "build.sh: say why it cannot build");
  const std::string second = note(1);
  const std::string third = note(2);
  round("main1", {"--environment", "main"});
  // bench-02 has measured nothing: it plans every commit, whatever main measured.
  const auto plan = perfgate({"history", "plan", "--environment", "bench-02", "--commit", second,
                              "-o", (dir_ / "p2.json").string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("on environment bench-02 in setup "), std::string::npos) << plan.out;
  EXPECT_EQ(read_json(dir_ / "p2.json")["environment"], "bench-02");
  EXPECT_EQ(read_json(dir_ / "p2.json")["selected"], Json({second}));
  // measure takes the plan's environment.
  ASSERT_EQ(perfgate({"history", "measure", "--plan", (dir_ / "p2.json").string(), "-o",
                      (dir_ / "b2").string(), "--run", "b2"})
                .exit_code,
            0);
  EXPECT_EQ(read_json(dir_ / "b2" / "attempts" / (second + "-b2-1.json"))["environment"]["id"],
            "bench-02");
  EXPECT_EQ(read_json(dir_ / "b2" / "batch.json")["environment"], "bench-02");
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b2").string()}).exit_code, 0);
  // bench-02 fails on the newest commit.
  ASSERT_EQ(perfgate({"history", "plan", "--environment", "bench-02", "--commit", third, "-o",
                      (dir_ / "p3.json").string()})
                .exit_code,
            0);
  const auto failing = perfgate({"history", "measure", "--plan", (dir_ / "p3.json").string(), "-o",
                                 (dir_ / "b3").string(), "--run", "b3"},
                                {{"FAIL_HERE", "1"}});
  ASSERT_EQ(failing.exit_code, 0) << failing.err;
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b3").string()}).exit_code, 0);

  const Json history = exported();
  std::map<std::string, std::vector<int>> points;  // by environment
  for (const Json& series : history["series"]) {
    if (series["metric"] != "latency") continue;
    for (const Json& commit : series["points"]["commit"]) {
      points[series["environment"]["id"]].push_back(commit);
    }
  }
  const int count = static_cast<int>(history["commits"].size());
  std::vector<int> all(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) all[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(points["main"], all) << "bench-02 removed none of main's points";
  EXPECT_EQ(points["bench-02"], std::vector<int>({count - 2}));
  const Json& newest = history["commits"][static_cast<std::size_t>(count - 1)];
  EXPECT_EQ(newest["status"], "measured") << "bench-02's failure is bench-02's";
  EXPECT_EQ(newest["environments"]["main"]["status"], "measured");
  EXPECT_EQ(newest["environments"]["bench-02"]["status"], "failed");
  ASSERT_EQ(history["environments"].size(), 2u);
  EXPECT_EQ(history["environments"][0]["id"], "bench-02");
  EXPECT_EQ(history["environments"][0]["current"], "failed");
  EXPECT_EQ(history["environments"][0]["coverage"],
            (Json{{"measured", 1}, {"failed", 1}, {"missing", count - 2}}));
  EXPECT_EQ(history["environments"][1]["current"], "measured");
  // main plans nothing new; bench-02 waits for --retry on its own failure only.
  ASSERT_EQ(
      perfgate({"history", "plan", "--environment", "main", "-o", (dir_ / "p4.json").string()})
          .exit_code,
      0);
  EXPECT_EQ(read_json(dir_ / "p4.json")["selected"], Json::array());
  EXPECT_EQ(read_json(dir_ / "p4.json")["failed"], Json::array());
  ASSERT_EQ(perfgate({"history", "plan", "--no-bridge", "--environment", "bench-02", "-o",
                      (dir_ / "p5.json").string()})
                .exit_code,
            0);
  EXPECT_EQ(read_json(dir_ / "p5.json")["failed"], Json({third}));
  EXPECT_EQ(read_json(dir_ / "p5.json")["measured"], Json({second}));
  // validate of bench-02's batch: its target failed there, whatever main measured.
  const auto validate = perfgate({"history", "validate", "--batch", (dir_ / "b3").string()});
  EXPECT_EQ(validate.exit_code, 1) << validate.out;
}

TEST_F(HistoryCommand, AConfigurationChangeIsMeasuredAgainInASeriesOfItsOwn) {
  note(1);
  const Json first = round("v1");
  ASSERT_EQ(first["selected"].size(), 2u);
  // harness_version 1 -> 2 in the checkout's perfgate.toml (the harness drives measure).
  std::string project = kProject;
  project += "harness_version = 2\n";
  {
    std::ofstream out(git_.dir() / "perfgate.toml");
    out << project;
  }
  // The old batch does not validate the new configuration.
  const auto stale = perfgate({"history", "validate", "--batch", (dir_ / "v1").string()});
  EXPECT_EQ(stale.exit_code, 1) << stale.out;
  EXPECT_NE(stale.out.find("measured on another machine or in another setup"), std::string::npos)
      << stale.out;
  const auto plan = perfgate({"history", "plan", "-o", (dir_ / "v2.json").string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const Json second = read_json(dir_ / "v2.json");
  EXPECT_EQ(second["selected"].size(), 2u) << plan.out;
  EXPECT_EQ(second["measured"], Json::array());
  EXPECT_NE(second["setup"], first["setup"]);
  ASSERT_EQ(perfgate({"history", "measure", "--plan", (dir_ / "v2.json").string(), "-o",
                      (dir_ / "v2").string(), "--run", "v2"})
                .exit_code,
            0);
  EXPECT_EQ(perfgate({"history", "validate", "--batch", (dir_ / "v2").string()}).exit_code, 0);
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "v2").string()}).exit_code, 0);
  const Json history = exported();
  std::vector<Json> latency;
  for (const Json& series : history["series"]) {
    if (series["metric"] == "latency") latency.push_back(series);
  }
  ASSERT_EQ(latency.size(), 2u) << "the old attempts stay, in their own series";
  EXPECT_EQ(latency[0]["points"]["commit"], Json({0, 1}));
  EXPECT_EQ(latency[1]["points"]["commit"], Json({0, 1}));
  EXPECT_NE(latency[0]["harness_version"], latency[1]["harness_version"]);
  for (const Json& attempt : history["attempts"]) EXPECT_EQ(attempt["superseded"], false);
  // A timeout is a limit, not a setting: raising it plans nothing.
  {
    std::ofstream out(git_.dir() / "perfgate.toml");
    out << project << "timeout_s = 7200\n";
  }
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "v3.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "v3.json")["selected"], Json::array());
  EXPECT_EQ(read_json(dir_ / "v3.json")["setup"], second["setup"]);
}

TEST_F(HistoryCommand, BackfillWithTodaysSuiteMakesOneContinuousSeries) {
  // Today's suite and build script, laid into every measured copy: the commit before
  // adoption has neither, and is measured all the same.
  std::string project = kProject;
  project += "suite_from = \"harness\"\nsources = [\"benchmarks/\", \"build.sh\"]\n";
  const std::string harness =
      git_.commit({{"perfgate.toml", project}}, "measure with today's suite");
  const std::string start = git_.rev("HEAD~2");
  round("h1");
  const auto plan =
      perfgate({"history", "plan", "--backfill", "5", "-o", (dir_ / "p.json").string()},
               {{"GITHUB_ACTOR", "adopter"}});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("backfill: the history now reaches 1 commit(s) further back, to " +
                          start.substr(0, 12)),
            std::string::npos)
      << plan.out;
  const Json planned = read_json(dir_ / "p.json");
  EXPECT_EQ(planned["selected"], Json({start}));
  EXPECT_EQ(planned["monitored"], Json({start, activation_, harness}));
  ASSERT_EQ(planned["extensions"].size(), 1u);
  EXPECT_EQ(planned["extensions"][0]["from"], activation_);
  EXPECT_EQ(planned["extensions"][0]["to"], start);
  EXPECT_EQ(planned["extensions"][0]["by"], "adopter");
  ASSERT_EQ(perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                      (dir_ / "b2").string(), "--run", "b2"})
                .exit_code,
            0);
  const Json attempt = read_json(dir_ / "b2" / "attempts" / (start + "-b2-1.json"));
  EXPECT_EQ(attempt["status"], "success") << attempt["errors"];
  EXPECT_EQ(attempt["configuration"]["suite_from"], "harness");
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b2").string()}).exit_code, 0);
  const Json ledger = Json::parse(git_.git({"show", "perfgate-data:plan.json"}));
  EXPECT_EQ(ledger["baseline"], activation_) << "the activation commit never moves";
  EXPECT_EQ(ledger["monitored"][0], start);
  EXPECT_EQ(ledger["extensions"][0]["commits"], 1);
  const Json history = exported();
  for (const Json& series : history["series"]) {
    if (series["metric"] != "latency") continue;
    EXPECT_EQ(series["points"]["commit"], Json({0, 1, 2}))
        << "backfilled and new points form one series";
  }
  // Nothing older than the root commit.
  const auto again =
      perfgate({"history", "plan", "--backfill", "1", "-o", (dir_ / "p2.json").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("nothing older to add"), std::string::npos) << again.out;
  EXPECT_EQ(read_json(dir_ / "p2.json")["selected"], Json::array());
  // --backfill extends an archive that exists; a first plan uses --activation.
  TempDir other;
  const auto fresh =
      perfgate({"history", "plan", "--backfill", "1", "--archive",
                "dir:" + (other.path() / "none").string(), "-o", (dir_ / "p3.json").string()});
  EXPECT_EQ(fresh.exit_code, 64) << fresh.err;
  EXPECT_NE(fresh.err.find("--activation SHA"), std::string::npos) << fresh.err;
}

TEST_F(HistoryCommand, TwoCheckoutsShareOneArchiveThroughTheirRemote) {
  // A bare repository that refuses forced pushes; this checkout and a clone of it.
  const fs::path bare = dir_ / "shared.git";
  git_.git({"init", "-q", "--bare", bare.string()});
  git_.git({"-C", bare.string(), "config", "receive.denyNonFastForwards", "true"});
  std::string project = kProject;
  project += "remote = \"origin\"\n";
  git_.commit({{"perfgate.toml", project}}, "share the archive through origin");
  git_.git({"remote", "add", "origin", bare.string()});
  git_.git({"push", "-q", "origin", "main"});
  round("a1");
  // The clone has never published: its plan fetches the archive and finds every commit
  // measured (the same machine, the same setup).
  git_.git({"clone", "-q", bare.string(), (dir_ / "clone").string()});
  testing::GitFixture clone_settings(dir_ / "clone");  // a local user for its commits
  const auto in_clone = [&](const std::vector<std::string>& args) {
    return run_perfgate(args, dir_ / "clone");
  };
  ASSERT_EQ(in_clone({"history", "plan", "-o", (dir_ / "c1.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "c1.json")["selected"], Json::array());
  EXPECT_EQ(read_json(dir_ / "c1.json")["measured"].size(), 2u);
  // A new commit there is measured and pushed; this checkout's next read sees it.
  const std::string theirs = clone_settings.commit({{"NOTES", "from the clone\n"}}, "clone note");
  clone_settings.git({"push", "-q", "origin", "main"});
  ASSERT_EQ(
      in_clone({"history", "plan", "--no-bridge", "-o", (dir_ / "c2.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "c2.json")["selected"], Json({theirs}));
  ASSERT_EQ(in_clone({"history", "measure", "--plan", (dir_ / "c2.json").string(), "-o",
                      (dir_ / "c2").string(), "--run", "c2"})
                .exit_code,
            0);
  const auto pushed = in_clone({"history", "publish", "--batch", (dir_ / "c2").string()});
  ASSERT_EQ(pushed.exit_code, 0) << pushed.err;
  const std::string remote_files =
      git_.git({"-C", bare.string(), "ls-tree", "-r", "--name-only", "perfgate-data", "attempts"});
  EXPECT_NE(remote_files.find(theirs + "-c2-1.json"), std::string::npos) << remote_files;
  EXPECT_NE(remote_files.find("-a1-1.json"), std::string::npos) << remote_files;
  const auto history = perfgate({"history", "export", "-o", (dir_ / "h.json").string()});
  ASSERT_EQ(history.exit_code, 0) << history.err;
  const Json exported_history = read_json(dir_ / "h.json");
  bool found = false;
  for (const Json& attempt : exported_history["attempts"]) found |= attempt["sha"] == theirs;
  EXPECT_TRUE(found) << "this checkout's export read what the clone pushed";
  // This checkout is behind the branch the clone measured, and has not fetched it: its plan
  // fetches the branch too, and is a late one that moves nothing back.
  const auto late = perfgate({"history", "plan", "-o", (dir_ / "a2.json").string()});
  EXPECT_EQ(late.exit_code, 0) << late.err;
  EXPECT_EQ(read_json(dir_ / "a2.json")["current"], theirs);
}

TEST_F(HistoryCommand, ARewrittenBranchIsRefusedNamingBothTips) {
  note(1);
  const std::string old_tip = note(2);
  round("b1");
  git_.git({"reset", "-q", "--hard", "HEAD~1"});
  const std::string new_tip = git_.commit({{"NOTES", "rewritten\n"}}, "rewritten note 2");
  const auto plan = perfgate({"history", "plan", "-o", (dir_ / "p.json").string()});
  EXPECT_EQ(plan.exit_code, 65) << plan.err;
  EXPECT_NE(plan.err.find("moved from " + old_tip + " to " + new_tip), std::string::npos)
      << plan.err;
  EXPECT_NE(plan.err.find("'perfgate history plan --accept-rewrite'"), std::string::npos)
      << plan.err;
  EXPECT_FALSE(fs::exists(dir_ / "p.json"));
}

TEST_F(HistoryCommand, AnAcceptedRewriteIsRecordedAndKeepsEveryAttemptAndCommit) {
  note(1);
  const std::string old_tip = note(2);
  round("b1");
  const Json before = exported();
  git_.git({"reset", "-q", "--hard", "HEAD~1"});
  const std::string new_tip = git_.commit({{"NOTES", "rewritten\n"}}, "rewritten note 2");
  const auto plan = perfgate(
      {"history", "plan", "--no-bridge", "--accept-rewrite", "-o", (dir_ / "p.json").string()},
      {{"GITHUB_ACTOR", "reviewer"}});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const Json planned = read_json(dir_ / "p.json");
  ASSERT_EQ(planned["rewrites"].size(), 1u);
  EXPECT_EQ(planned["rewrites"][0]["old_tip"], old_tip);
  EXPECT_EQ(planned["rewrites"][0]["new_tip"], new_tip);
  EXPECT_EQ(planned["rewrites"][0]["by"], "reviewer");
  EXPECT_EQ(planned["selected"], Json({new_tip})) << "only the new commit is unmeasured";
  EXPECT_EQ(read_plan_text(dir_ / "p.json"), planned.dump(2) + "\n") << "the layout of the rest";
  ASSERT_EQ(perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                      (dir_ / "b2").string(), "--run", "b2"})
                .exit_code,
            0);
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b2").string()}).exit_code, 0);
  const Json ledger = Json::parse(git_.git({"show", "perfgate-data:plan.json"}));
  EXPECT_EQ(ledger["current"], new_tip);
  ASSERT_EQ(ledger["rewrites"].size(), 1u);
  EXPECT_EQ(ledger["rewrites"][0]["old_tip"], old_tip);
  EXPECT_EQ(ledger["rewrites"][0]["by"], "reviewer");
  const Json after = exported();
  EXPECT_EQ(after["current"], new_tip);
  EXPECT_EQ(after["attempts"].size(), before["attempts"].size() + 1) << "every attempt stays";
  std::vector<std::string> monitored;
  for (const Json& commit : after["commits"]) monitored.push_back(commit["sha"]);
  EXPECT_NE(std::find(monitored.begin(), monitored.end(), old_tip), monitored.end())
      << "the rewritten-away commit stays monitored";
  EXPECT_NE(std::find(monitored.begin(), monitored.end(), new_tip), monitored.end());
  // The next plan needs no flag: the ledger's current is the new tip.
  EXPECT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p2.json").string()}).exit_code, 0);
}

TEST_F(HistoryCommand, AFastForwardMergeThatReordersParentsLosesNoCoverage) {
  const std::string b = note(1);
  git_.checkout("feature", true);
  const std::string x = git_.commit({{"feature.txt", "x\n"}}, "feature x");
  git_.checkout("main");
  const std::string c = note(2);
  round("b1");  // main: activation, b, c
  git_.checkout("feature");
  const std::string m = git_.merge("main", "merge main into feature");  // parents (x, c)
  git_.checkout("main");
  git_.git({"merge", "-q", "--ff-only", "feature"});
  ASSERT_EQ(git_.rev("main"), m);
  const Json plan = round("b2", {"--no-bridge"});
  EXPECT_EQ(plan["monitored"], Json({activation_, b, x, m, c})) << "c stays monitored";
  EXPECT_EQ(plan["selected"], Json({m, x}));
  const Json history = exported();
  EXPECT_EQ(history["coverage"]["measured"], 5);
  EXPECT_EQ(history["current"], m);
}

TEST_F(HistoryCommand, AnInterruptedMeasureKeepsFinishedAttemptsAndInventsNone) {
  // Builds after the activation commit sleep, so the signal arrives while one builds; one
  // commit after the other (interleave = 1), so that some are finished by then.
  std::string project = kProject;
  project += "interleave = 1\n";
  git_.commit({{"build.sh", "sleep 1; " + kFiles.at("build.sh")}, {"perfgate.toml", project}},
              "slow build");
  note(1);
  note(2);
  ASSERT_EQ(
      perfgate({"history", "plan", "--no-bridge", "-o", (dir_ / "p.json").string()}).exit_code, 0);
  ASSERT_EQ(read_json(dir_ / "p.json")["selected"].size(), 4u);
  testing::BackgroundPerfgate measure({"history", "measure", "--plan", (dir_ / "p.json").string(),
                                       "-o", (dir_ / "b").string(), "--run", "r1"},
                                      git_.dir());
  const fs::path attempts = dir_ / "b" / "attempts";
  for (int i = 0; i < 400; ++i) {
    std::error_code ec;
    if (fs::exists(attempts, ec) && !fs::is_empty(attempts, ec)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  measure.signal(SIGINT);
  EXPECT_EQ(measure.wait(), 130);
  const Json batch = read_json(dir_ / "b" / "batch.json");
  EXPECT_EQ(batch["complete"], false);
  EXPECT_EQ(batch["interrupted"], "interrupted by SIGINT");
  const std::size_t finished = batch["attempts"].size();
  EXPECT_GE(finished, 1u);
  EXPECT_LT(finished, 4u) << "the commit being measured when the signal came gets no attempt";
  EXPECT_EQ(static_cast<std::size_t>(
                std::distance(fs::directory_iterator(attempts), fs::directory_iterator())),
            finished);
  // The raw folders are exactly the finished attempts': the interrupted commit's went too.
  std::set<std::string> raw;
  for (const auto& entry : fs::directory_iterator(dir_ / "b" / "raw")) {
    raw.insert(entry.path().filename().string());
  }
  std::set<std::string> kept;
  for (const Json& id : batch["attempts"]) kept.insert(id.get<std::string>());
  EXPECT_EQ(raw, kept);
  EXPECT_EQ(batch["measuring"], Json::array());
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b").string()}).exit_code, 0);
  ASSERT_EQ(
      perfgate({"history", "plan", "--no-bridge", "-o", (dir_ / "p2.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "p2.json")["selected"].size(), 4u - finished)
      << "the rest are planned again";
}

TEST_F(HistoryCommand, AnInterruptedGroupInAlternationGetsNoAttemptAndIsPlannedAgain) {
  // The default interleave: the three commits are built first (each build sleeps), then
  // measured in alternation. A signal while they build leaves the group without attempts.
  git_.commit({{"build.sh", "sleep 1; " + kFiles.at("build.sh")}}, "slow build");
  note(1);
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p.json").string()}).exit_code, 0);
  ASSERT_EQ(read_json(dir_ / "p.json")["selected"].size(), 3u);
  testing::BackgroundPerfgate measure({"history", "measure", "--plan", (dir_ / "p.json").string(),
                                       "-o", (dir_ / "b").string(), "--run", "r1"},
                                      git_.dir());
  const fs::path status = dir_ / "b" / "batch.json";
  for (int i = 0; i < 400; ++i) {
    std::error_code ec;
    if (fs::exists(status, ec) && read_json(status)["measuring"].size() == 3u) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  measure.signal(SIGINT);
  EXPECT_EQ(measure.wait(), 130);
  const Json batch = read_json(status);
  EXPECT_EQ(batch["complete"], false);
  EXPECT_EQ(batch["interrupted"], "interrupted by SIGINT");
  EXPECT_EQ(batch["attempts"], Json::array());
  EXPECT_EQ(batch["measuring"], Json::array());
  EXPECT_TRUE(fs::is_empty(dir_ / "b" / "attempts"));
  std::error_code ec;
  EXPECT_TRUE(!fs::exists(dir_ / "b" / "raw", ec) || fs::is_empty(dir_ / "b" / "raw"))
      << "the group's partial raw output goes with it";
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p2.json").string()}).exit_code, 0);
  EXPECT_EQ(read_json(dir_ / "p2.json")["selected"], read_json(dir_ / "p.json")["selected"]);
}

TEST_F(HistoryCommand, AStalePlansSecondBatchIsRefusedUnlessAccepted) {
  note(1);
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p.json").string()}).exit_code, 0);
  for (const char* run : {"b1", "b2"}) {
    ASSERT_EQ(perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                        (dir_ / run).string(), "--run", run})
                  .exit_code,
              0);
  }
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b1").string()}).exit_code, 0);
  const auto stale = perfgate({"history", "publish", "--batch", (dir_ / "b2").string()});
  EXPECT_EQ(stale.exit_code, 65) << stale.out;
  EXPECT_NE(stale.err.find("nothing was published: its plan (made "), std::string::npos)
      << stale.err;
  EXPECT_NE(stale.err.find("2 of its commits were measured on the same machine in the same "
                           "setup by another batch"),
            std::string::npos)
      << stale.err;
  EXPECT_NE(stale.err.find("--accept-stale"), std::string::npos);
  Json history = exported();
  for (const Json& commit : history["commits"]) EXPECT_EQ(commit["attempts"].size(), 1u);
  // Publishing the first batch again is still a no-op, not stale.
  EXPECT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b1").string()}).exit_code, 0);
  const auto accepted =
      perfgate({"history", "publish", "--batch", (dir_ / "b2").string(), "--accept-stale"});
  EXPECT_EQ(accepted.exit_code, 0) << accepted.err;
  history = exported();
  for (const Json& commit : history["commits"]) {
    EXPECT_EQ(commit["attempts"].size(), 2u);
    EXPECT_EQ(commit["attempt"].get<std::string>().substr(41), "b2-1") << "the newer wins";
  }
}

TEST_F(HistoryCommand, AKilledMeasureLeavesNoRawFolderItsBatchDoesNotAccountFor) {
  git_.commit({{"build.sh", "sleep 1; " + kFiles.at("build.sh")}}, "slow build");
  note(1);
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "p.json").string()}).exit_code, 0);
  testing::BackgroundPerfgate measure({"history", "measure", "--plan", (dir_ / "p.json").string(),
                                       "-o", (dir_ / "b").string(), "--run", "r1"},
                                      git_.dir());
  // Killed while a commit builds: its raw folder exists, its attempt does not.
  const fs::path raw = dir_ / "b" / "raw";
  for (int i = 0; i < 400; ++i) {
    std::error_code ec;
    if (fs::exists(raw, ec) && !fs::is_empty(raw, ec)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  measure.signal(SIGKILL);
  measure.wait();
  const Json batch = read_json(dir_ / "b" / "batch.json");
  std::set<std::string> accounted;
  for (const Json& id : batch["attempts"]) accounted.insert(id.get<std::string>());
  for (const Json& id : batch["measuring"]) accounted.insert(id.get<std::string>());
  ASSERT_FALSE(batch["measuring"].empty()) << batch;
  for (const auto& entry : fs::directory_iterator(raw)) {
    EXPECT_EQ(accounted.count(entry.path().filename().string()), 1u) << entry.path();
  }
  const auto validate = perfgate({"history", "validate", "--batch", (dir_ / "b").string()});
  EXPECT_NE(validate.out.find("their partial raw output is never published: raw/" +
                              batch["measuring"][0].get<std::string>() + "/"),
            std::string::npos)
      << validate.out;
  ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / "b").string()}).exit_code, 0);
  EXPECT_EQ(git_.git({"ls-tree", "-r", "--name-only", "perfgate-data"})
                .find("raw/" + batch["measuring"][0].get<std::string>()),
            std::string::npos)
      << "the partial raw folder was published";
}

TEST_F(HistoryCommand, UncommittedChangesAreNeverMeasured) {
  note(1);
  std::ofstream(git_.dir() / "build.sh") << "exit 7\n";  // not committed
  const Json plan = round("b1");
  const Json attempt =
      read_json(dir_ / "b1" / "attempts" / (plan["selected"][0].get<std::string>() + "-b1-1.json"));
  EXPECT_EQ(attempt["status"], "success");
}

TEST_F(HistoryCommand, AnAttemptFromANewerPerfgateIsShownAsRejectedNotAsData) {
  note(1);
  const Json plan = round("b1");
  const std::string sha = plan["selected"][0];
  Json future = read_json(dir_ / "b1" / "attempts" / (sha + "-b1-1.json"));
  future["schema_version"] = 99;
  future["run"] = "future";
  future["raw_path"] = "raw/" + sha + "-future-1/";
  // Put it in the archive branch as another perfgate would have.
  git_.checkout("perfgate-data");
  git_.commit({{"attempts/" + sha + "-future-1.json", future.dump()}}, "a newer writer");
  git_.checkout("main");
  const Json history = exported();
  ASSERT_EQ(history["rejected"].size(), 1u);
  EXPECT_EQ(history["rejected"][0]["id"], sha + "-future-1");
  EXPECT_NE(history["rejected"][0]["reason"].get<std::string>().find("version 99 is not supported"),
            std::string::npos);
  EXPECT_EQ(history["coverage"]["measured"], 2);
}

TEST_F(HistoryCommand, RefusesWhatItCannotDoWithClearErrors) {
  auto result = perfgate({"history", "export", "-o", (dir_ / "h.json").string()});
  EXPECT_EQ(result.exit_code, 66) << result.err;
  EXPECT_NE(result.err.find("git:perfgate-data: the archive does not exist"), std::string::npos)
      << result.err;
  result = perfgate({"history", "publish", "--batch", (dir_ / "nope").string()});
  EXPECT_EQ(result.exit_code, 66) << result.err;
  result = perfgate({"history", "plan", "--commit", "deadbeef", "-o", (dir_ / "p.json").string()});
  EXPECT_EQ(result.exit_code, 66) << result.err;
  result = perfgate({"history", "plan", "-o", (dir_ / "p.json").string(), "--archive", "ftp:x"});
  EXPECT_EQ(result.exit_code, 64) << result.err;
  TempDir elsewhere;
  fs::remove(elsewhere / ".git");
  result = run_perfgate({"history", "plan", "-o", "p.json"}, elsewhere.path());
  EXPECT_EQ(result.exit_code, 66) << result.err;
  EXPECT_NE(result.err.find("not inside a git repository"), std::string::npos) << result.err;
  result = perfgate({"history", "plan", "-o", (dir_ / "p.json").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("git:perfgate-data does not exist yet: every commit is planned as new"),
            std::string::npos)
      << result.err;
  result = perfgate({"history", "measure", "--plan", (dir_ / "p.json").string(), "-o",
                     (dir_ / "no" / "such" / "b").string()});
  EXPECT_EQ(result.exit_code, 66) << result.err;
  EXPECT_FALSE(fs::exists(dir_ / "no")) << "a refused command leaves no folder behind";
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
