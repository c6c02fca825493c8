#include "history/git_repository.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/error.hpp"
#include "support/git_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;
using testing::GitFixture;
using ::testing::HasSubstr;

constexpr const char* kDataRef = "refs/heads/perfgate-data";

/// Every path under `dir`, relative to it and sorted, folders included.
std::vector<std::string> tree_of(const std::filesystem::path& dir) {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    paths.push_back(entry.path().lexically_relative(dir).string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

mode_t permissions_of(const std::filesystem::path& file) {
  struct stat info {};
  if (::lstat(file.c_str(), &info) != 0) return 0;
  return info.st_mode & 07777;
}

/// main: a - b - c - m, where m merges feature (f1 - f2, branched at b) with --no-ff.
struct MergedHistory {
  std::string a, b, f1, f2, c, m;
};

MergedHistory merged_history(GitFixture& git) {
  MergedHistory h;
  h.a = git.commit({{"a.txt", "a"}}, "A");
  h.b = git.commit({{"b.txt", "b"}}, "B");
  git.checkout("feature", /*create=*/true);
  h.f1 = git.commit({{"f1.txt", "f1"}}, "F1");
  h.f2 = git.commit({{"f2.txt", "f2"}}, "F2");
  git.checkout("main");
  h.c = git.commit({{"c.txt", "c"}}, "C");
  h.m = git.merge("feature", "Merge feature");
  return h;
}

TEST(GitRepository, ResolvesABranchAFullRefHeadAndAShortSha) {
  TempDir dir;
  GitFixture git(dir.path());
  const std::string first = git.commit({{"a.txt", "one"}}, "First");
  const std::string second = git.commit({{"a.txt", "two"}}, "Second");
  const auto repo = open_git_repository(dir.path());

  EXPECT_EQ(repo->resolve("main"), second);
  EXPECT_EQ(repo->resolve("refs/heads/main"), second);
  EXPECT_EQ(repo->resolve("HEAD"), second);
  EXPECT_EQ(repo->resolve("HEAD~1"), first);
  EXPECT_EQ(repo->resolve(first.substr(0, 7)), first);
  EXPECT_EQ(repo->resolve(second), second);
}

TEST(GitRepository, ResolvesNothingForANameThatIsNoCommit) {
  TempDir dir;
  GitFixture git(dir.path());
  const auto unborn = open_git_repository(dir.path());
  EXPECT_EQ(unborn->resolve("HEAD"), std::nullopt);

  git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  EXPECT_EQ(repo->resolve("no-such-branch"), std::nullopt);
  EXPECT_EQ(repo->resolve(""), std::nullopt);
  EXPECT_EQ(repo->resolve(std::string(40, '0')), std::nullopt);
  EXPECT_EQ(repo->resolve("main:a.txt"), std::nullopt);  // a file, not a commit
}

TEST(GitRepository, DescribesACommitWithItsParentsTimeAndFirstLine) {
  TempDir dir;
  GitFixture git(dir.path());
  const MergedHistory h = merged_history(git);
  const auto repo = open_git_repository(dir.path());

  const CommitInfo root = repo->commit(h.a);
  EXPECT_EQ(root.sha, h.a);
  EXPECT_TRUE(root.parents.empty());
  EXPECT_EQ(root.time, 1'700'000'000);
  EXPECT_EQ(root.summary, "A");

  const CommitInfo merge = repo->commit(h.m);
  EXPECT_THAT(merge.parents, ElementsAre(h.c, h.f2));
  EXPECT_EQ(merge.time, 1'700'000'000 + 5 * 60);
  EXPECT_EQ(merge.summary, "Merge feature");

  const std::string long_message = git.commit({}, "Subject line\n\nThe body.\nMore body.");
  EXPECT_EQ(repo->commit(long_message).summary, "Subject line");
}

TEST(GitRepository, RefusesToDescribeAnUnknownCommitWithADataError) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  const std::string unknown(40, 'e');
  try {
    repo->commit(unknown);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_THAT(error.what(), HasSubstr(unknown));
  }
}

TEST(GitRepository, FirstParentChainFollowsOnlyFirstParentsThroughAMerge) {
  TempDir dir;
  GitFixture git(dir.path());
  const MergedHistory h = merged_history(git);
  const auto repo = open_git_repository(dir.path());

  EXPECT_THAT(repo->first_parent_chain(h.m), ElementsAre(h.m, h.c, h.b, h.a));
  EXPECT_THAT(repo->first_parent_chain(h.f2), ElementsAre(h.f2, h.f1, h.b, h.a));
}

TEST(GitRepository, FirstParentChainStopsAfterStopAtWhenItIsOnTheChain) {
  TempDir dir;
  GitFixture git(dir.path());
  const MergedHistory h = merged_history(git);
  const auto repo = open_git_repository(dir.path());

  EXPECT_THAT(repo->first_parent_chain(h.m, h.b), ElementsAre(h.m, h.c, h.b));
  EXPECT_THAT(repo->first_parent_chain(h.m, h.m), ElementsAre(h.m));
  // f1 is reachable only through the second parent: the chain runs to the root.
  EXPECT_THAT(repo->first_parent_chain(h.m, h.f1), ElementsAre(h.m, h.c, h.b, h.a));
}

TEST(GitRepository, FirstParentChainOfAShallowCloneSaysToFetchTheHistory) {
  TempDir dir;
  GitFixture git(dir.path() / "source");
  git.commit({{"a.txt", "one"}}, "First");
  const std::string tip = git.commit({{"a.txt", "two"}}, "Second");
  git.git(
      {"clone", "-q", "--depth", "1", "file://" + git.dir().string(), (dir / "shallow").string()});
  const auto repo = open_git_repository(dir / "shallow");
  try {
    repo->first_parent_chain(tip);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_THAT(error.what(), HasSubstr("git fetch --unshallow"));
  }
}

TEST(GitRepository, IsAncestorFollowsEveryParentButNeverForward) {
  TempDir dir;
  GitFixture git(dir.path());
  const MergedHistory h = merged_history(git);
  const auto repo = open_git_repository(dir.path());

  EXPECT_TRUE(repo->is_ancestor(h.a, h.m));
  EXPECT_TRUE(repo->is_ancestor(h.f1, h.m));  // through the merge's second parent
  EXPECT_TRUE(repo->is_ancestor(h.c, h.c));
  EXPECT_FALSE(repo->is_ancestor(h.m, h.a));
  EXPECT_FALSE(repo->is_ancestor(h.f1, h.c));
}

TEST(GitRepository, ObjectIdOfAFolderChangesWithACommentInsideItAndNotWithAnUnrelatedFile) {
  TempDir dir;
  GitFixture git(dir.path());
  const std::string first = git.commit(
      {{"benchmarks/sort.toml", "# sorts\nbenchmark_id = \"sort\"\n"}, {"README.md", "v1"}},
      "First");
  const std::string readme = git.commit({{"README.md", "v2"}}, "README only");
  const std::string comment = git.commit(
      {{"benchmarks/sort.toml", "# sorts a million\nbenchmark_id = \"sort\"\n"}}, "Comment");
  const auto repo = open_git_repository(dir.path());

  EXPECT_EQ(repo->object_id_at(first, "benchmarks/"), git.rev(first + ":benchmarks"));
  EXPECT_EQ(repo->object_id_at(readme, "benchmarks/"), git.rev(first + ":benchmarks"));
  EXPECT_EQ(repo->object_id_at(comment, "benchmarks"), git.rev(comment + ":benchmarks"));
  EXPECT_NE(repo->object_id_at(comment, "benchmarks"), repo->object_id_at(readme, "benchmarks"));
  EXPECT_EQ(repo->object_id_at(comment, "benchmarks/sort.toml"),
            git.rev(comment + ":benchmarks/sort.toml"));
  EXPECT_EQ(repo->object_id_at(comment, ""), git.rev(comment + "^{tree}"));
  EXPECT_EQ(repo->object_id_at(comment, "."), git.rev(comment + "^{tree}"));
  EXPECT_EQ(repo->object_id_at(comment, "missing/"), std::nullopt);
}

TEST(GitRepository, ReadsFilesAndListsFoldersAsACommitHasThem) {
  TempDir dir;
  GitFixture git(dir.path());
  const std::string binary("a\0b\xff", 4);
  const std::string first = git.commit({{"a.txt", "one"},
                                        {"bin.dat", binary},
                                        {"dir.txt", "x"},
                                        {"dir/b.txt", "two"},
                                        {"dir/sub/c.txt", "three"}},
                                       "First");
  const std::string second = git.commit({{"a.txt", "changed"}}, "Second");
  const auto repo = open_git_repository(dir.path());

  EXPECT_EQ(repo->read_file_at(first, "a.txt"), "one");
  EXPECT_EQ(repo->read_file_at(second, "a.txt"), "changed");
  EXPECT_EQ(repo->read_file_at(second, "bin.dat"), binary);
  EXPECT_EQ(repo->read_file_at(second, "dir/sub/c.txt"), "three");
  EXPECT_EQ(repo->read_file_at(second, "dir"), std::nullopt);  // a folder
  EXPECT_EQ(repo->read_file_at(second, "nope.txt"), std::nullopt);
  EXPECT_EQ(repo->read_file_at(second, "a.txt/inside"), std::nullopt);

  // Git stores "dir.txt" before "dir" (as if "dir/"); the list is sorted by name.
  EXPECT_THAT(repo->list_folder_at(second, ""), ElementsAre("a.txt", "bin.dat", "dir", "dir.txt"));
  EXPECT_THAT(repo->list_folder_at(second, "dir/"), ElementsAre("b.txt", "sub"));
  EXPECT_THAT(repo->list_folder_at(second, "dir/sub"), ElementsAre("c.txt"));
  EXPECT_TRUE(repo->list_folder_at(second, "a.txt").empty());
  EXPECT_TRUE(repo->list_folder_at(second, "missing").empty());
}

TEST(GitRepository, ExportWritesTheCommittedFilesWithTheirExecutableBitsAndLinks) {
  TempDir dir;
  GitFixture git(dir.path() / "repo");
  dir.write("repo/run.sh", "#!/bin/sh\necho hi\n");
  std::filesystem::permissions(dir / "repo/run.sh", std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  dir.write("repo/src/main.c", "int main() { return 0; }\n");
  std::filesystem::create_symlink("src/main.c", dir / "repo/latest.c");
  git.commit({}, "Files");
  // A submodule (a gitlink) has no files in this repository: the export skips it.
  git.git(
      {"update-index", "--add", "--cacheinfo", "160000," + std::string(40, '1') + ",vendor/lib"});
  git.git({"commit", "-q", "-m", "Submodule"});
  const auto repo = open_git_repository(git.dir());

  repo->export_commit(git.rev("HEAD"), dir / "export");
  EXPECT_THAT(tree_of(dir / "export"),
              ElementsAre("latest.c", "run.sh", "src", "src/main.c", "vendor"));
  EXPECT_EQ(read_text_file(dir / "export/run.sh"), "#!/bin/sh\necho hi\n");
  EXPECT_EQ(read_text_file(dir / "export/src/main.c"), "int main() { return 0; }\n");
  EXPECT_EQ(permissions_of(dir / "export/run.sh"), 0755u);
  EXPECT_EQ(permissions_of(dir / "export/src/main.c"), 0644u);
  ASSERT_TRUE(std::filesystem::is_symlink(dir / "export/latest.c"));
  EXPECT_EQ(std::filesystem::read_symlink(dir / "export/latest.c"), "src/main.c");
}

TEST(GitRepository, ExportLeavesTheRepositorysHeadIndexAndWorkTreeAlone) {
  TempDir dir;
  GitFixture git(dir.path() / "repo");
  const std::string old = git.commit({{"a.txt", "old"}, {"b.txt", "old"}}, "Old");
  git.commit({{"a.txt", "new"}, {"b.txt", "new"}}, "New");
  dir.write("repo/a.txt", "edited, not staged");
  dir.write("repo/b.txt", "staged");
  git.git({"add", "b.txt"});
  ASSERT_EQ(git.git({"status", "--porcelain"}), " M a.txt\nM  b.txt");  // refreshes the index
  const std::string head = read_text_file(dir / "repo/.git/HEAD");
  const std::string index = read_text_file(dir / "repo/.git/index");
  const auto repo = open_git_repository(git.dir());

  repo->export_commit(old, dir / "export");
  EXPECT_EQ(read_text_file(dir / "export/a.txt"), "old");
  EXPECT_EQ(read_text_file(dir / "repo/.git/HEAD"), head);
  EXPECT_EQ(read_text_file(dir / "repo/.git/index"), index);
  EXPECT_EQ(read_text_file(dir / "repo/a.txt"), "edited, not staged");
  EXPECT_EQ(read_text_file(dir / "repo/b.txt"), "staged");
  EXPECT_EQ(git.git({"status", "--porcelain"}), " M a.txt\nM  b.txt");
}

TEST(GitRepository, ExportRefusesAFolderThatIsNotEmpty) {
  TempDir dir;
  GitFixture git(dir.path() / "repo");
  const std::string sha = git.commit({{"a.txt", "one"}}, "First");
  dir.write("export/mine.txt", "keep me");
  const auto repo = open_git_repository(git.dir());
  try {
    repo->export_commit(sha, dir / "export");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_THAT(error.what(), HasSubstr((dir / "export").string()));
  }
  EXPECT_THAT(tree_of(dir / "export"), ElementsAre("mine.txt"));
}

TEST(GitRepository, OnlyChangedTrackedFilesAreUncommittedChanges) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  EXPECT_FALSE(repo->has_uncommitted_changes());

  dir.write("untracked.txt", "new");
  EXPECT_FALSE(repo->has_uncommitted_changes());

  dir.write("a.txt", "two");
  EXPECT_TRUE(repo->has_uncommitted_changes());

  git.git({"add", "a.txt"});  // staged counts too
  EXPECT_TRUE(repo->has_uncommitted_changes());
}

TEST(GitRepository, ABareRepositoryHasNoUncommittedChangesAndIsItsOwnRoot) {
  TempDir dir;
  GitFixture source(dir.path() / "source");
  source.commit({{"a.txt", "one"}}, "First");
  source.git({"clone", "-q", "--bare", ".", (dir / "bare.git").string()});
  const auto repo = open_git_repository(dir / "bare.git");
  EXPECT_FALSE(repo->has_uncommitted_changes());
  EXPECT_EQ(std::filesystem::canonical(repo->root()), std::filesystem::canonical(dir / "bare.git"));
  EXPECT_EQ(repo->resolve("main"), source.rev("HEAD"));
}

TEST(GitRepository, OpensTheRepositoryAboveASubfolder) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"src/deep/a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir / "src/deep");
  EXPECT_EQ(std::filesystem::canonical(repo->root()), std::filesystem::canonical(dir.path()));
}

TEST(GitRepository, OpeningAFolderOutsideAnyRepositoryIsANoInputError) {
  TempDir dir;
  std::filesystem::remove(dir / ".git");
  std::filesystem::create_directories(dir / "a/b");
  try {
    open_git_repository(dir / "a/b");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
    EXPECT_EQ(std::string(error.what()),
              (dir / "a/b").string() +
                  ": not inside a git repository. Run it in a clone, or pass --repo DIR");
  }
}

TEST(GitRepository, CreateCommitAndCompareAndSwapBuildABranchWithoutTouchingHeadOrWorkTree) {
  TempDir dir;
  GitFixture git(dir.path());
  const std::string head = git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  EXPECT_EQ(repo->ref_target(kDataRef), std::nullopt);

  const std::string first = repo->create_commit(
      std::nullopt, {{"attempts/x.json", "{}"}, {"raw/abc-1-1/stdout.txt", "out"}}, "Publish x");
  EXPECT_EQ(repo->ref_target(kDataRef), std::nullopt);  // only objects were written
  EXPECT_TRUE(repo->compare_and_swap_ref(kDataRef, first, std::nullopt, "publish x"));
  EXPECT_EQ(repo->ref_target(kDataRef), first);

  const std::string second = repo->create_commit(
      first, {{"attempts/y.json", "[]"}, {"raw/abc-1-1/stderr.txt", "err"}}, "Publish y");
  EXPECT_TRUE(repo->compare_and_swap_ref(kDataRef, second, first, "publish y"));

  const CommitInfo info = repo->commit(second);
  EXPECT_THAT(info.parents, ElementsAre(first));
  EXPECT_EQ(info.summary, "Publish y");
  EXPECT_THAT(repo->list_folder_at(second, "attempts"), ElementsAre("x.json", "y.json"));
  EXPECT_THAT(repo->list_folder_at(second, "raw/abc-1-1"), ElementsAre("stderr.txt", "stdout.txt"));
  EXPECT_EQ(repo->read_file_at(second, "attempts/x.json"), "{}");
  EXPECT_EQ(repo->read_file_at(second, "raw/abc-1-1/stdout.txt"), "out");

  // What git makes of it: a valid history, written by perfgate, on the branch alone.
  EXPECT_EQ(git.git({"log", "--format=%s|%an <%ae>", "perfgate-data"}),
            "Publish y|perfgate <perfgate@localhost>\nPublish x|perfgate <perfgate@localhost>");
  git.git({"fsck", "--strict", "--no-progress"});
  EXPECT_EQ(git.rev("HEAD"), head);
  EXPECT_EQ(git.git({"symbolic-ref", "HEAD"}), "refs/heads/main");
  EXPECT_EQ(git.git({"status", "--porcelain"}), "");
  EXPECT_FALSE(std::filesystem::exists(dir / "attempts"));
}

TEST(GitRepository, CreateCommitReplacesAFileAndKeepsTheRestOfTheParentTree) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  const std::string first =
      repo->create_commit(std::nullopt, {{"index.json", "v1"}, {"attempts/x.json", "x"}}, "One");
  const std::string second = repo->create_commit(first, {{"index.json", "v2"}}, "Two");

  EXPECT_EQ(repo->read_file_at(second, "index.json"), "v2");
  EXPECT_EQ(repo->read_file_at(second, "attempts/x.json"), "x");
  EXPECT_EQ(repo->object_id_at(second, "attempts"), repo->object_id_at(first, "attempts"));
  EXPECT_THROW(repo->create_commit(first, {{"../escape.txt", "x"}}, "Bad"), Error);
}

TEST(GitRepository, CompareAndSwapWithAStaleExpectationChangesNothing) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  const std::string first = repo->create_commit(std::nullopt, {{"x", "1"}}, "One");
  const std::string second = repo->create_commit(first, {{"y", "2"}}, "Two");
  const std::string rival = repo->create_commit(first, {{"z", "3"}}, "Rival");
  ASSERT_TRUE(repo->compare_and_swap_ref(kDataRef, first, std::nullopt, "one"));
  ASSERT_TRUE(repo->compare_and_swap_ref(kDataRef, second, first, "two"));

  EXPECT_FALSE(repo->compare_and_swap_ref(kDataRef, rival, first, "rival"));
  EXPECT_FALSE(repo->compare_and_swap_ref(kDataRef, rival, std::nullopt, "rival"));
  EXPECT_EQ(repo->ref_target(kDataRef), second);
}

TEST(GitRepository, CompareAndSwapReportsALockedRefAsLostSoTheCallerRetries) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"a.txt", "one"}}, "First");
  const auto repo = open_git_repository(dir.path());
  const std::string first = repo->create_commit(std::nullopt, {{"x", "1"}}, "One");
  dir.write(".git/refs/heads/perfgate-data.lock", "");  // another writer is mid-update

  EXPECT_FALSE(repo->compare_and_swap_ref(kDataRef, first, std::nullopt, "one"));
  EXPECT_EQ(repo->ref_target(kDataRef), std::nullopt);
  std::filesystem::remove(dir / ".git/refs/heads/perfgate-data.lock");
  EXPECT_TRUE(repo->compare_and_swap_ref(kDataRef, first, std::nullopt, "one"));
}

/// In a child process: publishes `count` files named `prefix`-N on kDataRef, re-reading the
/// ref and retrying whenever the other process moved it first. The child's exit status.
int publish_in_child(const std::filesystem::path& dir, const std::string& prefix, int count,
                     int start_signal) {
  char go = 0;
  if (::read(start_signal, &go, 1) < 0) return 2;
  try {
    const auto repo = open_git_repository(dir);
    for (int i = 0; i < count; ++i) {
      const std::string path = "attempts/" + prefix + "-" + std::to_string(i) + ".json";
      for (int round = 0;; ++round) {
        if (round == 1000) return 3;
        const std::optional<std::string> tip = repo->ref_target(kDataRef);
        const std::string commit = repo->create_commit(tip, {{path, prefix}}, path);
        if (repo->compare_and_swap_ref(kDataRef, commit, tip, path)) break;
      }
    }
    return 0;
  } catch (...) {
    return 1;
  }
}

TEST(GitRepository, TwoProcessesRacingToPublishOnOneRefBothLandEveryCommit) {
  TempDir dir;
  GitFixture git(dir.path());
  git.commit({{"a.txt", "one"}}, "First");
  constexpr int kEach = 10;
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  std::vector<pid_t> children;
  for (const std::string prefix : {"left", "right"}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(start[1]);
      ::_exit(publish_in_child(dir.path(), prefix, kEach, start[0]));
    }
    children.push_back(pid);
  }
  ::close(start[0]);
  ::close(start[1]);  // both children start at once
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }

  const auto repo = open_git_repository(dir.path());
  const std::optional<std::string> tip = repo->ref_target(kDataRef);
  ASSERT_TRUE(tip.has_value());
  const std::vector<std::string> files = repo->list_folder_at(*tip, "attempts");
  EXPECT_EQ(files.size(), 2u * kEach);
  EXPECT_EQ(files.front(), "left-0.json");
  EXPECT_EQ(files.back(), "right-9.json");
  EXPECT_EQ(repo->first_parent_chain(*tip).size(), 2u * kEach);
  git.git({"fsck", "--strict", "--no-progress"});
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::history
