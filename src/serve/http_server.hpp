#pragma once
// The HTTP server under `perfgate serve`, as perfgate sees it. cpp-httplib (Debian's
// libcpp-httplib, a maintained server whose request parsing perfgate does not own) is
// built against OpenSSL, zlib and Brotli, so linking it made every perfgate process load
// them: 1.4 ms and 3.3 MB at each start. It lives in a module of its own,
// perfgate-http.so (src/serve/http_module.cpp), which `serve` alone opens. The module
// knows nothing of perfgate: it turns requests into HttpRequest and answers with what the
// handler returns, so it calls no function of the perfgate binary.
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

struct HttpRequest {
  std::string method;
  std::string path;                                        ///< percent-decoded, without the query
  std::string host;                                        ///< the Host header ("" when none)
  std::vector<std::pair<std::string, std::string>> query;  ///< in the URL's order
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  virtual ~HttpServer() = default;
  /// The port bound (the chosen one for port 0), or -1 with errno saying why.
  virtual int bind(const std::string& host, int port) = 0;
  /// Serves until stop(); every request goes to the handler the server was made with.
  virtual void listen() = 0;
  /// Stops listen() from any thread; open requests finish first.
  virtual void stop() = 0;
};

/// The module's one entry point, looked up by this name.
using CreateHttpServer = HttpServer* (*)(HttpHandler handler);
inline constexpr const char* kCreateHttpServer = "perfgate_create_http_server";

}  // namespace perfgate
