// perfgate bisect, end to end: the real binary on repositories the tests build, whose
// program sleeps for as long as a file of the commit says, so that the slower commit is
// known and its change (20 ms -> 40 ms) stands far above the noise of a busy test machine.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <thread>

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
commit_url = "https://git.example/repo/commit/{sha}"
)";

/// build.sh writes a program that sleeps for DELAY seconds.
const std::map<std::string, std::string> kFiles = {
    {"perfgate.toml", kProject},
    {"DELAY", "0.02\n"},
    {"build.sh",
     "mkdir -p out && printf '#!/bin/sh\\nsleep %s\\n' \"$(cat DELAY)\" > out/app && chmod +x "
     "out/app\n"},
    {"benchmarks/app.toml", "benchmark_id = \"app\"\ncommand = [\"out/app\"]\n"},
};

Json read_json(const fs::path& file) {
  std::ifstream in(file);
  return Json::parse(in);
}

class BisectCommand : public ::testing::Test {
 protected:
  BisectCommand() : git_(dir_ / "repo") {
    fs::create_directories(tmp_);
    good_ = git_.commit(kFiles, "perfgate: monitor main");
  }

  /// Commits 1..count after the good one; commit `slow` doubles the delay.
  std::vector<std::string> history(int count, int slow) {
    std::vector<std::string> shas = {good_};
    for (int i = 1; i <= count; ++i) {
      if (i == slow) {
        shas.push_back(git_.commit({{"DELAY", "0.04\n"}}, "app: sleep twice as long"));
      } else {
        shas.push_back(git_.commit({{"NOTES", "note " + std::to_string(i) + "\n"}},
                                   "note " + std::to_string(i)));
      }
    }
    return shas;
  }

  testing::CliResult perfgate(std::vector<std::string> args) {
    return run_perfgate(args, git_.dir(), {{"TMPDIR", tmp_.string()}});
  }

  /// No copy of a commit is left in the temporary folder.
  bool no_copies_left() const { return fs::is_empty(tmp_); }

  TempDir dir_;
  fs::path tmp_ = dir_ / "tmp";
  testing::GitFixture git_;
  std::string good_;
};

TEST_F(BisectCommand, NamesTheCommitThatMadeTheProgramSlowerWithItsChangeAndSteps) {
  const std::vector<std::string> shas = history(12, 7);
  const fs::path out = dir_ / "b";
  const auto result =
      perfgate({"bisect", "--good", good_, "--bad", "main", "--out", out.string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["answer"], "commit");
  EXPECT_EQ(report["commits"], 12);
  EXPECT_EQ(report["case"], "app");
  EXPECT_EQ(report["metric"], "latency");
  EXPECT_EQ(report["threshold"], 0.02);
  ASSERT_EQ(report["found"].size(), 1u);
  const Json& found = report["found"][0];
  EXPECT_EQ(found["sha"], shas[7]);
  EXPECT_EQ(found["summary"], "app: sleep twice as long");
  EXPECT_EQ(found["author"], "perfgate test <test@perfgate.invalid>");
  EXPECT_EQ(found["url"], "https://git.example/repo/commit/" + shas[7]);
  EXPECT_EQ(found["before"]["sha"], shas[6]);
  EXPECT_EQ(found["confirmed"], true);
  // 20 ms -> 40 ms. A comparison stops as soon as it decides, so how wide its interval is
  // depends on the machine's noise; what the rule guarantees is an estimate beyond the 2%
  // budget and an interval beyond half of it.
  for (const Json* change : {&found["change"], &report["change"]}) {
    EXPECT_GT((*change)["estimate"].get<double>(), 0.02) << *change;
    EXPECT_GT((*change)["lower"].get<double>(), 0.01) << *change;
    EXPECT_GT((*change)["upper"].get<double>(), (*change)["estimate"].get<double>()) << *change;
  }
  EXPECT_EQ(report["steps"][0]["kind"], "compare");
  EXPECT_EQ(report["steps"][0]["lower"], shas[0]);
  EXPECT_EQ(report["steps"][0]["upper"], shas[12]);
  EXPECT_EQ(report["steps"][0]["outcome"], "change");
  EXPECT_EQ(report["steps"][1]["kind"], "test");
  EXPECT_EQ(report["steps"][1]["commit"], shas[6]) << "the middle of 0..12";
  EXPECT_EQ(report["steps"][1]["outcome"], "like_good");
  EXPECT_EQ(report["skipped"], Json::array());
  EXPECT_LE(report["commits_measured"].get<int>(), 5);
  EXPECT_EQ(read_json(out / "report.json")["found"][0]["sha"], shas[7]);
  std::ifstream markdown(out / "report.md");
  const std::string text((std::istreambuf_iterator<char>(markdown)), {});
  EXPECT_NE(text.find("# perfgate bisect: `" + shas[7].substr(0, 12) + "` changed latency by +"),
            std::string::npos)
      << text;
  EXPECT_NE(result.err.find("[step 1] compare"), std::string::npos) << result.err;
  EXPECT_TRUE(no_copies_left());
}

TEST_F(BisectCommand, SaysNoChangeAfterTheFirstComparison) {
  history(6, 0);
  const auto result = perfgate({"bisect", "--good", good_, "--bad", "HEAD", "--budget", "25%",
                                "--out", (dir_ / "b").string()});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.out.find("no change between `" + good_.substr(0, 12) + "`"), std::string::npos)
      << result.out;
  const Json report = read_json(dir_ / "b" / "report.json");
  EXPECT_EQ(report["answer"], "no_change");
  EXPECT_EQ(report["steps"].size(), 1u);
  EXPECT_EQ(report["commits_measured"], 0);
}

TEST_F(BisectCommand, SkipsCommitsThatDoNotBuildAndNamesThem) {
  std::vector<std::string> shas = {good_};
  for (int i = 1; i <= 8; ++i) {
    std::map<std::string, std::string> files = {{"NOTES", std::to_string(i) + "\n"}};
    if (i == 3) files["build.sh"] = "exit 3\n";  // broken from 3 to 4
    if (i == 5) files["build.sh"] = kFiles.at("build.sh");
    if (i == 6) files["DELAY"] = "0.04\n";
    shas.push_back(git_.commit(files, "commit " + std::to_string(i)));
  }
  const auto result = perfgate(
      {"bisect", "--good", good_, "--bad", "main", "--out", (dir_ / "b").string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["answer"], "commit");
  EXPECT_EQ(report["found"][0]["sha"], shas[6]);
  ASSERT_GE(report["skipped"].size(), 1u);
  for (const Json& skipped : report["skipped"]) {
    EXPECT_TRUE(skipped["sha"] == shas[3] || skipped["sha"] == shas[4]) << skipped;
    EXPECT_NE(skipped["reason"].get<std::string>().find("build command 1 of 1"), std::string::npos);
  }
  EXPECT_TRUE(no_copies_left());
}

TEST_F(BisectCommand, AMergeCommitIsBisectedAlongItsFirstParentAndNamesWhatItMerged) {
  git_.commit({{"NOTES", "1\n"}}, "note 1");
  git_.checkout("feature", true);
  git_.commit({{"DELAY", "0.04\n"}}, "feature: sleep longer");
  git_.commit({{"FEATURE", "x\n"}}, "feature: more");
  git_.checkout("main");
  git_.commit({{"NOTES", "2\n"}}, "note 2");
  const std::string merge = git_.merge("feature", "Merge branch 'feature'");
  git_.commit({{"NOTES", "3\n"}}, "note 3");
  const auto result = perfgate(
      {"bisect", "--good", good_, "--bad", "main", "--out", (dir_ / "b").string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["commits"], 4) << "the first-parent path: note 1, note 2, the merge, note 3";
  EXPECT_EQ(report["found"][0]["sha"], merge);
  EXPECT_NE(report["found"][0]["merged"].get<std::string>().find("\"feature: more\""),
            std::string::npos);
}

TEST_F(BisectCommand, AnInterruptedBisectionResumesFromTheRunsItLogged) {
  const std::vector<std::string> shas = history(12, 9);
  const fs::path out = dir_ / "b";
  {
    testing::BackgroundPerfgate bisect(
        {"bisect", "--good", good_, "--bad", "main", "--out", out.string()}, git_.dir(),
        {{"TMPDIR", tmp_.string()}});
    // Interrupted once the first test step has begun: its middle commit is being built.
    const fs::path err = git_.dir() / "perfgate.err";
    for (int i = 0; i < 2000; ++i) {
      std::ifstream in(err);
      const std::string text((std::istreambuf_iterator<char>(in)), {});
      if (text.find("[step 1]") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    bisect.signal(SIGINT);
    EXPECT_EQ(bisect.wait(), 130);
  }
  EXPECT_FALSE(fs::exists(out / "report.json")) << "an interrupted bisection has no answer";
  EXPECT_TRUE(no_copies_left());
  const auto again = perfgate({"bisect", "--good", good_, "--bad", "main", "--out", out.string()});
  EXPECT_EQ(again.exit_code, 64) << "the folder exists: --resume continues it";
  EXPECT_NE(again.err.find("Pass --resume"), std::string::npos);

  const auto resumed = perfgate(
      {"bisect", "--good", good_, "--bad", "main", "--out", out.string(), "--resume", "--json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const Json report = Json::parse(resumed.out);
  EXPECT_EQ(report["found"][0]["sha"], shas[9]);
  EXPECT_GE(report["replayed_runs"].get<int>(), 2) << "the first comparison's runs";
  EXPECT_NE(resumed.err.find("resuming from"), std::string::npos);
  EXPECT_TRUE(no_copies_left());

  const auto other = perfgate({"bisect", "--good", good_, "--bad", "main", "--out", out.string(),
                               "--resume", "--budget", "10%"});
  EXPECT_EQ(other.exit_code, 65);
  EXPECT_NE(other.err.find("threshold"), std::string::npos) << other.err;
}

TEST_F(BisectCommand, RefusesBadRequestsBeforeAnythingRuns) {
  const std::vector<std::string> shas = history(3, 2);
  const fs::path out = dir_ / "b";
  const auto check = [&](std::vector<std::string> args, int code, const std::string& words) {
    args.insert(args.begin(), "bisect");
    args.push_back("--out");
    args.push_back(out.string());
    const auto result = perfgate(args);
    EXPECT_EQ(result.exit_code, code) << result.err;
    EXPECT_NE(result.err.find(words), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(out)) << "nothing written";
  };
  check({"--good", shas[3], "--bad", shas[1]}, 65, "is not on the first-parent path");
  check({"--good", "nosuch", "--bad", "main"}, 66, "--good nosuch: names no commit");
  check({"--good", good_, "--bad", "main", "--case", "ap"}, 64, "Did you mean 'app'?");
  check({"--good", good_, "--bad", "main", "--budget", "5"}, 64, "not a percentage");
  check({"--good", good_, "--bad", "main", "--metric", "instructions"}, 64,
        "pass --measure instructions");
  check({"--good", good_, "--bad", good_}, 64, "name the same commit");
  check({"--good", good_, "--bad", "main", "--max-rounds", "2"}, 64, "--max-rounds 2");
  EXPECT_TRUE(no_copies_left());
}

TEST_F(BisectCommand, CountsInstructionsWithOneRunOfEachCommitTested) {
  // A shell loop of LOOPS turns, counted under Valgrind: commit 5 makes 20% more turns.
  const std::string build =
      "mkdir -p out && printf '#!/bin/sh\\ni=0\\nwhile [ $i -lt %s ]; do i=$((i+1)); done\\n' "
      "\"$(cat LOOPS)\" > out/app && chmod +x out/app\n";
  std::vector<std::string> shas = {
      git_.commit({{"build.sh", build},
                   {"LOOPS", "2000\n"},
                   {"benchmarks/app.toml",
                    "benchmark_id = \"app\"\ncommand = [\"out/app\"]\n[run_config]\ncounter = "
                    "\"valgrind\"\n"}},
                  "app: a loop")};
  for (int i = 1; i <= 8; ++i) {
    std::map<std::string, std::string> files = {{"NOTES", std::to_string(i) + "\n"}};
    if (i == 5) files["LOOPS"] = "2400\n";
    shas.push_back(git_.commit(files, "commit " + std::to_string(i)));
  }
  const auto result = perfgate({"bisect", "--good", shas[0], "--bad", "main", "--measure",
                                "instructions", "--out", (dir_ / "b").string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["metric"], "instructions");
  EXPECT_EQ(report["threshold"], 0.005);
  EXPECT_EQ(report["found"][0]["sha"], shas[5]);
  EXPECT_EQ(report["answer"], "commit");
  for (const Json& step : report["steps"]) {
    EXPECT_EQ(step["rounds"], step["kind"] == "test" ? 1 : 2) << step;
  }
  EXPECT_GT(report["found"][0]["change"]["lower"].get<double>(), 0.05);
  EXPECT_TRUE(no_copies_left());
}

TEST_F(BisectCommand, PublishesAnAttemptOfEveryCommitItBuiltIntoTheArchive) {
  const std::vector<std::string> shas = history(6, 3);
  const fs::path out = dir_ / "b";
  const auto result = perfgate(
      {"bisect", "--good", good_, "--bad", "main", "--out", out.string(), "--publish", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["found"][0]["sha"], shas[3]);
  EXPECT_NE(result.err.find("perfgate bisect: published "), std::string::npos) << result.err;
  const std::string files = git_.git({"ls-tree", "-r", "--name-only", "perfgate-data"});
  std::vector<std::string> published;
  for (const fs::directory_entry& entry : fs::directory_iterator(out / "attempts")) {
    const std::string name = entry.path().filename().string();
    published.push_back(name.substr(0, 40));
    EXPECT_NE(files.find("attempts/" + name), std::string::npos) << name << " in\n" << files;
    const Json attempt = read_json(entry.path());
    EXPECT_EQ(attempt["status"], "success");
    EXPECT_EQ(attempt["cases"][0]["name"], "app");
    EXPECT_EQ(attempt["cases"][0]["repetitions"], 2) << "as many of the rounds as [run] measures";
    EXPECT_EQ(attempt["run"].get<std::string>().rfind("bisect-", 0), 0u);
  }
  // The ends and every commit tested: each measured once, in this bisection.
  EXPECT_EQ(published.size(), report["commits_measured"].get<std::size_t>() + 2);
  EXPECT_NE(std::find(published.begin(), published.end(), shas[3]), published.end());
  EXPECT_NE(std::find(published.begin(), published.end(), good_), published.end());
  const auto exported = perfgate({"history", "export", "-o", (dir_ / "history.json").string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_EQ(read_json(dir_ / "history.json")["coverage"]["measured"], published.size());
  EXPECT_TRUE(no_copies_left());
}

TEST_F(BisectCommand, TakesTheRunsOfTheArchivesAttemptsOnThisMachineBeforeMeasuringAny) {
  // Attempts of 40 runs: enough for every step of this search, which decides a 2x change in
  // its first rounds.
  std::string project = kProject;
  project.replace(project.find("num_measurement_runs = 2"), 24, "num_measurement_runs = 40");
  std::vector<std::string> shas = {git_.commit({{"perfgate.toml", project}}, "perfgate: 40 runs")};
  for (int i = 1; i <= 6; ++i) {
    shas.push_back(i == 3 ? git_.commit({{"DELAY", "0.04\n"}}, "app: sleep twice as long")
                          : git_.commit({{"NOTES", std::to_string(i)}}, "note"));
  }
  const auto measure_into_archive = [&](const std::string& name, const std::string& max,
                                        std::vector<std::string> environment) {
    std::vector<std::string> plan = {"history", "plan", "--max",
                                     max,       "-o",   (dir_ / (name + ".json")).string()};
    plan.insert(plan.end(), environment.begin(), environment.end());
    ASSERT_EQ(perfgate(plan).exit_code, 0);
    std::vector<std::string> measure = {"history", "measure",
                                        "--plan",  (dir_ / (name + ".json")).string(),
                                        "-o",      (dir_ / name).string()};
    measure.insert(measure.end(), environment.begin(), environment.end());
    const auto measured = perfgate(measure);
    ASSERT_EQ(measured.exit_code, 0) << measured.err;
    ASSERT_EQ(perfgate({"history", "publish", "--batch", (dir_ / name).string()}).exit_code, 0);
  };
  // Another machine's attempts (here of the bad end and the commit before it) are another
  // series: they do not count.
  measure_into_archive("elsewhere", "2", {"--environment", "another-machine"});
  const auto other = perfgate(
      {"bisect", "--good", shas[0], "--bad", "main", "--out", (dir_ / "b0").string(), "--json"});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(Json::parse(other.out)["archive_runs"], 0);
  EXPECT_EQ(Json::parse(other.out)["archive_attempts"], Json::array());

  measure_into_archive("here", "8", {});
  const auto result = perfgate(
      {"bisect", "--good", shas[0], "--bad", "main", "--out", (dir_ / "b1").string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["found"][0]["sha"], shas[3]);
  // Each round of a comparison takes a run of both ends, each round of a test one of the
  // commit tested and of both ends. A commit's first 40 runs are its archived ones; only
  // a commit whose steps took more (a busy machine makes the steps longer) is built.
  std::map<std::string, std::size_t> used;
  for (const Json& step : report["steps"]) {
    const auto rounds = step["rounds"].get<std::size_t>();
    used[step["lower"].get<std::string>()] += rounds;
    used[step["upper"].get<std::string>()] += rounds;
    if (step["kind"] == "test") used[step["commit"].get<std::string>()] += rounds;
  }
  std::size_t runs = 0;
  std::size_t archived = 0;
  std::size_t past_the_archive = 0;
  for (const auto& [sha, count] : used) {
    runs += count;
    archived += std::min<std::size_t>(count, 40);
    past_the_archive += count > 40;
  }
  EXPECT_EQ(report["runs"], runs);
  EXPECT_EQ(report["archive_runs"], archived) << "the archive's runs come first";
  EXPECT_EQ(report["commits_built"], past_the_archive) << result.err;
  ASSERT_EQ(report["archive_attempts"].size(), 7u) << "one attempt of each commit of the path";
  for (const Json& attempt : report["archive_attempts"]) {
    EXPECT_EQ(attempt.get<std::string>().find("-local-"), 40u) << attempt;
  }
  EXPECT_NE(result.err.find("runs of 7 commits from 7 attempts in git:perfgate-data count"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("building") != std::string::npos, past_the_archive > 0) << result.err;

  const auto fresh = perfgate({"bisect", "--good", shas[0], "--bad", "main", "--out",
                               (dir_ / "b2").string(), "--fresh", "--json"});
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  const Json measured = Json::parse(fresh.out);
  EXPECT_EQ(measured["found"][0]["sha"], shas[3]);
  EXPECT_EQ(measured["archive_runs"], 0);
  EXPECT_EQ(measured["commits_built"], measured["commits_measured"].get<int>() + 2);
  EXPECT_TRUE(no_copies_left());
}

TEST_F(BisectCommand, HistoryBisectTakesTheRangeOfAFlagFromAnExport) {
  const std::vector<std::string> shas = history(6, 4);
  // The export as `history export` writes it, cut down to what `history bisect` reads: a
  // flag on commit 6 against commit 2 (the points between were missing when it was made).
  Json commits = Json::array();
  for (const std::string& sha : shas) commits.push_back({{"sha", sha}});
  const Json exported = {
      {"commits", commits},
      {"series",
       {{{"id", "s-0123456789abcdef"},
         {"case", "app"},
         {"metric", "latency"},
         {"points", {{"commit", {0, 2, 6}}}},
         {"changes", Json::array()}}}},
      {"flags",
       {{{"series", "s-0123456789abcdef"}, {"commit", shas[6]}, {"previous_commit", shas[2]}}}}};
  std::ofstream(dir_ / "history.json") << exported.dump();
  const auto result = perfgate({"history", "bisect", "--from", (dir_ / "history.json").string(),
                                "--series", "s-0123456789abcdef", "--flag", shas[6].substr(0, 10),
                                "--out", (dir_ / "b").string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json report = Json::parse(result.out);
  EXPECT_EQ(report["good"]["sha"], shas[2]);
  EXPECT_EQ(report["bad"]["sha"], shas[6]);
  EXPECT_EQ(report["found"][0]["sha"], shas[4]);
  const auto missing = perfgate({"history", "bisect", "--from", (dir_ / "history.json").string(),
                                 "--series", "s-0123456789abcdef", "--change", "1"});
  EXPECT_EQ(missing.exit_code, 65);
  EXPECT_NE(missing.err.find("has 0 change points"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(git_.dir() / "perfgate-bisect"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
