#include "measure/ci_environment.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

const Environment kGithubPullRequest{
    {"GITHUB_ACTIONS", "true"},
    {"GITHUB_SHA", "4f2d9c1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"},
    {"GITHUB_HEAD_REF", "feature/faster-decode"},
    {"GITHUB_REF_NAME", "42/merge"},
    {"GITHUB_REF", "refs/pull/42/merge"},
    {"GITHUB_SERVER_URL", "https://github.com"},
    {"GITHUB_REPOSITORY", "acme/videogen"},
    {"GITHUB_RUN_ID", "9876543210"},
    {"GITHUB_JOB", "perf"},
    {"GITHUB_EVENT_NAME", "pull_request"},
};

Json metadata(const char* provider, const char* commit, const char* branch, const char* pr,
              const char* build_url, const char* build_id, const char* job_id, bool scheduled,
              const char* test_scope = nullptr) {
  const auto value = [](const char* v) { return v ? Json(v) : Json(nullptr); };
  return {{"provider", provider},           {"commit", value(commit)},
          {"branch", value(branch)},        {"pr_number", value(pr)},
          {"build_url", value(build_url)},  {"build_id", value(build_id)},
          {"job_id", value(job_id)},        {"scheduled", scheduled},
          {"test_scope", value(test_scope)}};
}

TEST(CiMetadata, ReadsAGithubActionsPullRequest) {
  EXPECT_EQ(read_ci_metadata(kGithubPullRequest).to_json(),
            metadata("github-actions", "4f2d9c1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e",
                     "feature/faster-decode", "42",
                     "https://github.com/acme/videogen/actions/runs/9876543210", "9876543210",
                     "perf", false));
}

TEST(CiMetadata, ReadsAScheduledGithubActionsBuildOfMainWhoseHeadRefIsEmpty) {
  const Environment env{{"GITHUB_ACTIONS", "true"},        {"GITHUB_SHA", "abc123"},
                        {"GITHUB_HEAD_REF", ""},           {"GITHUB_REF_NAME", "main"},
                        {"GITHUB_REF", "refs/heads/main"}, {"GITHUB_RUN_ID", "7"},
                        {"GITHUB_JOB", "nightly"},         {"GITHUB_EVENT_NAME", "schedule"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_EQ(ci.to_json(),
            metadata("github-actions", "abc123", "main", nullptr, nullptr, "7", "nightly", true));
  EXPECT_EQ(infer_run_source(ci, env), "scheduled_main");
}

TEST(CiMetadata, ReadsAGitlabMergeRequestPipeline) {
  const Environment env{{"GITLAB_CI", "true"},
                        {"CI_COMMIT_SHA", "0123abcd"},
                        {"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "speedup"},
                        {"CI_COMMIT_REF_NAME", "refs/merge-requests/17/head"},
                        {"CI_MERGE_REQUEST_IID", "17"},
                        {"CI_PIPELINE_URL", "https://gitlab.example/acme/app/-/pipelines/555"},
                        {"CI_PIPELINE_ID", "555"},
                        {"CI_JOB_ID", "9001"},
                        {"CI_PIPELINE_SOURCE", "merge_request_event"}};
  EXPECT_EQ(read_ci_metadata(env).to_json(),
            metadata("gitlab-ci", "0123abcd", "speedup", "17",
                     "https://gitlab.example/acme/app/-/pipelines/555", "555", "9001", false));
}

TEST(CiMetadata, ReadsAScheduledGitlabPipelineOfItsRefName) {
  const Environment env{
      {"GITLAB_CI", "true"}, {"CI_COMMIT_REF_NAME", "master"}, {"CI_PIPELINE_SOURCE", "schedule"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_EQ(ci.to_json(),
            metadata("gitlab-ci", nullptr, "master", nullptr, nullptr, nullptr, nullptr, true));
  EXPECT_EQ(infer_run_source(ci, env), "scheduled_main");
}

TEST(CiMetadata, ReadsABuildkiteBuildAndIgnoresPullRequestFalse) {
  const Environment env{{"BUILDKITE", "true"},
                        {"BUILDKITE_COMMIT", "feedbeef"},
                        {"BUILDKITE_BRANCH", "main"},
                        {"BUILDKITE_PULL_REQUEST", "false"},
                        {"BUILDKITE_BUILD_URL", "https://buildkite.com/acme/perf/builds/12"},
                        {"BUILDKITE_BUILD_ID", "0190-build"},
                        {"BUILDKITE_JOB_ID", "0190-job"},
                        {"BUILDKITE_SOURCE", "schedule"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_EQ(ci.to_json(),
            metadata("buildkite", "feedbeef", "main", nullptr,
                     "https://buildkite.com/acme/perf/builds/12", "0190-build", "0190-job", true));
  EXPECT_EQ(infer_run_source(ci, env), "scheduled_main");
}

TEST(CiMetadata, ReadsABuildkitePullRequestNumber) {
  const Environment env{{"BUILDKITE", "true"}, {"BUILDKITE_PULL_REQUEST", "311"}};
  EXPECT_EQ(read_ci_metadata(env).pr_number, "311");
}

TEST(CiMetadata, ReadsAJenkinsChangeRequest) {
  const Environment env{{"JENKINS_URL", "https://ci.example/"},
                        {"GIT_COMMIT", "c0ffee"},
                        {"CHANGE_BRANCH", "fix-alloc"},
                        {"BRANCH_NAME", "PR-8"},
                        {"GIT_BRANCH", "origin/fix-alloc"},
                        {"CHANGE_ID", "8"},
                        {"BUILD_URL", "https://ci.example/job/perf/PR-8/3/"},
                        {"BUILD_ID", "3"},
                        {"JOB_NAME", "perf/PR-8"}};
  EXPECT_EQ(read_ci_metadata(env).to_json(),
            metadata("jenkins", "c0ffee", "fix-alloc", "8", "https://ci.example/job/perf/PR-8/3/",
                     "3", "perf/PR-8", false));
}

TEST(CiMetadata, StripsOriginFromAJenkinsGitBranchAndNeverCallsItScheduled) {
  const Environment env{{"JENKINS_URL", "https://ci.example/"}, {"GIT_BRANCH", "origin/main"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_EQ(ci.branch, "main");
  EXPECT_FALSE(ci.scheduled);
  EXPECT_EQ(infer_run_source(ci, env), "unknown");
}

TEST(CiMetadata, PrefersGithubWhenSeveralProvidersAreDetected) {
  Environment env = kGithubPullRequest;
  env["GITLAB_CI"] = "true";
  env["BUILDKITE"] = "true";
  env["JENKINS_URL"] = "https://ci.example/";
  EXPECT_EQ(read_ci_metadata(env).provider, "github-actions");
  env.erase("GITHUB_ACTIONS");
  EXPECT_EQ(read_ci_metadata(env).provider, "gitlab-ci");
  env.erase("GITLAB_CI");
  EXPECT_EQ(read_ci_metadata(env).provider, "buildkite");
  env["BUILDKITE"] = "false";
  EXPECT_EQ(read_ci_metadata(env).provider, "jenkins");
}

TEST(CiMetadata, IsLocalWithNothingKnownOutsideCi) {
  const Environment env{{"HOME", "/home/dev"}, {"GITHUB_ACTIONS", "false"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_EQ(ci.to_json(),
            metadata("local", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, false));
  EXPECT_EQ(infer_run_source(ci, env), "local");
}

TEST(CiMetadata, LetsPerfgateOverridesReplaceOrClearProviderValues) {
  Environment env = kGithubPullRequest;
  env["PERFGATE_COMMIT"] = "override-sha";
  env["PERFGATE_BRANCH"] = "release/2.0";
  env["PERFGATE_PR_NUMBER"] = "";
  env["PERFGATE_BUILD_URL"] = "https://ci.internal/b/1";
  env["PERFGATE_BUILD_ID"] = "b1";
  env["PERFGATE_JOB_ID"] = "";
  EXPECT_EQ(read_ci_metadata(env).to_json(),
            metadata("github-actions", "override-sha", "release/2.0", nullptr,
                     "https://ci.internal/b/1", "b1", nullptr, false));
}

TEST(CiMetadata, FillsValuesFromOverridesOutsideCi) {
  const Environment env{{"PERFGATE_COMMIT", "abc"}, {"PERFGATE_PR_NUMBER", "5"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_EQ(ci.provider, "local");
  EXPECT_EQ(ci.commit, "abc");
  EXPECT_EQ(infer_run_source(ci, env), "pr");
}

TEST(CiMetadata, IgnoresAGithubRefThatIsNotAPullRequestMerge) {
  Environment env = kGithubPullRequest;
  env["GITHUB_REF"] = "refs/pull/abc/merge";
  EXPECT_FALSE(read_ci_metadata(env).pr_number.has_value());
  env["GITHUB_REF"] = "refs/tags/v1.2";
  EXPECT_FALSE(read_ci_metadata(env).pr_number.has_value());
}

TEST(RunSource, IsPrWhenAPullRequestNumberIsKnown) {
  EXPECT_EQ(infer_run_source(read_ci_metadata(kGithubPullRequest), kGithubPullRequest), "pr");
}

TEST(RunSource, IsUnknownForAScheduledCiBuildOfAnotherBranchOrAnUnscheduledBuildOfMain) {
  CiMetadata ci;
  ci.provider = "buildkite";
  ci.branch = "release";
  ci.scheduled = true;
  EXPECT_EQ(infer_run_source(ci, {}), "unknown");
  ci.branch = "main";
  ci.scheduled = false;
  EXPECT_EQ(infer_run_source(ci, {}), "unknown");
  ci.branch.reset();
  ci.scheduled = true;
  EXPECT_EQ(infer_run_source(ci, {}), "unknown");
}

TEST(RunSource, TakesAnExplicitPerfgateRunSourceOverTheInference) {
  const Environment env{{"PERFGATE_RUN_SOURCE", "scheduled_main"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(kGithubPullRequest), env), "scheduled_main");
}

TEST(RunSource, RejectsAnUnknownPerfgateRunSourceNamingTheVariableAndTheChoices) {
  const Environment env{{"PERFGATE_RUN_SOURCE", "nightly"}};
  try {
    infer_run_source(read_ci_metadata(env), env);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(e.what()),
              "environment variable PERFGATE_RUN_SOURCE is \"nightly\": set it to one of pr, "
              "local, scheduled_main, unknown, or unset it to let perfgate infer the run source");
  }
}

TEST(RunSource, AcceptsTheSeedsPerfRunSourceAsAnAlias) {
  const Environment env{{"PERF_RUN_SOURCE", "local"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(kGithubPullRequest), env), "local");
}

TEST(RunSource, PrefersPerfgateRunSourceWhenTheSeedAliasIsAlsoSet) {
  const Environment env{{"PERFGATE_RUN_SOURCE", "scheduled_main"}, {"PERF_RUN_SOURCE", "pr"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(kGithubPullRequest), env), "scheduled_main");
}

TEST(RunSource, RejectsAnUnknownPerfRunSourceNamingTheAlias) {
  const Environment env{{"PERF_RUN_SOURCE", "weekly"}};
  try {
    infer_run_source(read_ci_metadata(env), env);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(e.what()),
              "environment variable PERF_RUN_SOURCE is \"weekly\": set it to one of pr, "
              "local, scheduled_main, unknown, or unset it to let perfgate infer the run source");
  }
}

TEST(RunSource, IsScheduledMainForABuildkiteBuildOfMainWithAFullTestScope) {
  const Environment env{{"BUILDKITE", "true"},
                        {"BUILDKITE_BRANCH", "main"},
                        {"BUILDKITE_PULL_REQUEST", "false"},
                        {"BUILDKITE_SOURCE", "ui"},
                        {"TEST_SCOPE", "Full"}};
  const CiMetadata ci = read_ci_metadata(env);
  EXPECT_FALSE(ci.scheduled);
  EXPECT_EQ(ci.test_scope, "Full");
  EXPECT_EQ(infer_run_source(ci, env), "scheduled_main");
}

TEST(RunSource, IsUnknownForABuildkiteBuildOfMainWithANarrowerTestScope) {
  Environment env{{"BUILDKITE", "true"}, {"BUILDKITE_BRANCH", "main"}, {"TEST_SCOPE", "direct"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(env), env), "unknown");
  env.erase("TEST_SCOPE");
  EXPECT_EQ(infer_run_source(read_ci_metadata(env), env), "unknown");
}

TEST(RunSource, IsUnknownForAFullTestScopeOnAnotherBranchOrAnotherCi) {
  const Environment buildkite_branch{
      {"BUILDKITE", "true"}, {"BUILDKITE_BRANCH", "feature/x"}, {"TEST_SCOPE", "full"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(buildkite_branch), buildkite_branch), "unknown");
  const Environment gitlab_main{
      {"GITLAB_CI", "true"}, {"CI_COMMIT_REF_NAME", "main"}, {"TEST_SCOPE", "full"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(gitlab_main), gitlab_main), "unknown");
}

TEST(RunSource, IsPrForABuildkitePullRequestEvenWithAFullTestScopeOnMain) {
  const Environment env{{"BUILDKITE", "true"},
                        {"BUILDKITE_BRANCH", "main"},
                        {"BUILDKITE_PULL_REQUEST", "512"},
                        {"BUILDKITE_SOURCE", "schedule"},
                        {"TEST_SCOPE", "full"}};
  EXPECT_EQ(infer_run_source(read_ci_metadata(env), env), "pr");
}

TEST(CiMetadata, RecordsTheTestScopeAndLetsPerfgateTestScopeReplaceIt) {
  Environment env{{"BUILDKITE", "true"}, {"TEST_SCOPE", "direct"}};
  EXPECT_EQ(read_ci_metadata(env).to_json(), metadata("buildkite", nullptr, nullptr, nullptr,
                                                      nullptr, nullptr, nullptr, false, "direct"));
  env["PERFGATE_TEST_SCOPE"] = "full";
  EXPECT_EQ(read_ci_metadata(env).test_scope, "full");
  env["PERFGATE_TEST_SCOPE"] = "";
  EXPECT_FALSE(read_ci_metadata(env).test_scope.has_value());
}

TEST(CurrentEnvironment, ContainsTheVariablesOfThisProcess) {
  setenv("PERFGATE_TEST_MARKER", "a=b", 1);
  const Environment env = current_environment();
  unsetenv("PERFGATE_TEST_MARKER");
  EXPECT_EQ(env.at("PERFGATE_TEST_MARKER"), "a=b");
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
