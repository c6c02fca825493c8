#pragma once
// One HTTP exchange with a REST API (GitHub's, GitLab's), through libcurl: perfgate does not
// write an HTTP client of its own. What comes back is bounded, so a hostile or broken server
// cannot make perfgate hold an unbounded reply, and redirects are never followed, so the
// token in a request's headers goes to the host it was meant for and nowhere else.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/error.hpp"

namespace perfgate {

struct ApiRequest {
  std::string method = "GET";  ///< GET, POST, PATCH or PUT
  std::string url;
  std::vector<std::string> headers;  ///< "Name: value" lines
  std::string body;                  ///< sent when not empty
};

struct ApiReply {
  long status = 0;
  std::map<std::string, std::string> headers;  ///< names in lower case; the last one of a name
  std::string body;
};

/// The largest reply body and header block perfgate reads; larger ones are an error.
inline constexpr std::size_t kMaxResponseBody = 8 * 1024 * 1024;
inline constexpr std::size_t kMaxResponseHeaders = 64 * 1024;

/// A reply over those bounds: an answer no retry will change, so it is not retried.
class ApiReplyTooLarge : public Error {
 public:
  explicit ApiReplyTooLarge(const std::string& message) : Error(ExitCode::kIoError, message) {}
};

/// How requests reach a server: libcurl in perfgate, a fake in tests of what is built on it.
class ApiTransport {
 public:
  virtual ~ApiTransport() = default;
  /// The server's reply, whatever its status. Error(kIoError) when no whole reply came (no
  /// connection, a timeout, a reply over the bounds); its message never holds the headers.
  virtual ApiReply send(const ApiRequest& request) = 0;
};

/// libcurl (opened on first use, model/loaded_library.hpp): http and https only, no
/// redirects, 10 s to connect and 60 s for the whole exchange.
class CurlTransport : public ApiTransport {
 public:
  ApiReply send(const ApiRequest& request) override;
};

}  // namespace perfgate
