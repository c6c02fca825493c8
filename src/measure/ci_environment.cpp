#include "measure/ci_environment.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "model/error.hpp"

// POSIX: the process environment, which no header is required to declare.
extern char** environ;

namespace perfgate {
namespace {

using Value = std::optional<std::string>;

// CI systems often define a variable with an empty value when it does not apply
// (GITHUB_HEAD_REF on a push), so an empty value counts as absent.
Value get(const Environment& env, const std::string& name) {
  const auto it = env.find(name);
  if (it == env.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

Value first_of(const Environment& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (Value value = get(env, name)) return value;
  }
  return std::nullopt;
}

bool is(const Environment& env, const std::string& name, std::string_view expected) {
  const Value value = get(env, name);
  return value && *value == expected;
}

// "refs/pull/123/merge" -> "123"; anything else has no PR number.
Value github_pr_number(const Value& ref) {
  constexpr std::string_view kPrefix = "refs/pull/", kSuffix = "/merge";
  if (!ref || !ref->starts_with(kPrefix) || !ref->ends_with(kSuffix)) return std::nullopt;
  const std::string number =
      ref->substr(kPrefix.size(), ref->size() - kPrefix.size() - kSuffix.size());
  const bool digits = !number.empty() && std::all_of(number.begin(), number.end(),
                                                     [](char c) { return c >= '0' && c <= '9'; });
  return digits ? Value(number) : std::nullopt;
}

// Jenkins' git plugin names the branch as the remote sees it ("origin/main").
Value without_origin(Value branch) {
  constexpr std::string_view kOrigin = "origin/";
  if (branch && branch->starts_with(kOrigin)) branch->erase(0, kOrigin.size());
  return branch;
}

CiMetadata github_actions(const Environment& env) {
  CiMetadata ci;
  ci.provider = "github-actions";
  ci.commit = get(env, "GITHUB_SHA");
  ci.branch = first_of(env, {"GITHUB_HEAD_REF", "GITHUB_REF_NAME"});
  ci.pr_number = github_pr_number(get(env, "GITHUB_REF"));
  const Value server = get(env, "GITHUB_SERVER_URL");
  const Value repository = get(env, "GITHUB_REPOSITORY");
  const Value run_id = get(env, "GITHUB_RUN_ID");
  if (server && repository && run_id) {
    ci.build_url = *server + "/" + *repository + "/actions/runs/" + *run_id;
  }
  ci.build_id = run_id;
  ci.job_id = get(env, "GITHUB_JOB");
  ci.scheduled = is(env, "GITHUB_EVENT_NAME", "schedule");
  return ci;
}

CiMetadata gitlab_ci(const Environment& env) {
  CiMetadata ci;
  ci.provider = "gitlab-ci";
  ci.commit = get(env, "CI_COMMIT_SHA");
  ci.branch = first_of(env, {"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_REF_NAME"});
  ci.pr_number = get(env, "CI_MERGE_REQUEST_IID");
  ci.build_url = get(env, "CI_PIPELINE_URL");
  ci.build_id = get(env, "CI_PIPELINE_ID");
  ci.job_id = get(env, "CI_JOB_ID");
  ci.scheduled = is(env, "CI_PIPELINE_SOURCE", "schedule");
  return ci;
}

CiMetadata buildkite(const Environment& env) {
  CiMetadata ci;
  ci.provider = "buildkite";
  ci.commit = get(env, "BUILDKITE_COMMIT");
  ci.branch = get(env, "BUILDKITE_BRANCH");
  ci.pr_number = get(env, "BUILDKITE_PULL_REQUEST");
  if (ci.pr_number == "false") ci.pr_number.reset();  // Buildkite's "not a pull request"
  ci.build_url = get(env, "BUILDKITE_BUILD_URL");
  ci.build_id = get(env, "BUILDKITE_BUILD_ID");
  ci.job_id = get(env, "BUILDKITE_JOB_ID");
  ci.scheduled = is(env, "BUILDKITE_SOURCE", "schedule");
  return ci;
}

CiMetadata jenkins(const Environment& env) {
  CiMetadata ci;
  ci.provider = "jenkins";
  ci.commit = get(env, "GIT_COMMIT");
  ci.branch = without_origin(first_of(env, {"CHANGE_BRANCH", "BRANCH_NAME", "GIT_BRANCH"}));
  ci.pr_number = get(env, "CHANGE_ID");
  ci.build_url = get(env, "BUILD_URL");
  ci.build_id = get(env, "BUILD_ID");
  ci.job_id = get(env, "JOB_NAME");
  ci.scheduled = false;  // Jenkins does not tell a timer-triggered build apart
  return ci;
}

CiMetadata provider_metadata(const Environment& env) {
  if (is(env, "GITHUB_ACTIONS", "true")) return github_actions(env);
  if (is(env, "GITLAB_CI", "true")) return gitlab_ci(env);
  if (is(env, "BUILDKITE", "true")) return buildkite(env);
  if (get(env, "JENKINS_URL")) return jenkins(env);
  CiMetadata ci;
  ci.provider = "local";
  return ci;
}

// The seed's lane runs its whole suite on main with TEST_SCOPE=full ("/test full" or the
// weekly schedule); a narrower scope on main (a "/test performance" retry) is not a
// baseline-quality run.
bool is_full_scope(const Value& scope) {
  if (!scope) return false;
  std::string lower = *scope;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "full";
}

// An override that is set replaces the provider's value; set but empty clears it.
void apply_override(const Environment& env, const std::string& name, Value& field) {
  const auto it = env.find(name);
  if (it == env.end()) return;
  field = it->second.empty() ? std::nullopt : Value(it->second);
}

bool is_main_branch(const Value& branch) {
  return branch && (*without_origin(branch) == "main" || *without_origin(branch) == "master");
}

Json or_null(const Value& value) {
  return value ? Json(*value) : Json(nullptr);
}

}  // namespace

Environment current_environment() {
  Environment env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    env.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  return env;
}

Json CiMetadata::to_json() const {
  return {{"provider", provider},
          {"commit", or_null(commit)},
          {"branch", or_null(branch)},
          {"pr_number", or_null(pr_number)},
          {"build_url", or_null(build_url)},
          {"build_id", or_null(build_id)},
          {"job_id", or_null(job_id)},
          {"scheduled", scheduled},
          {"test_scope", or_null(test_scope)}};
}

CiMetadata read_ci_metadata(const Environment& env) {
  CiMetadata ci = provider_metadata(env);
  ci.test_scope = get(env, "TEST_SCOPE");
  apply_override(env, "PERFGATE_COMMIT", ci.commit);
  apply_override(env, "PERFGATE_BRANCH", ci.branch);
  apply_override(env, "PERFGATE_PR_NUMBER", ci.pr_number);
  apply_override(env, "PERFGATE_BUILD_URL", ci.build_url);
  apply_override(env, "PERFGATE_BUILD_ID", ci.build_id);
  apply_override(env, "PERFGATE_JOB_ID", ci.job_id);
  apply_override(env, "PERFGATE_TEST_SCOPE", ci.test_scope);
  return ci;
}

std::string infer_run_source(const CiMetadata& ci, const Environment& env) {
  static constexpr std::array<std::string_view, 4> kRunSources{"pr", "local", "scheduled_main",
                                                               "unknown"};
  // PERF_RUN_SOURCE is the seed's name; perfgate's own name wins when both are set.
  for (const char* variable : {"PERFGATE_RUN_SOURCE", "PERF_RUN_SOURCE"}) {
    const Value explicit_source = get(env, variable);
    if (!explicit_source) continue;
    if (std::find(kRunSources.begin(), kRunSources.end(), *explicit_source) == kRunSources.end()) {
      throw Error(ExitCode::kDataError,
                  std::string("environment variable ") + variable + " is \"" + *explicit_source +
                      "\": set it to one of pr, local, scheduled_main, unknown, or unset it to "
                      "let perfgate infer the run source");
    }
    return *explicit_source;
  }
  if (ci.pr_number) return "pr";
  if (ci.provider == "local") return "local";
  if (ci.scheduled && is_main_branch(ci.branch)) return "scheduled_main";
  if (ci.provider == "buildkite" && is_main_branch(ci.branch) && is_full_scope(ci.test_scope)) {
    return "scheduled_main";
  }
  return "unknown";
}

}  // namespace perfgate
