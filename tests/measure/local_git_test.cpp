#include "measure/local_git.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "support/fake_host.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::FakeHost;

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";

TEST(LocalGit, IsWantedOnlyWhenCiNamedNoCommitAndPerfgateCommitIsUnset) {
  ASSERT_EQ(std::getenv("PERFGATE_COMMIT"), nullptr);
  EXPECT_TRUE(local_git_wanted(Json::object()));
  EXPECT_TRUE(local_git_wanted({{"commit", nullptr}, {"branch", "main"}}));
  EXPECT_FALSE(local_git_wanted({{"commit", "abc"}}));
  ::setenv("PERFGATE_COMMIT", "", 1);
  EXPECT_FALSE(local_git_wanted(Json::object()));
  ::unsetenv("PERFGATE_COMMIT");
}

TEST(LocalGit, AddsNothingAndAsksNoGitWhenCiNamedTheCommit) {
  FakeHost host;
  host.programs["git"] = {true, 0, kCommit + "\n", ""};
  Provenance provenance;
  provenance.ci = {{"commit", "from-ci"}, {"branch", nullptr}};
  std::ostringstream notes;
  add_local_git(host, provenance, "/src", notes);
  EXPECT_TRUE(host.commands_run.empty());
  EXPECT_EQ(provenance.ci, Json({{"commit", "from-ci"}, {"branch", nullptr}}));
}

TEST(LocalGit, AppliesGitsAnswerKeepingABranchCiNamedAndSaysWhenTheTreeIsDirty) {
  Provenance provenance;
  provenance.ci = {{"commit", nullptr}, {"branch", "ci-branch"}};
  std::ostringstream notes;
  apply_local_git(LocalGit{kCommit, "main", true}, provenance, "/src/project", notes);
  EXPECT_EQ(provenance.ci, Json({{"commit", kCommit}, {"branch", "ci-branch"}, {"dirty", true}}));
  EXPECT_EQ(notes.str(),
            "perfgate: note: the git tree at /src/project has uncommitted changes: the records "
            "name commit 0123456789ab and say dirty: true\n");

  Provenance detached;
  std::ostringstream quiet;
  apply_local_git(LocalGit{kCommit, std::nullopt, false}, detached, "/src", quiet);
  EXPECT_EQ(detached.ci, Json({{"commit", kCommit}, {"branch", nullptr}, {"dirty", false}}));
  EXPECT_EQ(quiet.str(), "");

  Provenance outside;
  apply_local_git(std::nullopt, outside, "/src", quiet);
  EXPECT_EQ(outside.ci, Json::object());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
