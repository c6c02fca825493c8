// perfgate comment through the real binary, against a fake GitHub and GitLab on 127.0.0.1.
#include <gtest/gtest.h>

#include "support/cli_runner.hpp"
#include "support/fake_forge.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::FakeForge;
using testing::run_perfgate;

const std::string kToken = "ghp_e2eTOKENvalue123";
const std::string kReport =
    "## perfgate A/B: REGRESSION\n\n- parse: +12.0% [+8.1%, +16.0%] worse, budget 5%\n\n"
    "<!-- perfgate: details -->\n\n| scenario | change |\n|---|---|\n| parse | +12.0% |\n";

/// A GitHub Actions pull_request job's environment, the API at `forge`. Variables of the
/// process running the tests that would change the answer are masked (empty is unset).
std::map<std::string, std::string> github_job(const FakeForge& forge) {
  return {{"GITHUB_API_URL", forge.url()},
          {"GITHUB_REPOSITORY", "octo/widgets"},
          {"GITHUB_REF", "refs/pull/7/merge"},
          {"GITHUB_TOKEN", kToken},
          {"GITHUB_EVENT_PATH", ""},
          {"GITHUB_ACTIONS", "true"},
          {"GITHUB_SERVER_URL", "https://github.com"},
          {"GITHUB_RUN_ID", "99"},
          {"CI_JOB_URL", ""}};
}

TEST(CommentCommand, TwoRunsLeaveOneCommentAndNeverPrintTheToken) {
  TempDir dir;
  dir.write("report.md", kReport);
  FakeForge forge("Authorization", "Bearer " + kToken);
  const auto first = run_perfgate({"comment", "--provider", "github", "--report", "report.md"},
                                  dir.path(), github_job(forge));
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out,
            "perfgate comment: posted the report on pull request #7: "
            "https://forge.example/pull/1#issuecomment-1001\n");
  const auto second = run_perfgate({"comment", "--provider", "github", "--report", "report.md"},
                                   dir.path(), github_job(forge));
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out,
            "perfgate comment: updated perfgate's comment on pull request #7: "
            "https://forge.example/pull/1#issuecomment-1001\n");
  const auto comments = forge.comments();
  ASSERT_EQ(comments.size(), 1u);
  const std::string& body = comments[0].body;
  EXPECT_EQ(body.rfind("<!-- perfgate-comment: perfgate -->\n## perfgate A/B: REGRESSION\n\n"
                       "- parse: +12.0% [+8.1%, +16.0%] worse, budget 5%\n\n"
                       "<details><summary>Full report</summary>\n\n| scenario | change |",
                       0),
            0u);
  EXPECT_NE(body.find(" in [this run](https://github.com/octo/widgets/actions/runs/99)"),
            std::string::npos);
  for (const auto* result : {&first, &second}) {
    EXPECT_EQ(result->out.find(kToken), std::string::npos);
    EXPECT_EQ(result->err.find(kToken), std::string::npos);
  }
}

TEST(CommentCommand, AForkedPullRequestExitsZeroAndWarnsOnTheRunsPage) {
  TempDir dir;
  dir.write("report.md", kReport);
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.read_only = true;
  const auto result = run_perfgate({"comment", "--provider", "github", "--report", "report.md"},
                                   dir.path(), github_job(forge));
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.err.find("perfgate comment: cannot comment on pull request #7: the token may "
                            "not write comments (HTTP 403)"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.out.rfind("::warning title=perfgate comment::cannot comment on pull request "
                             "#7: the token may not write comments",
                             0),
            0u)
      << result.out;
  EXPECT_TRUE(forge.comments().empty());
}

TEST(CommentCommand, WaitsOutARateLimitThenPosts) {
  TempDir dir;
  dir.write("report.md", kReport);
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.queue(
      {429, {{"Retry-After", "1"}}, R"({"message":"You have exceeded a secondary rate limit"})"});
  const auto result = run_perfgate({"comment", "--provider", "github", "--report", "report.md"},
                                   dir.path(), github_job(forge));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "perfgate comment: rate limited (HTTP 429); waiting 1 s as the API asks\n");
  EXPECT_EQ(forge.comments().size(), 1u);
  EXPECT_EQ(forge.requests().size(), 3u);  // the refused list, the list, the post
}

TEST(CommentCommand, AFailingApiIsExit74AndTheEchoedTokenIsHidden) {
  TempDir dir;
  dir.write("report.md", kReport);
  FakeForge forge("Authorization", "Bearer " + kToken);
  for (int i = 0; i < 3; ++i)
    forge.queue({503, {}, R"({"message":"unavailable; you sent )" + kToken + R"("})"});
  const auto result = run_perfgate({"comment", "--provider", "github", "--report", "report.md"},
                                   dir.path(), github_job(forge));
  EXPECT_EQ(result.exit_code, 74);
  EXPECT_EQ(result.err.find(kToken), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("HTTP 503 (unavailable; you sent ***), 3 times. The API is failing"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(forge.requests().size(), 3u);
}

TEST(CommentCommand, GitLabMergeRequestNoteIsCreatedThenEdited) {
  TempDir dir;
  dir.write("report.md", kReport);
  FakeForge forge("JOB-TOKEN", kToken);
  const std::map<std::string, std::string> job{{"CI_API_V4_URL", forge.url() + "/api/v4"},
                                               {"CI_PROJECT_ID", "42"},
                                               {"CI_MERGE_REQUEST_IID", "5"},
                                               {"CI_JOB_TOKEN", kToken},
                                               {"PERFGATE_GITLAB_TOKEN", ""},
                                               {"CI_JOB_URL", "https://gitlab.example/j/1"}};
  for (const char* expected : {"posted the report on merge request !5",
                               "updated perfgate's comment on merge request !5"}) {
    const auto result = run_perfgate(
        {"comment", "--provider", "gitlab", "--report", "report.md", "--key", "nightly"},
        dir.path(), job);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, std::string("perfgate comment: ") + expected +
                              ": https://forge.example/pull/1#issuecomment-1001\n");
  }
  ASSERT_EQ(forge.comments().size(), 1u);
  EXPECT_EQ(forge.comments()[0].body.rfind("<!-- perfgate-comment: nightly -->\n", 0), 0u);
  EXPECT_NE(forge.comments()[0].body.find(" in [this run](https://gitlab.example/j/1)"),
            std::string::npos);
}

TEST(CommentCommand, RefusesBadReportsAndNeedsNoNetworkForADryRun) {
  TempDir dir;
  dir.write("latin1.md", "caf\xe9\n");
  dir.write("report.md", kReport);
  const std::map<std::string, std::string> no_ci{{"GITHUB_REF", ""}, {"GITHUB_EVENT_PATH", ""}};
  auto result =
      run_perfgate({"comment", "--provider", "github", "--report", "latin1.md"}, dir.path(), no_ci);
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_EQ(result.err,
            "perfgate: error: --report latin1.md: not UTF-8 text. Name the Markdown report a "
            "perfgate command wrote.\n");
  result =
      run_perfgate({"comment", "--provider", "github", "--report", "nosuch.md"}, dir.path(), no_ci);
  EXPECT_EQ(result.exit_code, 66);
  result = run_perfgate({"comment", "--provider", "bitbucket", "--report", "report.md"}, dir.path(),
                        no_ci);
  EXPECT_EQ(result.exit_code, 64);
  result =
      run_perfgate({"comment", "--provider", "github", "--report", "report.md"}, dir.path(), no_ci);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err,
            "perfgate comment: this job runs for no pull request; nothing to comment on (name one "
            "with --pr)\n");
  result = run_perfgate({"comment", "--provider", "github", "--report", "report.md", "--dry-run"},
                        dir.path(), no_ci);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out.rfind("<!-- perfgate-comment: perfgate -->\n## perfgate A/B: REGRESSION", 0),
            0u);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
