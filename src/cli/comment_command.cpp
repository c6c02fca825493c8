#include "cli/comment_command.hpp"

#include <cstdlib>
#include <ctime>
#include <iostream>
#include <regex>

#include "ci/bounded_file.hpp"
#include "ci/comment_body.hpp"
#include "ci/comment_poster.hpp"
#include "ci/comment_target.hpp"
#include "model/compact_json.hpp"
#include "model/error.hpp"
#include "model/visible_text.hpp"
#include "perfgate_version.hpp"

namespace perfgate {
namespace {

/// Reports are kilobytes; one over this is not a report perfgate wrote.
constexpr std::size_t kMaxReportBytes = 16 * 1024 * 1024;

std::optional<std::string> from_process(const std::string& name) {
  // Empty is unset, as a CI system's template leaves a variable it has no value for.
  const char* value = std::getenv(name.c_str());
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

/// Well-formed UTF-8 throughout (compact_json's rule: no overlong forms, surrogates or
/// values past U+10FFFF).
bool valid_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string read_report(const std::string& path) {
  const std::optional<std::string> read = read_at_most(path, kMaxReportBytes);
  if (!read)
    throw Error(ExitCode::kNoInput, "--report " + visible_text(path) +
                                        ": cannot be read. Name the Markdown report a perfgate "
                                        "command wrote (ab: OUT/report.md; compare: perf_*.md).");
  const std::string& text = *read;
  if (text.size() > kMaxReportBytes)
    throw Error(ExitCode::kDataError, "--report " + visible_text(path) +
                                          ": larger than 16 MiB; not a report perfgate wrote.");
  if (!valid_utf8(text))
    throw Error(ExitCode::kDataError, "--report " + visible_text(path) +
                                          ": not UTF-8 text. Name the Markdown report a "
                                          "perfgate command wrote.");
  return text;
}

/// "Updated by perfgate 0.1.0 at 2026-12-05 12:00 UTC", with a link to the CI run when the
/// environment names one that is a plain https URL.
std::string footer() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", &utc);
  std::string run_url;
  const auto server = from_process("GITHUB_SERVER_URL");
  const auto repository = from_process("GITHUB_REPOSITORY");
  const auto run = from_process("GITHUB_RUN_ID");
  if (server && repository && run) run_url = *server + "/" + *repository + "/actions/runs/" + *run;
  if (const auto job = from_process("CI_JOB_URL")) run_url = *job;
  std::string out = std::string("<sub>Updated by perfgate ") + kVersion + " at " + stamp;
  if (std::regex_match(run_url, std::regex(R"(https://[A-Za-z0-9._~:/%-]{1,500})")))
    out += " in [this run](" + run_url + ")";
  return out + ". perfgate edits this comment on every run.</sub>";
}

}  // namespace

CLI::App* add_comment_command(CLI::App& app, CommentOptions& options) {
  CLI::App* comment = app.add_subcommand(
      "comment",
      "Post a report as the pull request's (merge request's) perfgate comment, or update the "
      "one posted before (docs/ci.md)");
  comment->add_option("--provider", options.provider, "github or gitlab")
      ->required()
      ->check(CLI::IsMember({"github", "gitlab"}));
  comment
      ->add_option("--report", options.report,
                   "The Markdown report: ab's OUT/report.md, compare's perf_*.md")
      ->required();
  comment->add_option("--key", options.key,
                      "Which of perfgate's comments this is, when a pull request gets several "
                      "(one per suite or job; default perfgate)");
  comment->add_option("--pr", options.pr,
                      "The pull or merge request's number (default: the one the CI job runs "
                      "for)");
  comment
      ->add_option("--max-wait", options.max_wait,
                   "The longest wait in seconds a rate limit may ask for (default 60)")
      ->check(CLI::Range(0LL, 3600LL));
  comment->add_flag("--dry-run", options.dry_run,
                    "Print the comment on stdout and contact nothing");
  comment->footer(
      "The token comes from the environment, never from a flag: GitHub GITHUB_TOKEN (with\n"
      "GITHUB_REPOSITORY, GITHUB_EVENT_PATH or GITHUB_REF, GITHUB_API_URL); GitLab\n"
      "PERFGATE_GITLAB_TOKEN (a project access token) or CI_JOB_TOKEN (with CI_API_V4_URL,\n"
      "CI_PROJECT_ID, CI_MERGE_REQUEST_IID).\n\n"
      "Examples:\n"
      "  perfgate comment --provider github --report ab-out/report.md\n"
      "  perfgate comment --provider gitlab --report reports/perf_3f2a1c_20261205T120000Z.md\n"
      "  perfgate comment --provider github --report report.md --key gpu-suite\n"
      "  perfgate comment --provider github --report report.md --dry-run\n\n"
      "Exit status: 0 posted or updated, or it could not comment and said why (a forked pull\n"
      "request's read-only token, a long rate limit) or the job runs for no pull request;\n"
      "64 bad flags or a variable missing; 65 a report or variable perfgate will not send;\n"
      "66 no such report; 74 the API kept failing.");
  return comment;
}

int execute_comment(const CommentOptions& options) {
  const std::string marker = comment_marker(options.key);
  const std::string report = read_report(options.report);
  const CommentProvider provider =
      options.provider == "gitlab" ? CommentProvider::kGitLab : CommentProvider::kGitHub;
  const std::size_t limit =
      provider == CommentProvider::kGitHub ? kGitHubCommentLimit : kGitLabCommentLimit;
  const std::string body = comment_body(report, marker, footer(), limit);
  if (options.dry_run) {
    std::cout << body;
    std::cerr << "perfgate comment: --dry-run: " << body.size() << " bytes printed, nothing sent\n";
    return 0;
  }
  const std::optional<CommentTarget> target = comment_target(provider, from_process, options.pr);
  if (!target) {
    std::cerr << "perfgate comment: this job runs for no "
              << (provider == CommentProvider::kGitHub ? "pull request" : "merge request")
              << "; nothing to comment on (name one with --pr)\n";
    return 0;
  }
  RetryPolicy policy;
  policy.max_wait = std::chrono::seconds(options.max_wait);
  CurlTransport transport;
  const CommentResult result = post_comment(*target, body, marker, transport, policy, std::cerr);
  const std::string where = request_name(*target);
  switch (result.outcome) {
    case CommentOutcome::kCreated:
      std::cout << "perfgate comment: posted the report on " << where
                << (result.url.empty() ? "" : ": " + visible_text(result.url)) << "\n";
      break;
    case CommentOutcome::kUpdated:
      std::cout << "perfgate comment: updated perfgate's comment on " << where
                << (result.url.empty() ? "" : ": " + visible_text(result.url)) << "\n";
      break;
    case CommentOutcome::kCannotComment: {
      const std::string line = "cannot comment on " + where + ": " + result.reason +
                               ". The check's verdict and its summary stand; this is not a "
                               "failure.";
      std::cerr << "perfgate comment: " << line << "\n";
      // In GitHub Actions the line also shows on the run's page, not only in its log.
      if (from_process("GITHUB_ACTIONS") == std::optional<std::string>("true"))
        std::cout << "::warning title=perfgate comment::" << line << "\n";
      break;
    }
  }
  return 0;
}

}  // namespace perfgate
