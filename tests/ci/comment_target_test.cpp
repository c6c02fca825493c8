#include "ci/comment_target.hpp"

#include <gtest/gtest.h>

#include <map>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

EnvironmentLookup lookup(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    const auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
}

ExitCode code_of(CommentProvider provider, const std::map<std::string, std::string>& env,
                 std::optional<long long> pr = std::nullopt) {
  try {
    comment_target(provider, lookup(env), pr);
  } catch (const Error& error) {
    return error.code();
  }
  return ExitCode::kOk;
}

const std::map<std::string, std::string> kGitHub{{"GITHUB_REPOSITORY", "octo/widgets"},
                                                 {"GITHUB_TOKEN", "ghs_secret"}};

TEST(CommentTarget, GitHubFindsThePullRequestInTheEventFile) {
  TempDir dir;
  dir.write("event.json", R"({"action":"synchronize","number":7,
      "pull_request":{"number":7,"head":{"sha":"abc"}}})");
  auto env = kGitHub;
  env["GITHUB_EVENT_PATH"] = (dir / "event.json").string();
  const auto target = comment_target(CommentProvider::kGitHub, lookup(env), std::nullopt);
  ASSERT_TRUE(target);
  EXPECT_EQ(target->number, 7);
  EXPECT_EQ(target->api, "https://api.github.com");
  EXPECT_EQ(target->repository, "octo/widgets");
  EXPECT_EQ(target->auth_header, "Authorization: Bearer ");
  EXPECT_EQ(target->token, "ghs_secret");
  EXPECT_EQ(request_name(*target), "pull request #7");
}

TEST(CommentTarget, GitHubTakesTheIssueOfACommentOnAPullRequest) {
  TempDir dir;
  dir.write("event.json", R"({"issue":{"number":31,"pull_request":{"url":"x"}},"comment":{}})");
  auto env = kGitHub;
  env["GITHUB_EVENT_PATH"] = (dir / "event.json").string();
  EXPECT_EQ(comment_target(CommentProvider::kGitHub, lookup(env), std::nullopt)->number, 31);
}

TEST(CommentTarget, GitHubReadsTheMergeRefAndTheFlagWins) {
  auto env = kGitHub;
  env["GITHUB_REF"] = "refs/pull/42/merge";
  env["GITHUB_API_URL"] = "https://ghe.example.com/api/v3/";
  auto target = comment_target(CommentProvider::kGitHub, lookup(env), std::nullopt);
  EXPECT_EQ(target->number, 42);
  EXPECT_EQ(target->api, "https://ghe.example.com/api/v3");
  EXPECT_EQ(comment_target(CommentProvider::kGitHub, lookup(env), 9)->number, 9);
}

TEST(CommentTarget, APushOrAScheduleHasNoPullRequest) {
  TempDir dir;
  dir.write("event.json", R"({"ref":"refs/heads/main","commits":[]})");
  auto env = kGitHub;
  env["GITHUB_EVENT_PATH"] = (dir / "event.json").string();
  env["GITHUB_REF"] = "refs/heads/main";
  EXPECT_FALSE(comment_target(CommentProvider::kGitHub, lookup(env), std::nullopt));
  // No token is needed to learn that there is nothing to do.
  EXPECT_FALSE(comment_target(CommentProvider::kGitHub, lookup({}), std::nullopt));
  EXPECT_FALSE(comment_target(CommentProvider::kGitLab, lookup({}), std::nullopt));
}

TEST(CommentTarget, RefusesWhatItWillNotSendATokenTo) {
  auto env = kGitHub;
  env.erase("GITHUB_TOKEN");
  EXPECT_EQ(code_of(CommentProvider::kGitHub, env, 1), ExitCode::kUsage);
  env = kGitHub;
  env["GITHUB_TOKEN"] = "abc\r\nX-Injected: 1";
  EXPECT_EQ(code_of(CommentProvider::kGitHub, env, 1), ExitCode::kDataError);
  for (const char* url : {"http://api.github.com", "https://user:pw@evil.example", "ftp://x",
                          "https://a b", "http://127.0.0.1.evil.example/"}) {
    env = kGitHub;
    env["GITHUB_API_URL"] = url;
    EXPECT_EQ(code_of(CommentProvider::kGitHub, env, 1), ExitCode::kDataError) << url;
  }
  env = kGitHub;
  env["GITHUB_API_URL"] = "http://127.0.0.1:8080";
  EXPECT_EQ(code_of(CommentProvider::kGitHub, env, 1), ExitCode::kOk);
  env = kGitHub;
  env["GITHUB_REPOSITORY"] = "octo/widgets/../../x";
  EXPECT_EQ(code_of(CommentProvider::kGitHub, env, 1), ExitCode::kDataError);
  env = kGitHub;
  env["GITHUB_REF"] = "refs/pull/0/merge";
  EXPECT_EQ(code_of(CommentProvider::kGitHub, env), ExitCode::kDataError);
}

TEST(CommentTarget, GitLabPrefersAProjectTokenAndEncodesAProjectPath) {
  std::map<std::string, std::string> env{{"CI_API_V4_URL", "https://gitlab.example.com/api/v4"},
                                         {"CI_PROJECT_ID", "group/sub/app"},
                                         {"CI_MERGE_REQUEST_IID", "12"},
                                         {"CI_JOB_TOKEN", "job-secret"}};
  auto target = comment_target(CommentProvider::kGitLab, lookup(env), std::nullopt);
  EXPECT_EQ(target->repository, "group%2Fsub%2Fapp");
  EXPECT_EQ(target->number, 12);
  EXPECT_EQ(target->auth_header, "JOB-TOKEN: ");
  EXPECT_EQ(target->token_name, "CI_JOB_TOKEN");
  EXPECT_EQ(request_name(*target), "merge request !12");
  env["PERFGATE_GITLAB_TOKEN"] = "glpat-secret";
  target = comment_target(CommentProvider::kGitLab, lookup(env), std::nullopt);
  EXPECT_EQ(target->auth_header, "PRIVATE-TOKEN: ");
  EXPECT_EQ(target->token, "glpat-secret");
  env.erase("CI_API_V4_URL");
  EXPECT_EQ(code_of(CommentProvider::kGitLab, env), ExitCode::kUsage);
}

TEST(WithoutSecret, ReplacesEveryOccurrence) {
  EXPECT_EQ(without_secret("bad token tok, tok again", "tok"), "bad ***en ***, *** again");
  EXPECT_EQ(without_secret("nothing", ""), "nothing");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
