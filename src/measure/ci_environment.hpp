#pragma once
// Provenance from the environment: which CI, commit, branch, PR, build (SPEC §5).
#include <map>
#include <optional>
#include <string>

#include "model/json.hpp"

namespace perfgate {

using Environment = std::map<std::string, std::string>;

/// The current process environment as a map.
Environment current_environment();

struct CiMetadata {
  std::string provider;  ///< "github-actions", "gitlab-ci", "buildkite", "jenkins", or "local"
  std::optional<std::string> commit;
  std::optional<std::string> branch;
  std::optional<std::string> pr_number;
  std::optional<std::string> build_url;
  std::optional<std::string> build_id;
  std::optional<std::string> job_id;
  bool scheduled = false;  ///< the CI says this build was started by a schedule
  /// What the pipeline said it tests (TEST_SCOPE, e.g. "full" or "direct"), as given.
  std::optional<std::string> test_scope;

  Json to_json() const;  ///< absent values are null
};

/// Reads GitHub Actions, GitLab CI, Buildkite and Jenkins variables and TEST_SCOPE, then
/// applies the overrides PERFGATE_COMMIT, PERFGATE_BRANCH, PERFGATE_PR_NUMBER,
/// PERFGATE_BUILD_URL, PERFGATE_BUILD_ID, PERFGATE_JOB_ID, PERFGATE_TEST_SCOPE (an empty
/// override clears the value).
CiMetadata read_ci_metadata(const Environment& env);

/// Run source (SPEC §1): PERFGATE_RUN_SOURCE, else its seed alias PERF_RUN_SOURCE, when set
/// (must be one of pr, local, scheduled_main, unknown: Error(kDataError) naming the
/// variable otherwise); else "pr" when a PR number is known; "local" outside CI;
/// "scheduled_main" for a scheduled CI build of main/master, or a Buildkite build of
/// main/master whose test scope is "full" (any case); "unknown" for any other CI build.
std::string infer_run_source(const CiMetadata& ci, const Environment& env);

}  // namespace perfgate
