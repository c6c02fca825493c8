#include "ci/comment_poster.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "model/error.hpp"
#include "support/fake_forge.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::CannedReply;
using testing::FakeForge;

const std::string kMarker = "<!-- perfgate-comment: perfgate -->";
const std::string kToken = "ghs_s3cret_token";

CommentTarget github(const FakeForge& forge) {
  CommentTarget target;
  target.provider = CommentProvider::kGitHub;
  target.api = forge.url();
  target.repository = "octo/widgets";
  target.number = 7;
  target.token = kToken;
  target.auth_header = "Authorization: Bearer ";
  target.token_name = "GITHUB_TOKEN";
  return target;
}

CommentTarget gitlab(const FakeForge& forge, const std::string& header) {
  CommentTarget target;
  target.provider = CommentProvider::kGitLab;
  target.api = forge.url() + "/api/v4";
  target.repository = "group%2Fapp";
  target.number = 3;
  target.token = kToken;
  target.auth_header = header + ": ";
  target.token_name = header == "JOB-TOKEN" ? "CI_JOB_TOKEN" : "PERFGATE_GITLAB_TOKEN";
  return target;
}

/// Waits are recorded, not slept: the tests check what perfgate asked for.
struct RecordedWaits {
  std::vector<long long> milliseconds;
  RetryPolicy policy() {
    RetryPolicy out;
    out.sleep = [this](std::chrono::milliseconds wait) { milliseconds.push_back(wait.count()); };
    out.now = [] { return std::int64_t{1'800'000'000}; };
    return out;
  }
};

struct Posted {
  CommentResult result;
  std::string log;
};

Posted post(const CommentTarget& target, const std::string& body, const RetryPolicy& policy) {
  CurlTransport transport;
  std::ostringstream log;
  CommentResult result = post_comment(target, body, kMarker, transport, policy, log);
  return {result, log.str()};
}

TEST(PostComment, TheFirstRunCreatesTheCommentAndTheSecondEditsIt) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.add("LGTM", false);
  RecordedWaits waits;
  const Posted first = post(github(forge), kMarker + "\nfirst", waits.policy());
  EXPECT_EQ(first.result.outcome, CommentOutcome::kCreated);
  EXPECT_EQ(first.result.url, "https://forge.example/pull/1#issuecomment-1002");
  const Posted second = post(github(forge), kMarker + "\nsecond", waits.policy());
  EXPECT_EQ(second.result.outcome, CommentOutcome::kUpdated);
  const auto comments = forge.comments();
  ASSERT_EQ(comments.size(), 2u);  // the reviewer's, and perfgate's one
  EXPECT_EQ(comments[1].body, kMarker + "\nsecond");
  const auto requests = forge.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].path, "/repos/octo/widgets/issues/7/comments");
  EXPECT_EQ(requests[0].query, "page=1&per_page=100");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[3].method, "PATCH");
  EXPECT_EQ(requests[3].path, "/repos/octo/widgets/issues/comments/1002");
  EXPECT_EQ(requests[3].headers.at("Accept"), "application/vnd.github+json");
  EXPECT_EQ(requests[3].headers.at("X-GitHub-Api-Version"), "2022-11-28");
  EXPECT_EQ(requests[3].headers.at("User-Agent").rfind("perfgate/", 0), 0u);
  EXPECT_TRUE(waits.milliseconds.empty());
}

TEST(PostComment, GitLabNotesAreCreatedThenEditedWithTheProjectToken) {
  FakeForge forge("PRIVATE-TOKEN", kToken);
  RecordedWaits waits;
  EXPECT_EQ(post(gitlab(forge, "PRIVATE-TOKEN"), kMarker + " a", waits.policy()).result.outcome,
            CommentOutcome::kCreated);
  EXPECT_EQ(post(gitlab(forge, "PRIVATE-TOKEN"), kMarker + " b", waits.policy()).result.outcome,
            CommentOutcome::kUpdated);
  ASSERT_EQ(forge.comments().size(), 1u);
  EXPECT_EQ(forge.comments()[0].body, kMarker + " b");
  const auto requests = forge.requests();
  EXPECT_EQ(requests[0].target,
            "/api/v4/projects/group%2Fapp/merge_requests/3/notes?per_page=100&page=1&sort=asc&"
            "order_by=created_at");
  EXPECT_EQ(requests[0].query, "order_by=created_at&page=1&per_page=100&sort=asc");
  EXPECT_EQ(requests.back().method, "PUT");
  EXPECT_EQ(requests.back().target, "/api/v4/projects/group%2Fapp/merge_requests/3/notes/1001");
}

TEST(PostComment, FindsItsCommentOnALaterPage) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  for (int i = 0; i < 130; ++i) forge.add("comment " + std::to_string(i), false);
  forge.add(kMarker + "\nold", true);
  RecordedWaits waits;
  EXPECT_EQ(post(github(forge), kMarker + "\nnew", waits.policy()).result.outcome,
            CommentOutcome::kUpdated);
  EXPECT_EQ(forge.comments().size(), 131u);
  EXPECT_EQ(forge.comments().back().body, kMarker + "\nnew");
  EXPECT_EQ(forge.requests()[1].query, "page=2&per_page=100");
}

TEST(PostComment, SomeoneElsesCommentQuotingTheMarkerIsLeftAndANewOneIsPosted) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.add("quoting perfgate: " + kMarker, false);
  RecordedWaits waits;
  const Posted posted = post(github(forge), kMarker + "\nmine", waits.policy());
  EXPECT_EQ(posted.result.outcome, CommentOutcome::kCreated);
  ASSERT_EQ(forge.comments().size(), 2u);
  EXPECT_EQ(forge.comments()[0].body, "quoting perfgate: " + kMarker);
}

TEST(PostComment, AForkedPullRequestsReadOnlyTokenCannotCommentAndSaysWhy) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.read_only = true;
  RecordedWaits waits;
  const Posted posted = post(github(forge), kMarker + "\nx", waits.policy());
  EXPECT_EQ(posted.result.outcome, CommentOutcome::kCannotComment);
  EXPECT_EQ(posted.result.reason,
            "the token may not write comments (HTTP 403) (Resource not accessible by "
            "integration): a pull request from a fork gets a read-only token; otherwise give "
            "the job `permissions: pull-requests: write`");
  EXPECT_TRUE(forge.comments().empty());
}

TEST(PostComment, GitLabsRefusedJobTokenCannotCommentAndNamesTheFix) {
  FakeForge forge("PRIVATE-TOKEN", kToken);  // the job token is not accepted
  RecordedWaits waits;
  const Posted posted = post(gitlab(forge, "JOB-TOKEN"), kMarker, waits.policy());
  EXPECT_EQ(posted.result.outcome, CommentOutcome::kCannotComment);
  EXPECT_NE(posted.result.reason.find("set PERFGATE_GITLAB_TOKEN to a project access token"),
            std::string::npos);
}

TEST(PostComment, HonoursRetryAfterOnARateLimit) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.queue({429, {{"Retry-After", "7"}}, R"({"message":"slow down"})"});
  // GitHub's primary rate limit: 403 with no requests left, until the reset time.
  forge.queue({403,
               {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1800000012"}},
               R"({"message":"API rate limit exceeded"})"});
  RecordedWaits waits;
  const Posted posted = post(github(forge), kMarker, waits.policy());
  EXPECT_EQ(posted.result.outcome, CommentOutcome::kCreated);
  EXPECT_EQ(waits.milliseconds, (std::vector<long long>{7000, 12000}));
  EXPECT_NE(posted.log.find("rate limited (HTTP 429); waiting 7 s as the API asks"),
            std::string::npos);
  EXPECT_EQ(forge.comments().size(), 1u);
}

TEST(PostComment, ARateLimitLongerThanTheMaximumWaitIsReportedNotWaited) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.queue({429, {{"Retry-After", "3600"}}, ""});
  RecordedWaits waits;
  const Posted posted = post(github(forge), kMarker, waits.policy());
  EXPECT_EQ(posted.result.outcome, CommentOutcome::kCannotComment);
  EXPECT_EQ(posted.result.reason,
            "the API's rate limit asks to wait 3600 s, longer than --max-wait 60 s");
  EXPECT_TRUE(waits.milliseconds.empty());
}

TEST(PostComment, AServerErrorIsRetriedThenSucceeds) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.queue({502, {}, "<html>bad gateway</html>"});
  RecordedWaits waits;
  EXPECT_EQ(post(github(forge), kMarker, waits.policy()).result.outcome, CommentOutcome::kCreated);
  EXPECT_EQ(waits.milliseconds, (std::vector<long long>{1000}));
}

TEST(PostComment, AServerThatKeepsFailingIsAnIoErrorWithoutTheToken) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  // A server that echoes what it was sent must not get the token printed.
  for (int i = 0; i < 3; ++i)
    forge.queue({500, {}, R"({"message":"boom for Bearer )" + kToken + R"("})"});
  RecordedWaits waits;
  CurlTransport transport;
  std::ostringstream log;
  try {
    post_comment(github(forge), kMarker, kMarker, transport, waits.policy(), log);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    const std::string message = error.what();
    EXPECT_EQ(message, "GET " + forge.url() +
                           "/repos/octo/widgets/issues/7/comments?per_page=100&page=1: HTTP 500 "
                           "(boom for Bearer ***), 3 times. The API is failing; try again later.");
  }
  EXPECT_EQ(waits.milliseconds, (std::vector<long long>{1000, 2000}));
  EXPECT_EQ(log.str().find(kToken), std::string::npos);
  EXPECT_NE(log.str().find("(boom for Bearer ***); trying again in 1000 ms"), std::string::npos);
}

TEST(PostComment, AReplyOverTheBoundIsRefusedAtOnceNotRetried) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.queue({200, {}, std::string(kMaxResponseBody + 1, ' ')});
  RecordedWaits waits;
  try {
    post(github(forge), kMarker, waits.policy());
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_NE(std::string(error.what())
                  .find(": the API's reply was refused: the reply's body is "
                        "larger than 8 MiB. Is the API URL right?"),
              std::string::npos)
        << error.what();
  }
  EXPECT_TRUE(waits.milliseconds.empty());
  EXPECT_EQ(forge.requests().size(), 1u);
}

TEST(PostComment, ABadTokenIsAnErrorThatSaysSo) {
  FakeForge forge("Authorization", "Bearer another");
  RecordedWaits waits;
  try {
    post(github(forge), kMarker, waits.policy());
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_NE(std::string(error.what()).find("HTTP 401 (Bad credentials). The token is not valid"),
              std::string::npos);
  }
}

TEST(PostComment, AReplyThatIsNotAListOfCommentsIsAnError) {
  FakeForge forge("Authorization", "Bearer " + kToken);
  forge.queue({200, {}, R"({"not":"a list"})"});
  RecordedWaits waits;
  try {
    post(github(forge), kMarker, waits.policy());
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_NE(std::string(error.what()).find("is not a JSON list of comments"), std::string::npos);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
