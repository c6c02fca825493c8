#include "ci/http_client.hpp"

// The type-checking macros of curl.h would wrap every call of curl_easy_setopt, including
// the calls through the pointers below; each call passes the exact type libcurl reads.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "model/error.hpp"
#include "model/loaded_library.hpp"
#include "perfgate_build_paths.hpp"

namespace perfgate {
namespace {

#define PERFGATE_LIBCURL_FUNCTIONS(X) \
  X(curl_global_init)                 \
  X(curl_easy_init)                   \
  X(curl_easy_setopt)                 \
  X(curl_easy_perform)                \
  X(curl_easy_getinfo)                \
  X(curl_easy_cleanup)                \
  X(curl_easy_strerror)               \
  X(curl_slist_append)                \
  X(curl_slist_free_all)

PERFGATE_LAZY_LIBRARY(PERFGATE_LIBCURL_FUNCTIONS, PERFGATE_LIBCURL_SONAME,
                      "perfgate comment (the GitHub and GitLab APIs)",
                      "Install Debian's libcurl4 package.")

/// What the callbacks collect, with the reason when they stopped the transfer.
struct Reply {
  ApiReply response;
  std::size_t header_bytes = 0;
  std::string overflow;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* reply = static_cast<Reply*>(user);
  const std::size_t bytes = size * count;
  if (reply->response.body.size() + bytes > kMaxResponseBody) {
    reply->overflow = "the reply's body is larger than " +
                      std::to_string(kMaxResponseBody / (1024 * 1024)) + " MiB";
    return 0;  // libcurl ends the transfer with CURLE_WRITE_ERROR
  }
  reply->response.body.append(data, bytes);
  return bytes;
}

std::string trimmed(std::string text) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  text.erase(text.begin(), std::find_if_not(text.begin(), text.end(), space));
  text.erase(std::find_if_not(text.rbegin(), text.rend(), space).base(), text.end());
  return text;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* reply = static_cast<Reply*>(user);
  const std::size_t bytes = size * count;
  reply->header_bytes += bytes;
  if (reply->header_bytes > kMaxResponseHeaders) {
    reply->overflow = "the reply's headers are larger than " +
                      std::to_string(kMaxResponseHeaders / 1024) + " KiB";
    return 0;
  }
  const std::string line(data, bytes);
  // A new status line (after "100 Continue", or a proxy's reply): its headers start afresh.
  if (line.rfind("HTTP/", 0) == 0) {
    reply->response.headers.clear();
    return bytes;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) return bytes;
  std::string name = trimmed(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  reply->response.headers[name] = trimmed(line.substr(colon + 1));
  return bytes;
}

struct EasyDeleter {
  void operator()(CURL* handle) const { calls().curl_easy_cleanup(handle); }
};
struct ListDeleter {
  void operator()(curl_slist* list) const { calls().curl_slist_free_all(list); }
};

// curl_off_t is long on the 64-bit systems perfgate builds for: one overload serves both.
static_assert(sizeof(curl_off_t) == sizeof(long));
void set(CURL* handle, CURLoption option, long value) {
  calls().curl_easy_setopt(handle, option, value);
}
void set(CURL* handle, CURLoption option, const char* value) {
  calls().curl_easy_setopt(handle, option, value);
}
void set(CURL* handle, CURLoption option, void* value) {
  calls().curl_easy_setopt(handle, option, value);
}
void set(CURL* handle, CURLoption option, curl_write_callback value) {
  calls().curl_easy_setopt(handle, option, value);
}

}  // namespace

ApiReply CurlTransport::send(const ApiRequest& request) {
  static const CURLcode initialised = calls().curl_global_init(CURL_GLOBAL_DEFAULT);
  if (initialised != CURLE_OK)
    throw Error(ExitCode::kIoError,
                std::string("libcurl cannot start: ") + calls().curl_easy_strerror(initialised));
  const std::unique_ptr<CURL, EasyDeleter> handle(calls().curl_easy_init());
  if (!handle) throw Error(ExitCode::kIoError, "libcurl cannot start a transfer");
  CURL* easy = handle.get();

  curl_slist* list = nullptr;
  for (const std::string& header : request.headers) {
    curl_slist* longer = calls().curl_slist_append(list, header.c_str());
    if (longer == nullptr) {
      calls().curl_slist_free_all(list);
      throw Error(ExitCode::kIoError, "libcurl cannot hold a request header");
    }
    list = longer;
  }
  const std::unique_ptr<curl_slist, ListDeleter> headers(list);

  Reply reply;
  char error[CURL_ERROR_SIZE] = {};
  set(easy, CURLOPT_URL, request.url.c_str());
  set(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  set(easy, CURLOPT_FOLLOWLOCATION, 0L);
  set(easy, CURLOPT_NOSIGNAL, 1L);
  set(easy, CURLOPT_CONNECTTIMEOUT, 10L);
  set(easy, CURLOPT_TIMEOUT, 60L);
  set(easy, CURLOPT_ERRORBUFFER, static_cast<void*>(error));
  set(easy, CURLOPT_HTTPHEADER, static_cast<void*>(headers.get()));
  set(easy, CURLOPT_WRITEFUNCTION, static_cast<curl_write_callback>(on_body));
  set(easy, CURLOPT_WRITEDATA, static_cast<void*>(&reply));
  set(easy, CURLOPT_HEADERFUNCTION, static_cast<curl_write_callback>(on_header));
  set(easy, CURLOPT_HEADERDATA, static_cast<void*>(&reply));
  if (request.method != "GET") set(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (!request.body.empty() || request.method == "POST") {
    set(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    set(easy, CURLOPT_POSTFIELDS, request.body.c_str());
  }

  const CURLcode result = calls().curl_easy_perform(easy);
  if (result != CURLE_OK) {
    const std::string reason = !reply.overflow.empty() ? reply.overflow
                               : error[0] != '\0'      ? std::string(error)
                                                       : calls().curl_easy_strerror(result);
    if (!reply.overflow.empty()) throw ApiReplyTooLarge("the API's reply was refused: " + reason);
    throw Error(ExitCode::kIoError, "no reply from the API: " + reason);
  }
  calls().curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &reply.response.status);
  return std::move(reply.response);
}

}  // namespace perfgate
