// perfgate worker, end to end: the real binary, a real PostgreSQL server and a repository
// the test builds. The fleet test kills runners at random and checks that every commit is
// measured exactly once anyway.
#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <random>
#include <thread>

#include "fleet/work_queue.hpp"
#include "model/json.hpp"
#include "store/postgres_connection.hpp"
#include "support/background_perfgate.hpp"
#include "support/cli_runner.hpp"
#include "support/git_fixture.hpp"
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

constexpr const char* kProject = R"(
[run]
num_warmup_runs = 0
num_measurement_runs = 1

[history]
build = ["sh build.sh"]
suite = "benchmarks/"
)";

const std::map<std::string, std::string> kFiles = {
    {"perfgate.toml", kProject},
    {"build.sh", "mkdir -p out && printf '#!/bin/sh\\nexit 0\\n' > out/app && chmod +x out/app\n"},
    {"benchmarks/app.toml", "benchmark_id = \"app\"\ncommand = [\"out/app\"]\n"},
};

class WorkerCommand : public ::testing::Test {
 protected:
  WorkerCommand() : git_(dir_ / "repo"), url_(new_postgres_test_database()) {}

  std::vector<std::string> commits(int count) {
    std::vector<std::string> shas = {git_.commit(kFiles, "perfgate: monitor main")};
    for (int i = 1; i < count; ++i) {
      shas.push_back(git_.commit({{"NOTES", std::to_string(i) + "\n"}}, "note"));
    }
    return shas;
  }

  testing::CliResult perfgate(std::vector<std::string> args) {
    return run_perfgate(args, git_.dir(), {{"PERFGATE_STORE", url_}});
  }

  std::unique_ptr<testing::BackgroundPerfgate> start_worker(int index) {
    const fs::path home = dir_ / ("worker-" + std::to_string(index));
    fs::create_directories(home);
    return std::make_unique<testing::BackgroundPerfgate>(
        std::vector<std::string>{"worker", "--repo", git_.dir().string(), "--environment", "fleet",
                                 "--worker-id", "w" + std::to_string(index), "--lease", "3",
                                 "--poll", "1", "--work-dir", (home / "work").string()},
        home, std::map<std::string, std::string>{{"PERFGATE_STORE", url_}});
  }

  TempDir dir_;
  testing::GitFixture git_;
  std::string url_;
};

TEST_F(WorkerCommand, EnqueuesRevisionsOnceAndRefusesAStoreThatIsNotPostgres) {
  const auto shas = commits(3);
  const auto first = perfgate({"worker", "enqueue", "HEAD~1", "HEAD", "--environment", "box-1"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("queued 2 commits for box-1 (0 were already queued)"));
  const auto again = perfgate({"worker", "enqueue", "HEAD~1", "HEAD", "--environment", "box-1"});
  EXPECT_THAT(again.out, HasSubstr("queued 0 commits for box-1 (2 were already queued)"));
  const auto listed = perfgate({"worker", "status", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const Json items = Json::parse(listed.out)["items"];
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]["commit"], shas[1]);
  EXPECT_EQ(items[1]["commit"], shas[2]);
  EXPECT_EQ(items[0]["state"], "queued");

  const auto sqlite =
      run_perfgate({"worker", "--environment", "box-1", "--store", "sqlite:q.db"}, git_.dir());
  EXPECT_EQ(sqlite.exit_code, 64);
  EXPECT_THAT(sqlite.err, HasSubstr("the work queue lives in a PostgreSQL store"));
  EXPECT_FALSE(fs::exists(git_.dir() / "q.db"));
  const auto unknown = perfgate({"worker", "enqueue", "no-such-branch", "--environment", "box-1"});
  EXPECT_EQ(unknown.exit_code, 66);
}

// The issue's fleet: 4 runners, 100 commits, a random runner SIGKILLed every 2 s and
// started again. Every commit ends with exactly one successful attempt, and no claim is
// stored twice.
TEST_F(WorkerCommand, FleetMeasuresEveryCommitExactlyOnceWhileRunnersAreKilled) {
  const auto shas = commits(100);
  std::vector<std::string> enqueue = {"worker", "enqueue", "--environment", "fleet"};
  enqueue.insert(enqueue.end(), shas.begin(), shas.end());
  ASSERT_EQ(perfgate(enqueue).exit_code, 0);

  std::vector<std::unique_ptr<testing::BackgroundPerfgate>> workers;
  for (int i = 0; i < 4; ++i) workers.push_back(start_worker(i));
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 random(seed);
  WorkQueue queue(url_);
  int kills = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(4);
  for (;;) {
    const auto items = queue.list();
    const auto open = std::count_if(items.begin(), items.end(), [](const WorkItemStatus& s) {
      return s.state == "queued" || s.state == "claimed";
    });
    if (open == 0 || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const int victim = static_cast<int>(random() % workers.size());
    workers[victim]->signal(SIGKILL);
    EXPECT_EQ(workers[victim]->wait(), 128 + SIGKILL);
    workers[victim] = start_worker(victim);
    ++kills;
  }
  for (auto& worker : workers) worker->signal(SIGTERM);
  for (auto& worker : workers) EXPECT_EQ(worker->wait(), 143);

  const auto items = queue.list();
  ASSERT_EQ(items.size(), 100u);
  int reclaimed = 0;
  for (const auto& status : items) {
    EXPECT_EQ(status.state, "done") << status.item.commit_sha;
    EXPECT_EQ(status.attempts_stored, 1) << status.item.commit_sha;
    if (status.item.claim > 1) ++reclaimed;
    const auto documents = queue.attempt_documents(status.item.item_id);
    ASSERT_EQ(documents.size(), 1u);
    const Json attempt = Json::parse(documents[0]);
    EXPECT_EQ(attempt["sha"], status.item.commit_sha);
    EXPECT_EQ(attempt["status"], "success");
  }
  PgConnection db(url_);
  EXPECT_EQ(db.run("SELECT count(*) FROM perfgate.work_attempts").integer(0, 0), 100);
  EXPECT_EQ(db.run("SELECT count(*) FROM perfgate.work_attempts WHERE success").integer(0, 0), 100);
  RecordProperty("kills", kills);
  RecordProperty("reclaimed_items", reclaimed);
  EXPECT_GT(kills, 0);
}

// plan --store queues, a worker measures, publish --store brings the attempts into the
// archive once, and the export counts them.
TEST_F(WorkerCommand, PlanQueuesWorkerMeasuresAndPublishBringsTheAttemptsIntoTheArchiveOnce) {
  const auto shas = commits(3);
  const auto plan = perfgate({"history", "plan", "-o", (dir_ / "plan.json").string(), "--store",
                              url_, "--environment", "box-1"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("queued 3 commits for box-1"));
  const auto worker = perfgate({"worker", "--environment", "box-1", "--exit-when-idle",
                                "--work-dir", (dir_ / "work").string()});
  ASSERT_EQ(worker.exit_code, 0) << worker.err;
  EXPECT_THAT(worker.err, HasSubstr("nothing queued for box-1; done"));

  const auto publish = perfgate({"history", "publish", "--store", url_});
  ASSERT_EQ(publish.exit_code, 0) << publish.err;
  EXPECT_THAT(publish.out, HasSubstr("published 4 new files"));
  const auto again = perfgate({"history", "publish", "--store", url_});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("nothing to publish"));
  const auto both = perfgate({"history", "publish", "--store", url_, "--batch", "b"});
  EXPECT_EQ(both.exit_code, 64);

  const auto exported = perfgate({"history", "export", "-o", (dir_ / "history.json").string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::ifstream in(dir_ / "history.json");
  const Json history = Json::parse(in);
  EXPECT_EQ(history["coverage"],
            (Json{{"monitored", 3}, {"measured", 3}, {"failed", 0}, {"missing", 0}}));
  EXPECT_EQ(history["current"], shas[2]);
}

TEST_F(WorkerCommand, CountsInstructionsWhenTheCommitsConfigSaysSo) {
  const auto loop_app = [](int iterations) {
    return "mkdir -p out && printf '#!/bin/sh\\ni=0; while [ $i -lt " + std::to_string(iterations) +
           " ]; do i=$((i+1)); done\\n' > out/app && chmod +x out/app\n";
  };
  std::map<std::string, std::string> files = kFiles;
  files["build.sh"] = loop_app(2000);
  files["benchmarks/app.toml"] =
      "benchmark_id = \"app\"\ncommand = [\"out/app\"]\n[run_config]\n"
      "measure = [\"instructions\"]\ncounter = \"valgrind\"\n";
  const std::string base = git_.commit(files, "perfgate: monitor main, counting");
  const std::string more = git_.commit({{"build.sh", loop_app(2200)}}, "app: 10% more work");
  ASSERT_EQ(perfgate({"history", "plan", "-o", (dir_ / "plan.json").string(), "--store", url_,
                      "--environment", "box-1"})
                .exit_code,
            0);
  const auto worker = perfgate({"worker", "--environment", "box-1", "--exit-when-idle",
                                "--work-dir", (dir_ / "work").string()});
  ASSERT_EQ(worker.exit_code, 0) << worker.err;
  ASSERT_EQ(perfgate({"history", "publish", "--store", url_}).exit_code, 0);
  const auto exported = perfgate({"history", "export", "-o", (dir_ / "history.json").string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::ifstream in(dir_ / "history.json");
  const Json history = Json::parse(in);
  // One series of instructions, a point per commit, the second 10% higher (the shell's
  // start-up is in both): counted by the worker as history measure counts.
  const Json* instructions = nullptr;
  for (const Json& series : history["series"]) {
    if (series["metric"] == "instructions") instructions = &series;
  }
  ASSERT_NE(instructions, nullptr) << history.dump();
  EXPECT_EQ((*instructions)["unit"], "instructions");
  const Json& points = (*instructions)["points"];
  ASSERT_EQ(points["median"].size(), 2u) << instructions->dump();
  const auto sha_of = [&](int k) {
    return history["commits"][points["commit"][k].get<std::size_t>()]["sha"];
  };
  EXPECT_EQ(sha_of(0), base);
  EXPECT_EQ(sha_of(1), more);
  const double ratio = points["median"][1].get<double>() / points["median"][0].get<double>();
  EXPECT_GT(ratio, 1.05) << instructions->dump();
  EXPECT_LT(ratio, 1.11) << instructions->dump();
}

TEST_F(WorkerCommand, SigtermStopsTheMeasuredProgramAndGivesTheCommitBack) {
  const fs::path pid_file = dir_ / "measured.pid";
  std::map<std::string, std::string> files = kFiles;
  files["benchmarks/app.toml"] = "benchmark_id = \"app\"\ncommand = [\"sh\", \"-c\", \"echo $$ > " +
                                 pid_file.string() + "; exec sleep 60\"]\n";
  const std::string sha = git_.commit(files, "slow");
  ASSERT_EQ(perfgate({"worker", "enqueue", sha, "--environment", "box-1"}).exit_code, 0);
  testing::BackgroundPerfgate worker({"worker", "--repo", git_.dir().string(), "--environment",
                                      "box-1", "--work-dir", (dir_ / "work").string()},
                                     dir_.path(), {{"PERFGATE_STORE", url_}});
  const pid_t measured = testing::wait_for_pid_file(pid_file);
  ASSERT_GT(measured, 0);
  worker.signal(SIGTERM);
  EXPECT_EQ(worker.wait(), 143);
  EXPECT_NE(::kill(measured, 0), 0) << "the measured program outlived the worker";
  EXPECT_THAT(read_text_file(dir_ / "perfgate.err"),
              HasSubstr("interrupted; item 1 is queued again"));
  WorkQueue queue(url_);
  const auto items = queue.list();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].state, "queued");
  EXPECT_EQ(items[0].attempts_stored, 0);
}

/// Runners on a PostgreSQL server of their own, which the test restarts and whose
/// connections it cuts (issue 33, 5). The suite's program takes `app_seconds`.
class WorkerOnRestartingServer : public ::testing::Test {
 protected:
  WorkerOnRestartingServer() : git_(dir_ / "repo") {}

  std::vector<std::string> commits(int count, const std::string& app_seconds) {
    std::map<std::string, std::string> files = kFiles;
    files["benchmarks/app.toml"] =
        "benchmark_id = \"app\"\ncommand = [\"sleep\", \"" + app_seconds + "\"]\n";
    std::vector<std::string> shas = {git_.commit(files, "perfgate: monitor main")};
    for (int i = 1; i < count; ++i) {
      shas.push_back(git_.commit({{"NOTES", std::to_string(i) + "\n"}}, "note"));
    }
    std::vector<std::string> enqueue = {"worker", "enqueue", "--environment", "fleet"};
    enqueue.insert(enqueue.end(), shas.begin(), shas.end());
    EXPECT_EQ(run_perfgate(enqueue, git_.dir(), {{"PERFGATE_STORE", server_.url()}}).exit_code, 0);
    return shas;
  }

  std::unique_ptr<testing::BackgroundPerfgate> start_worker(int index, int lease_seconds) {
    const fs::path home = dir_ / ("worker-" + std::to_string(index));
    fs::create_directories(home);
    return std::make_unique<testing::BackgroundPerfgate>(
        std::vector<std::string>{"worker", "--repo", git_.dir().string(), "--environment", "fleet",
                                 "--worker-id", "w" + std::to_string(index), "--lease",
                                 std::to_string(lease_seconds), "--poll", "1", "--work-dir",
                                 (home / "work").string()},
        home, std::map<std::string, std::string>{{"PERFGATE_STORE", server_.url()}});
  }

  std::string worker_log(int index) const {
    return read_text_file(dir_ / ("worker-" + std::to_string(index)) / "perfgate.err");
  }

  /// The queue's items once none is queued or claimed, or after `limit`.
  std::vector<WorkItemStatus> items_when_finished(std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      try {
        WorkQueue queue(server_.url());
        auto items = queue.list();
        const bool open = std::any_of(items.begin(), items.end(), [](const WorkItemStatus& s) {
          return s.state == "queued" || s.state == "claimed";
        });
        if (!open || std::chrono::steady_clock::now() > deadline) return items;
      } catch (const PgConnectionLost&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }

  TempDir dir_;
  testing::GitFixture git_;
  PrivatePostgresServer server_;
};

// The issue's test: 3 runners, 20 rounds of pg_ctl restart -m immediate or
// pg_terminate_backend at random moments. No runner exits; every commit is measured and
// stored exactly once; no finished measurement is thrown away.
TEST_F(WorkerOnRestartingServer, FleetRidesOutTwentyRestartsAndTerminatedConnections) {
  constexpr int kCommits = 24;
  commits(kCommits, "0.3");
  std::vector<std::unique_ptr<testing::BackgroundPerfgate>> workers;
  for (int i = 0; i < 3; ++i) workers.push_back(start_worker(i, 30));
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 random(seed);
  int restarts = 0;
  for (int round = 0; round < 20; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200 + random() % 1000));
    if (random() % 2 == 0) {
      server_.restart();
      ++restarts;
    } else {
      server_.terminate_connections();
    }
    for (std::size_t i = 0; i < workers.size(); ++i) {
      ASSERT_FALSE(workers[i]->try_wait().has_value())
          << "round " << round << ": worker " << i
          << " exited: " << worker_log(static_cast<int>(i));
    }
  }
  const auto items = items_when_finished(std::chrono::minutes(3));
  for (auto& worker : workers) worker->signal(SIGTERM);
  for (std::size_t i = 0; i < workers.size(); ++i) {
    EXPECT_EQ(workers[i]->wait(), 143) << worker_log(static_cast<int>(i));
  }
  ASSERT_EQ(items.size(), static_cast<std::size_t>(kCommits));
  for (const auto& status : items) {
    EXPECT_EQ(status.state, "done") << status.item.commit_sha;
    EXPECT_EQ(status.attempts_stored, 1) << status.item.commit_sha;
  }
  for (int i = 0; i < 3; ++i) EXPECT_THAT(worker_log(i), Not(HasSubstr("not stored")));
  PgConnection db(server_.url());
  EXPECT_EQ(db.run("SELECT count(*) FROM perfgate.work_attempts WHERE success").integer(0, 0),
            kCommits);
  RecordProperty("restarts", restarts);
}

// One runner measures for 6 s on a 3 s lease while every connection is terminated, the
// lease renewal's own too. The renewals carry on, so the idle second runner never takes the
// item over: claim 1 is the one stored.
TEST_F(WorkerOnRestartingServer, AWorkerStartedWhileTheServerRestartsWaitsForIt) {
  // The worker's check of its store URL and its first connection both meet a server that
  // is restarting: neither refuses it, and the commit is measured once it is back.
  commits(1, "0.1");
  std::unique_ptr<testing::BackgroundPerfgate> worker;
  std::thread start([&] { worker = start_worker(0, 30); });
  for (int round = 0; round < 4; ++round) server_.restart();
  start.join();
  ASSERT_FALSE(worker->try_wait().has_value()) << worker_log(0);
  const auto items = items_when_finished(std::chrono::minutes(1));
  worker->signal(SIGTERM);
  EXPECT_EQ(worker->wait(), 143) << worker_log(0);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].state, "done") << worker_log(0);
  EXPECT_EQ(items[0].attempts_stored, 1);
}

TEST_F(WorkerOnRestartingServer, LeaseRenewalsSurviveTerminatedConnections) {
  commits(1, "6");
  auto first = start_worker(0, 3);
  WorkItemStatus claimed;
  for (int wait = 0; wait < 200 && claimed.state != "claimed"; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    claimed = WorkQueue(server_.url()).list().at(0);
  }
  ASSERT_EQ(claimed.state, "claimed") << worker_log(0);
  auto second = start_worker(1, 3);
  for (int cut = 0; cut < 4; ++cut) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    server_.terminate_connections();
  }
  const auto items = items_when_finished(std::chrono::minutes(1));
  first->signal(SIGTERM);
  second->signal(SIGTERM);
  EXPECT_EQ(first->wait(), 143) << worker_log(0);
  EXPECT_EQ(second->wait(), 143) << worker_log(1);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].state, "done");
  EXPECT_EQ(items[0].item.claim, 1) << worker_log(0) << worker_log(1);
  EXPECT_EQ(items[0].attempts_stored, 1);
  EXPECT_THAT(worker_log(0), HasSubstr("lease renewal(s) failed"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
