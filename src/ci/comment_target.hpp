#pragma once
// Where `perfgate comment` writes: the provider's API, the repository or project, the pull
// or merge request, and the token, all read from the CI job's environment. The token comes
// from the environment only, never from the command line (where `ps` and logs show it), and
// no message perfgate prints holds it.
#include <functional>
#include <optional>
#include <string>

namespace perfgate {

enum class CommentProvider { kGitHub, kGitLab };

/// The value of an environment variable, nullopt when unset (the real one reads getenv;
/// tests pass a map).
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

struct CommentTarget {
  CommentProvider provider = CommentProvider::kGitHub;
  std::string api;         ///< base URL, no trailing slash
  std::string repository;  ///< GitHub owner/name; GitLab project id or path, URL-encoded
  long long number = 0;    ///< pull request number, or merge request IID
  std::string token;
  std::string auth_header;  ///< "Authorization: Bearer ", "PRIVATE-TOKEN: " or "JOB-TOKEN: "
  std::string token_name;   ///< the variable the token came from, for messages
};

/// The pull or merge request this job runs for: `pr` when given, else the one its CI
/// environment names. nullopt when the job runs for none (a push, a schedule): there is
/// nothing to comment on. Error(kUsage) when a variable the provider needs is unset,
/// Error(kDataError) when one holds something perfgate will not send (an API URL that is
/// not https, a token with a line break, a repository that is not owner/name).
std::optional<CommentTarget> comment_target(CommentProvider provider,
                                            const EnvironmentLookup& environment,
                                            std::optional<long long> pr);

/// "pull request #12" or "merge request !12".
std::string request_name(const CommentTarget& target);

/// `text` with every occurrence of `secret` replaced by "***", for anything a server sent
/// back before it is printed (a server may echo what it was sent).
std::string without_secret(std::string text, const std::string& secret);

}  // namespace perfgate
