#include "history/archive.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "history/git_repository.hpp"
#include "model/error.hpp"
#include "support/git_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

ArchiveChange creating(std::map<std::string, std::string> files) {
  ArchiveChange change;
  change.create = std::move(files);
  change.message = "test";
  return change;
}

/// A repository with one commit on main, and an archive of the kind under test in it.
class ArchiveTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    git_ = std::make_unique<testing::GitFixture>(dir_ / "repo");
    git_->commit({{"app.c", "int main(void) { return 0; }\n"}}, "app");
    repository_ = open_git_repository(dir_ / "repo");
    archive_ = open();
  }
  std::unique_ptr<Archive> open() {
    const std::string url = GetParam() == "git" ? "git:perfgate-data" : "dir:archive";
    return open_archive(url, *repository_, dir_.path());
  }

  TempDir dir_;
  std::unique_ptr<testing::GitFixture> git_;
  std::unique_ptr<GitRepository> repository_;
  std::unique_ptr<Archive> archive_;
};

TEST_P(ArchiveTest, ANewArchiveIsEmptyUntilItsFirstPublish) {
  EXPECT_FALSE(archive_->exists());
  EXPECT_EQ(archive_->snapshot()->read("plan.json"), std::nullopt);
  EXPECT_TRUE(archive_->snapshot()->list("attempts").empty());
  const PublishOutcome outcome = archive_->publish([](const ArchiveSnapshot&) {
    return creating({{"attempts/a.json", "A"}, {"raw/a/log.txt", "L"}});
  });
  EXPECT_EQ(outcome.created, 2);
  EXPECT_TRUE(archive_->exists());
  const auto snapshot = archive_->snapshot();
  EXPECT_EQ(snapshot->read("attempts/a.json"), "A");
  EXPECT_EQ(snapshot->read("raw/a/log.txt"), "L");
  EXPECT_EQ(snapshot->list("attempts"), std::vector<std::string>{"a.json"});
}

TEST_P(ArchiveTest, PublishingTheSameContentAgainIsANoOp) {
  const auto change = [](const ArchiveSnapshot&) { return creating({{"attempts/a.json", "A"}}); };
  archive_->publish(change);
  const auto before = GetParam() == "git" ? repository_->ref_target("refs/heads/perfgate-data")
                                          : std::optional<std::string>();
  const PublishOutcome again = archive_->publish(change);
  EXPECT_FALSE(again.changed());
  EXPECT_EQ(again.skipped, 1);
  if (GetParam() == "git") {
    EXPECT_EQ(repository_->ref_target("refs/heads/perfgate-data"), before) << "no empty commit";
  }
}

TEST_P(ArchiveTest, ConflictingContentUnderAnExistingNameChangesNothing) {
  archive_->publish([](const ArchiveSnapshot&) { return creating({{"attempts/a.json", "A"}}); });
  try {
    archive_->publish([](const ArchiveSnapshot&) {
      return creating({{"attempts/a.json", "B"}, {"attempts/b.json", "new"}});
    });
    FAIL() << "a conflicting attempt was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what())
                  .find("attempts/a.json: the archive already holds different content"),
              std::string::npos)
        << error.what();
  }
  const auto snapshot = archive_->snapshot();
  EXPECT_EQ(snapshot->read("attempts/a.json"), "A");
  EXPECT_EQ(snapshot->read("attempts/b.json"), std::nullopt)
      << "nothing of the refused change lands";
}

TEST_P(ArchiveTest, ReplacedFilesChangeOnlyWhenTheirBytesDo) {
  const auto change = [](const std::string& text) {
    return [text](const ArchiveSnapshot&) {
      ArchiveChange c;
      c.replace["plan.json"] = text;
      return c;
    };
  };
  EXPECT_EQ(archive_->publish(change("1")).replaced, 1);
  EXPECT_EQ(archive_->publish(change("1")).replaced, 0);
  EXPECT_EQ(archive_->publish(change("2")).replaced, 1);
  EXPECT_EQ(archive_->snapshot()->read("plan.json"), "2");
}

TEST_P(ArchiveTest, TwoRacingPublishersBothLand) {
  // Each process publishes its own attempts and appends its name to a shared ledger, 10
  // times; a publisher that loses a race must merge into what the other wrote.
  std::vector<pid_t> children;
  for (const std::string name : {"p", "q"}) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      int status = 0;
      try {
        auto repository = open_git_repository(dir_ / "repo");
        auto archive = open_archive(GetParam() == "git" ? "git:perfgate-data" : "dir:archive",
                                    *repository, dir_.path());
        for (int i = 0; i < 10; ++i) {
          const std::string id = name + std::to_string(i);
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
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const auto snapshot = archive_->snapshot();
  EXPECT_EQ(snapshot->list("attempts").size(), 20u);
  const std::string ledger = snapshot->read("plan.json").value_or("");
  for (const std::string name : {"p", "q"}) {
    for (int i = 0; i < 10; ++i) {
      EXPECT_NE(ledger.find(name + std::to_string(i) + "\n"), std::string::npos)
          << name << i << " lost from the ledger:\n"
          << ledger;
    }
  }
  EXPECT_EQ(std::count(ledger.begin(), ledger.end(), '\n'), 20);
}

INSTANTIATE_TEST_SUITE_P(Backends, ArchiveTest, ::testing::Values("git", "dir"),
                         [](const auto& info) { return info.param; });

TEST(GitArchive, PublishesWithoutTouchingTheWorkTreeOrHead) {
  TempDir dir;
  testing::GitFixture git(dir / "repo");
  const std::string head = git.commit({{"app.c", "x"}}, "app");
  auto repository = open_git_repository(dir / "repo");
  auto archive = open_archive("git:perfgate-data", *repository, dir.path());
  archive->publish([](const ArchiveSnapshot&) { return creating({{"attempts/a.json", "A"}}); });
  EXPECT_EQ(git.rev("HEAD"), head);
  EXPECT_EQ(git.git({"status", "--porcelain"}), "");
  EXPECT_FALSE(fs::exists(dir / "repo" / "attempts"));
  EXPECT_EQ(git.git({"show", "perfgate-data:attempts/a.json"}), "A");
}

TEST(GitArchive, NamesAStaleRefLockItsAgeAndHowToRemoveIt) {
  TempDir dir;
  testing::GitFixture git(dir / "repo");
  git.commit({{"app.c", "x"}}, "app");
  auto repository = open_git_repository(dir / "repo");
  auto archive = open_archive("git:perfgate-data", *repository, dir.path());
  archive->publish([](const ArchiveSnapshot&) { return creating({{"attempts/a.json", "A"}}); });
  // A git process that died while moving the branch left its lock behind.
  const fs::path lock = dir / "repo/.git/refs/heads/perfgate-data.lock";
  { std::ofstream(lock) << "0000000000000000000000000000000000000000\n"; }
  fs::last_write_time(lock, fs::file_time_type::clock::now() - std::chrono::minutes(10));
  try {
    archive->publish([](const ArchiveSnapshot&) { return creating({{"attempts/b.json", "B"}}); });
    FAIL() << "published past a lock";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    const std::string message = error.what();
    EXPECT_NE(message.find("refs/heads/perfgate-data is locked by " + lock.string() + " (6"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("s old); nothing was published"), std::string::npos) << message;
    EXPECT_NE(message.find("remove it (rm '" + lock.string() + "')"), std::string::npos);
  }
  fs::remove(lock);
  EXPECT_EQ(
      archive->publish([](const ArchiveSnapshot&) {
               return creating({{"attempts/b.json", "B"}});
             })
          .created,
      1);
}

TEST(DirArchive, AMistypedPathDoesNotGrowFolders) {
  TempDir dir;
  testing::GitFixture git(dir / "repo");
  git.commit({{"app.c", "x"}}, "app");
  auto repository = open_git_repository(dir / "repo");
  auto archive = open_archive("dir:no/such/archive", *repository, dir.path());
  try {
    archive->publish([](const ArchiveSnapshot&) { return creating({{"attempts/a.json", "A"}}); });
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
  }
  EXPECT_FALSE(fs::exists(dir / "no"));
}

TEST(Archive, RefusesAnUnknownUrl) {
  TempDir dir;
  testing::GitFixture git(dir / "repo");
  git.commit({{"app.c", "x"}}, "app");
  auto repository = open_git_repository(dir / "repo");
  EXPECT_THROW(open_archive("s3://bucket", *repository, dir.path()), Error);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
