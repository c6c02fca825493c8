// A git: archive shared through a remote ([history] remote): two clones of one bare
// repository publish at once, and every attempt lands once, without a forced push.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "history/archive.hpp"
#include "history/git_repository.hpp"
#include "model/error.hpp"
#include "support/git_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

/// A bare repository that refuses every non-fast-forward push, and two clones of it.
class RemoteArchive : public ::testing::Test {
 protected:
  RemoteArchive() : a_(dir_ / "a"), b_(dir_ / "b") {
    a_.git({"init", "-q", "--bare", bare().string()});
    a_.git({"-C", bare().string(), "config", "receive.denyNonFastForwards", "true"});
    a_.git({"-C", bare().string(), "config", "receive.denyDeletes", "true"});
    for (testing::GitFixture* clone : {&a_, &b_}) {
      clone->commit({{"app.c", "int main(void) { return 0; }\n"}}, "app");
      clone->git({"remote", "add", "origin", bare().string()});
    }
  }
  fs::path bare() const { return dir_ / "shared.git"; }

  TempDir dir_;
  testing::GitFixture a_;
  testing::GitFixture b_;
};

TEST_F(RemoteArchive, TwoClonesPublishingAtOnceEachLandEveryAttemptOnceWithoutForce) {
  constexpr int kRounds = 20;
  std::vector<pid_t> children;
  for (const auto& [name, clone] : {std::pair{"a", &a_}, std::pair{"b", &b_}}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int status = 0;
      try {
        auto repository = open_git_repository(clone->dir());
        auto archive = open_archive("git:perfgate-data", *repository, clone->dir(), "origin");
        for (int i = 0; i < kRounds; ++i) {
          const std::string id = std::string(name) + std::to_string(i);
          archive->publish([&](const ArchiveSnapshot& snapshot) {
            ArchiveChange change;
            change.create["attempts/" + id + ".json"] = id;
            change.replace["plan.json"] = snapshot.read("plan.json").value_or("") + id + "\n";
            change.message = id;
            return change;
          });
        }
      } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = -1;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  // What the remote holds: one commit per publish, each on the one before (nothing was
  // forced away: the bare repository refuses a non-fast-forward), every attempt once.
  a_.git({"fetch", "-q", "origin", "perfgate-data"});
  std::istringstream count(a_.git({"rev-list", "--count", "FETCH_HEAD"}));
  int commits = 0;
  count >> commits;
  EXPECT_EQ(commits, 2 * kRounds);
  std::istringstream files(a_.git({"ls-tree", "--name-only", "FETCH_HEAD:attempts"}));
  std::set<std::string> attempts;
  for (std::string line; std::getline(files, line);) attempts.insert(line);
  EXPECT_EQ(attempts.size(), 2u * kRounds);
  // The fixture's git() drops the output's last newline.
  const std::string ledger = a_.git({"show", "FETCH_HEAD:plan.json"}) + "\n";
  for (const char* name : {"a", "b"}) {
    for (int i = 0; i < kRounds; ++i) {
      const std::string line = std::string(name) + std::to_string(i) + "\n";
      EXPECT_NE(ledger.find(line), std::string::npos) << line;
      EXPECT_EQ(ledger.find(line), ledger.rfind(line)) << line << " twice";
    }
  }
  // Each clone's own branch followed the remote: a later read there sees the other's work.
  auto repository = open_git_repository(b_.dir());
  auto archive = open_archive("git:perfgate-data", *repository, b_.dir(), "origin");
  EXPECT_EQ(archive->snapshot()->list("attempts").size(), 2u * kRounds);
}

TEST_F(RemoteArchive, AReadFetchesFirstAndADirArchiveRefusesARemote) {
  auto writer_repo = open_git_repository(a_.dir());
  open_archive("git:perfgate-data", *writer_repo, a_.dir(), "origin")
      ->publish([](const ArchiveSnapshot&) {
        ArchiveChange change;
        change.create["attempts/x.json"] = "x";
        change.message = "x";
        return change;
      });
  auto reader_repo = open_git_repository(b_.dir());
  EXPECT_FALSE(open_archive("git:perfgate-data", *reader_repo, b_.dir())->exists())
      << "without the remote, b has no archive";
  auto shared = open_archive("git:perfgate-data", *reader_repo, b_.dir(), "origin");
  EXPECT_TRUE(shared->exists());
  EXPECT_EQ(shared->snapshot()->read("attempts/x.json"), "x");
  try {
    open_archive("dir:archive", *reader_repo, b_.dir(), "origin");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
  }
  // A remote that cannot be reached is an I/O error naming it, not an empty archive.
  b_.git({"remote", "add", "gone", (dir_ / "nowhere.git").string()});
  try {
    open_archive("git:perfgate-data", *reader_repo, b_.dir(), "gone")->exists();
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_NE(std::string(error.what())
                  .find("cannot fetch refs/heads/perfgate-data from the "
                        "remote 'gone'"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
