#include "ci/comment_poster.hpp"

#include <ctime>
#include <optional>
#include <thread>
#include <vector>

#include "model/error.hpp"
#include "model/json.hpp"
#include "model/visible_text.hpp"
#include "perfgate_version.hpp"

namespace perfgate {
namespace {

/// Lists at most this many pages of 100 comments: 10,000 comments.
constexpr int kMaxPages = 100;

/// Thrown inside: the token may not comment, or a rate limit asks for longer than allowed.
struct CannotComment {
  std::string reason;
};

struct ExistingComment {
  std::string id;
  std::string url;
};

class Api {
 public:
  Api(const CommentTarget& target, ApiTransport& transport, const RetryPolicy& policy,
      std::ostream& log)
      : target_(target), transport_(transport), policy_(policy), log_(log) {}

  bool github() const { return target_.provider == CommentProvider::kGitHub; }

  std::string comments_url() const {
    return github() ? target_.api + "/repos/" + target_.repository + "/issues/" +
                          std::to_string(target_.number) + "/comments"
                    : target_.api + "/projects/" + target_.repository + "/merge_requests/" +
                          std::to_string(target_.number) + "/notes";
  }

  std::string comment_url(const std::string& id) const {
    return github() ? target_.api + "/repos/" + target_.repository + "/issues/comments/" + id
                    : comments_url() + "/" + id;
  }

  /// A request with the provider's headers and the token.
  ApiRequest request(const std::string& method, const std::string& url,
                     const std::string& body = "") const {
    ApiRequest out;
    out.method = method;
    out.url = url;
    out.body = body;
    out.headers = {target_.auth_header + target_.token,
                   std::string("User-Agent: perfgate/") + kVersion};
    if (github()) {
      out.headers.push_back("Accept: application/vnd.github+json");
      out.headers.push_back("X-GitHub-Api-Version: 2022-11-28");
    } else {
      out.headers.push_back("Accept: application/json");
    }
    if (!body.empty()) out.headers.push_back("Content-Type: application/json");
    return out;
  }

  /// The reply to `request` once it is not a server failure or a rate limit: those are
  /// waited out and tried again within the policy.
  ApiReply exchange(const ApiRequest& request) {
    int failures = 0;
    int waits = 0;
    std::chrono::milliseconds backoff = policy_.backoff;
    while (true) {
      std::optional<ApiReply> reply;
      std::string failure;
      try {
        reply = transport_.send(request);
      } catch (const ApiReplyTooLarge& error) {
        throw Error(ExitCode::kIoError, request.method + " " + request.url + ": " +
                                            without_secret(error.what(), target_.token) +
                                            ". Is the API URL right?");
      } catch (const Error& error) {
        failure = without_secret(error.what(), target_.token);
      }
      if (reply && reply->status >= 200 && reply->status < 300) return *reply;
      if (reply && rate_limited(*reply)) {
        const std::chrono::seconds wait = rate_limit_wait(*reply);
        if (wait > policy_.max_wait)
          throw CannotComment{"the API's rate limit asks to wait " + std::to_string(wait.count()) +
                              " s, longer than --max-wait " +
                              std::to_string(policy_.max_wait.count()) + " s"};
        if (++waits > policy_.rate_limit_waits)
          throw CannotComment{"the API's rate limit still held after " +
                              std::to_string(policy_.rate_limit_waits) + " waits"};
        log_ << "perfgate comment: rate limited (HTTP " << reply->status << "); waiting "
             << wait.count() << " s as the API asks\n";
        pause(wait);
        continue;
      }
      if (reply && reply->status < 500) return *reply;
      if (reply) failure = "HTTP " + std::to_string(reply->status) + message_of(*reply);
      if (++failures >= policy_.attempts)
        throw Error(ExitCode::kIoError, request.method + " " + request.url + ": " + failure + ", " +
                                            std::to_string(failures) +
                                            " times. The API is failing; try again later.");
      log_ << "perfgate comment: " << request.method << " " << request.url << ": " << failure
           << "; trying again in " << backoff.count() << " ms\n";
      pause(backoff);
      backoff *= 2;
    }
  }

  /// ": the API's message" from a JSON error reply, shortened, without the token.
  std::string message_of(const ApiReply& reply) const {
    const Json parsed = Json::parse(reply.body, nullptr, false);
    std::string message;
    if (parsed.is_object()) {
      for (const char* key : {"message", "error"}) {
        const auto found = parsed.find(key);
        if (found != parsed.end() && found->is_string()) {
          message = found->get<std::string>();
          break;
        }
      }
    }
    if (message.empty()) return "";
    return " (" + visible_text(without_secret(message.substr(0, 300), target_.token)) + ")";
  }

  /// Refused for another reason than rights or rate: an error naming the request.
  [[noreturn]] void refused(const ApiRequest& request, const ApiReply& reply) const {
    std::string fix = "Check the repository, the request number and the token's scopes.";
    if (reply.status == 401) fix = "The token is not valid (expired, or not a token of this host).";
    throw Error(ExitCode::kIoError, request.method + " " + request.url + ": HTTP " +
                                        std::to_string(reply.status) + message_of(reply) + ". " +
                                        fix);
  }

  /// The token lacks the right: GitHub's 403 (a forked pull request's read-only token),
  /// or GitLab refusing a job token it does not let write notes.
  bool no_right(const ApiReply& reply) const {
    if (reply.status == 403) return true;
    return reply.status == 401 && target_.auth_header == "JOB-TOKEN: ";
  }

  std::string no_right_reason(const ApiReply& reply) const {
    if (github())
      return "the token may not write comments (HTTP " + std::to_string(reply.status) + ")" +
             message_of(reply) +
             ": a pull request from a fork gets a read-only token; otherwise give the job "
             "`permissions: pull-requests: write`";
    return "the token may not write notes (HTTP " + std::to_string(reply.status) + ")" +
           message_of(reply) +
           ": set PERFGATE_GITLAB_TOKEN to a project access token with the "
           "api scope";
  }

  /// Every comment of the request that holds `marker`, oldest first.
  std::vector<ExistingComment> marked_comments(const std::string& marker) {
    std::vector<ExistingComment> found;
    for (int page = 1; page <= kMaxPages; ++page) {
      std::string url = comments_url() + "?per_page=100&page=" + std::to_string(page);
      if (!github()) url += "&sort=asc&order_by=created_at";
      const ApiRequest list = request("GET", url);
      const ApiReply reply = exchange(list);
      if (no_right(reply)) throw CannotComment{no_right_reason(reply)};
      if (reply.status != 200) refused(list, reply);
      const Json comments = Json::parse(reply.body, nullptr, false);
      if (!comments.is_array())
        throw Error(ExitCode::kIoError,
                    "GET " + url + ": the reply is not a JSON list of comments. Is " +
                        (github() ? std::string("GITHUB_API_URL") : std::string("CI_API_V4_URL")) +
                        " the API's URL?");
      for (const Json& comment : comments) {
        if (!comment.is_object()) continue;
        const auto body = comment.find("body");
        const auto id = comment.find("id");
        if (body == comment.end() || !body->is_string() || id == comment.end() ||
            !id->is_number_integer())
          continue;
        if (comment.value("system", false) == true) continue;  // GitLab's own notes
        if (body->get<std::string>().find(marker) == std::string::npos) continue;
        found.push_back({std::to_string(id->get<long long>()), comment.value("html_url", "")});
      }
      if (comments.size() < 100) break;
    }
    return found;
  }

  CommentResult write(const std::string& body, const std::string& marker) {
    const std::string payload = Json{{"body", body}}.dump();
    for (const ExistingComment& existing : marked_comments(marker)) {
      const ApiRequest edit =
          request(github() ? "PATCH" : "PUT", comment_url(existing.id), payload);
      const ApiReply reply = exchange(edit);
      if (reply.status == 200) return {CommentOutcome::kUpdated, "", url_of(reply, existing.url)};
      // Someone else's comment that quotes the marker cannot be edited: try the next one.
      if (reply.status == 403 || reply.status == 404) continue;
      refused(edit, reply);
    }
    const ApiRequest create = request("POST", comments_url(), payload);
    const ApiReply reply = exchange(create);
    if (reply.status == 201 || reply.status == 200)
      return {CommentOutcome::kCreated, "", url_of(reply, "")};
    if (no_right(reply)) throw CannotComment{no_right_reason(reply)};
    refused(create, reply);
  }

 private:
  static bool rate_limited(const ApiReply& reply) {
    if (reply.status == 429) return true;
    if (reply.status != 403) return false;
    // GitHub answers a rate limit with 403 too: its headers tell the two apart.
    const auto remaining = reply.headers.find("x-ratelimit-remaining");
    return reply.headers.count("retry-after") != 0 ||
           (remaining != reply.headers.end() && remaining->second == "0");
  }

  std::int64_t now() const {
    return policy_.now ? policy_.now() : static_cast<std::int64_t>(std::time(nullptr));
  }

  /// Retry-After in seconds or as an HTTP date, else GitHub's x-ratelimit-reset; one
  /// backoff when the reply says neither.
  std::chrono::seconds rate_limit_wait(const ApiReply& reply) const {
    const auto clamp = [](std::int64_t seconds) {
      return std::chrono::seconds(
          std::max<std::int64_t>(0, std::min<std::int64_t>(seconds, 1 << 30)));
    };
    if (const auto retry = reply.headers.find("retry-after"); retry != reply.headers.end()) {
      const std::string& value = retry->second;
      if (!value.empty() && value.size() <= 10 &&
          value.find_first_not_of("0123456789") == std::string::npos)
        return clamp(std::stoll(value));
      std::tm date{};
      if (strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &date) != nullptr)
        return clamp(static_cast<std::int64_t>(timegm(&date)) - now());
    }
    if (const auto reset = reply.headers.find("x-ratelimit-reset"); reset != reply.headers.end()) {
      const std::string& value = reset->second;
      if (!value.empty() && value.size() <= 12 &&
          value.find_first_not_of("0123456789") == std::string::npos)
        return clamp(std::stoll(value) - now());
    }
    return std::chrono::duration_cast<std::chrono::seconds>(policy_.backoff) +
           std::chrono::seconds(1);
  }

  void pause(std::chrono::milliseconds wait) const {
    if (policy_.sleep) {
      policy_.sleep(wait);
    } else {
      std::this_thread::sleep_for(wait);
    }
  }

  std::string url_of(const ApiReply& reply, const std::string& fallback) const {
    const Json parsed = Json::parse(reply.body, nullptr, false);
    if (parsed.is_object()) {
      const auto url = parsed.find("html_url");
      if (url != parsed.end() && url->is_string()) return url->get<std::string>();
    }
    return fallback;
  }

  const CommentTarget& target_;
  ApiTransport& transport_;
  const RetryPolicy& policy_;
  std::ostream& log_;
};

}  // namespace

CommentResult post_comment(const CommentTarget& target, const std::string& body,
                           const std::string& marker, ApiTransport& transport,
                           const RetryPolicy& policy, std::ostream& log) {
  Api api(target, transport, policy, log);
  try {
    return api.write(body, marker);
  } catch (const CannotComment& cannot) {
    return {CommentOutcome::kCannotComment, cannot.reason, ""};
  }
}

}  // namespace perfgate
