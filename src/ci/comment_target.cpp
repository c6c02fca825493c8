#include "ci/comment_target.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "ci/bounded_file.hpp"
#include "model/error.hpp"
#include "model/json.hpp"
#include "model/visible_text.hpp"

namespace perfgate {
namespace {

constexpr std::size_t kMaxEventBytes = 32 * 1024 * 1024;

std::optional<std::string> value_of(const EnvironmentLookup& environment, const std::string& name) {
  std::optional<std::string> value = environment(name);
  if (value && value->empty()) return std::nullopt;
  return value;
}

std::string required(const EnvironmentLookup& environment, const std::string& name,
                     const std::string& fix) {
  const std::optional<std::string> value = value_of(environment, name);
  if (!value) throw Error(ExitCode::kUsage, name + " is not set. " + fix);
  return *value;
}

/// An API base URL perfgate will send a token to: https, or http to this machine only
/// (a test's fake server); no spaces, control characters or user:password part.
std::string api_url(const std::string& name, std::string url) {
  const bool https = url.rfind("https://", 0) == 0;
  const bool local = std::regex_search(
      url, std::regex(R"(^http://(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?(/|$))"));
  const bool clean =
      url.size() <= 2048 && std::none_of(url.begin(), url.end(), [](unsigned char c) {
        return c <= 0x20 || c == 0x7f || c == '@' || c == '#' || c == '?';
      });
  if (!(https || local) || !clean)
    throw Error(ExitCode::kDataError,
                name + "=" + visible_text(url.substr(0, 200)) +
                    ": not an API URL perfgate sends a token to: it must be https:// (or "
                    "http:// to 127.0.0.1 or localhost, for a test), with no user, query or "
                    "spaces. Fix the variable, or unset it for the provider's default.");
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

std::string checked_token(const std::string& name, const std::string& token) {
  const bool printable =
      token.size() <= 4096 && std::none_of(token.begin(), token.end(),
                                           [](unsigned char c) { return c < 0x21 || c == 0x7f; });
  if (!printable)
    throw Error(ExitCode::kDataError,
                name +
                    " holds spaces, a line break or other control characters, or is over "
                    "4096 bytes (its value is not shown). Set it to the token alone.");
  return token;
}

long long request_number(const std::string& name, const std::string& text) {
  if (text.empty() || text.size() > 12 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }) ||
      std::stoll(text) <= 0)
    throw Error(ExitCode::kDataError,
                name + "=" + visible_text(text.substr(0, 40)) +
                    ": not a pull or merge request number (a positive integer).");
  return std::stoll(text);
}

/// The pull request of a GitHub event file: `pull_request.number` (pull_request and
/// pull_request_target events), or the issue of an issue_comment on a pull request.
std::optional<long long> number_in_event(const std::string& path) {
  const std::optional<std::string> read = read_at_most(path, kMaxEventBytes);
  if (!read)
    throw Error(ExitCode::kNoInput,
                "GITHUB_EVENT_PATH=" + visible_text(path) +
                    ": cannot be read. Run in GitHub Actions, or name the pull request with --pr.");
  const std::string& text = *read;
  if (text.size() > kMaxEventBytes)
    throw Error(ExitCode::kDataError, "GITHUB_EVENT_PATH=" + visible_text(path) +
                                          ": larger than 32 MiB; name the pull request with "
                                          "--pr.");
  const Json event = Json::parse(text, nullptr, false);
  if (event.is_discarded() || !event.is_object())
    throw Error(ExitCode::kDataError, "GITHUB_EVENT_PATH=" + visible_text(path) +
                                          ": not a JSON object; name the pull request with --pr.");
  const auto number_of = [](const Json& object) -> std::optional<long long> {
    const auto found = object.find("number");
    if (found == object.end() || !found->is_number_integer() || found->get<long long>() <= 0)
      return std::nullopt;
    return found->get<long long>();
  };
  if (const auto pr = event.find("pull_request"); pr != event.end() && pr->is_object())
    return number_of(*pr);
  if (const auto issue = event.find("issue");
      issue != event.end() && issue->is_object() && issue->contains("pull_request"))
    return number_of(*issue);
  return std::nullopt;
}

/// A GitLab project as the API names it in a path: its id, or its path URL-encoded.
std::string project_in_path(const std::string& project) {
  if (project.size() > 1024)
    throw Error(ExitCode::kDataError, "CI_PROJECT_ID: longer than 1024 bytes.");
  std::string out;
  for (const unsigned char c : project) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.') {
      out += static_cast<char>(c);
    } else {
      static const char* const hex = "0123456789ABCDEF";
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::optional<CommentTarget> github_target(const EnvironmentLookup& environment,
                                           std::optional<long long> pr) {
  if (!pr) {
    if (const auto event = value_of(environment, "GITHUB_EVENT_PATH")) pr = number_in_event(*event);
  }
  if (!pr) {
    // refs/pull/N/merge (or /head): the ref of a pull_request event's checkout.
    const std::string ref = value_of(environment, "GITHUB_REF").value_or("");
    std::smatch match;
    if (std::regex_match(ref, match, std::regex(R"(refs/pull/([0-9]{1,12})/(merge|head))")))
      pr = request_number("GITHUB_REF", match[1].str());
  }
  if (!pr) return std::nullopt;
  CommentTarget target;
  target.provider = CommentProvider::kGitHub;
  target.number = *pr;
  target.api = api_url("GITHUB_API_URL",
                       value_of(environment, "GITHUB_API_URL").value_or("https://api.github.com"));
  target.repository =
      required(environment, "GITHUB_REPOSITORY", "Run in GitHub Actions, or set it to owner/name.");
  if (!std::regex_match(target.repository,
                        std::regex(R"([A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100})")))
    throw Error(ExitCode::kDataError,
                "GITHUB_REPOSITORY=" + visible_text(target.repository.substr(0, 200)) +
                    ": not owner/name.");
  target.token_name = "GITHUB_TOKEN";
  target.token = checked_token(
      "GITHUB_TOKEN",
      required(environment, "GITHUB_TOKEN",
               "Give the step the job's token: `env: GITHUB_TOKEN: ${{ github.token }}`, with "
               "`permissions: pull-requests: write` on the job (docs/ci.md)."));
  target.auth_header = "Authorization: Bearer ";
  return target;
}

std::optional<CommentTarget> gitlab_target(const EnvironmentLookup& environment,
                                           std::optional<long long> pr) {
  if (!pr) {
    if (const auto iid = value_of(environment, "CI_MERGE_REQUEST_IID"))
      pr = request_number("CI_MERGE_REQUEST_IID", *iid);
  }
  if (!pr) return std::nullopt;
  CommentTarget target;
  target.provider = CommentProvider::kGitLab;
  target.number = *pr;
  target.api = api_url("CI_API_V4_URL", required(environment, "CI_API_V4_URL",
                                                 "Run in GitLab CI, or set it to the API's URL "
                                                 "(https://gitlab.example.com/api/v4)."));
  target.repository = project_in_path(
      required(environment, "CI_PROJECT_ID", "Run in GitLab CI, or set it to the project's id."));
  // A project access token can write notes; the job token can on GitLab versions and
  // projects that allow it (docs/ci.md).
  if (const auto token = value_of(environment, "PERFGATE_GITLAB_TOKEN")) {
    target.token_name = "PERFGATE_GITLAB_TOKEN";
    target.token = checked_token(target.token_name, *token);
    target.auth_header = "PRIVATE-TOKEN: ";
  } else {
    target.token_name = "CI_JOB_TOKEN";
    target.token = checked_token(
        "CI_JOB_TOKEN",
        required(environment, "CI_JOB_TOKEN",
                 "Run in GitLab CI, or set PERFGATE_GITLAB_TOKEN to a project access token "
                 "with the api scope (docs/ci.md)."));
    target.auth_header = "JOB-TOKEN: ";
  }
  return target;
}

}  // namespace

std::optional<CommentTarget> comment_target(CommentProvider provider,
                                            const EnvironmentLookup& environment,
                                            std::optional<long long> pr) {
  return provider == CommentProvider::kGitHub ? github_target(environment, pr)
                                              : gitlab_target(environment, pr);
}

std::string request_name(const CommentTarget& target) {
  return target.provider == CommentProvider::kGitHub
             ? "pull request #" + std::to_string(target.number)
             : "merge request !" + std::to_string(target.number);
}

std::string without_secret(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3))
    text.replace(at, secret.size(), "***");
  return text;
}

}  // namespace perfgate
