#pragma once
// Posts perfgate's comment on a pull or merge request, or edits the one it posted before:
// the comments are listed, the first one holding the marker that can be edited is edited,
// and a new one is posted only when there is none, so a pull request carries one comment
// however many times its check runs.
#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "ci/comment_target.hpp"
#include "ci/http_client.hpp"

namespace perfgate {

/// How long perfgate waits and how often it tries again.
struct RetryPolicy {
  int attempts = 3;                         ///< tries of a request the server fails (5xx)
  std::chrono::milliseconds backoff{1000};  ///< the wait before the second try, doubled after
  int rate_limit_waits = 3;                 ///< waits a rate limit may ask for in all
  std::chrono::seconds max_wait{60};        ///< the longest single wait perfgate accepts
  std::function<void(std::chrono::milliseconds)> sleep;  ///< default: this thread sleeps
  std::function<std::int64_t()> now;                     ///< seconds since the epoch
};

enum class CommentOutcome {
  kCreated,
  kUpdated,
  kCannotComment,  ///< a read-only token, a rate limit longer than perfgate waits
};

struct CommentResult {
  CommentOutcome outcome = CommentOutcome::kCannotComment;
  std::string reason;  ///< why it could not comment
  std::string url;     ///< the comment's page, when the API gave it
};

/// Creates or edits the comment holding `marker`, its text `body`. Progress (waits,
/// retries) goes to `log`. Error(kIoError) when the API keeps failing or refuses for
/// another reason than the token's rights; no message holds the token.
CommentResult post_comment(const CommentTarget& target, const std::string& body,
                           const std::string& marker, ApiTransport& transport,
                           const RetryPolicy& policy, std::ostream& log);

}  // namespace perfgate
