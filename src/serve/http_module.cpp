// perfgate-http.so: cpp-httplib behind the HttpServer interface (serve/http_server.hpp).
// Built as a module of its own and opened by `perfgate serve` only.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string_view>

#include "serve/http_server.hpp"

namespace perfgate {
namespace {

// Limits on what one client may send before it is answered. Debian's cpp-httplib (0.11)
// has no limit on the number of header lines or on the time a request's head may take,
// so it reads the head here first: a client that floods headers, or trickles them to
// hold a thread, is answered and closed without reaching the library.
constexpr std::size_t kMaxHeadBytes = 32 * 1024;
constexpr std::size_t kMaxHeaderLines = 100;
constexpr auto kHeadDeadline = std::chrono::seconds(10);
constexpr auto kIoTimeout = std::chrono::seconds(10);
constexpr int kThreads = 32;

/// Waits up to `timeout` for `events` on `fd`, in slices, giving up as soon as `stop`
/// says so. True when the socket is ready.
template <typename Stop>
bool wait_for(int fd, short events, std::chrono::milliseconds timeout, const Stop& stop) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (!stop()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd ready{fd, events, 0};
    const int slice = static_cast<int>(std::min<long long>(left.count(), 100));
    const int result = ::poll(&ready, 1, slice);
    if (result > 0) return true;
    if (result < 0 && errno != EINTR) return false;
  }
  return false;
}

/// A socket whose first bytes (the request's head, read with limits) are already in hand.
class HeadFirstStream final : public httplib::Stream {
 public:
  HeadFirstStream(int fd, std::string buffered, std::function<bool()> stopping)
      : fd_(fd), buffered_(std::move(buffered)), stopping_(std::move(stopping)) {}

  bool is_readable() const override {
    return offset_ < buffered_.size() ||
           wait_for(fd_, POLLIN, std::chrono::duration_cast<std::chrono::milliseconds>(kIoTimeout),
                    stopping_);
  }
  bool is_writable() const override {
    // An answer in progress is finished even while the server stops: only waiting for a
    // client's bytes gives way to a signal.
    return wait_for(fd_, POLLOUT, std::chrono::duration_cast<std::chrono::milliseconds>(kIoTimeout),
                    [] { return false; });
  }
  ssize_t read(char* ptr, size_t size) override {
    if (offset_ < buffered_.size()) {
      const std::size_t count = std::min(size, buffered_.size() - offset_);
      std::memcpy(ptr, buffered_.data() + offset_, count);
      offset_ += count;
      return static_cast<ssize_t>(count);
    }
    if (!is_readable()) return -1;
    return ::recv(fd_, ptr, size, 0);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return ::send(fd_, ptr, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address_of(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address_of(::getsockname, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  template <typename Get>
  void address_of(Get get, std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    ip.clear();
    port = 0;
    if (get(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET) {
      const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
      ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
      port = ntohs(v4->sin_port);
    } else if (address.ss_family == AF_INET6) {
      const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
      ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
      port = ntohs(v6->sin6_port);
    }
    ip = text;
  }

  int fd_;
  std::string buffered_;
  std::size_t offset_ = 0;
  std::function<bool()> stopping_;
};

/// cpp-httplib's server with its request head read by perfgate first, one request per
/// connection.
class GuardedServer final : public httplib::Server {
 public:
  /// Before stop(): every connection still reading a head gives up within 100 ms.
  void begin_stop() { stopping_.store(true); }

 private:
  std::atomic<bool> stopping_{false};

  // Overrides the library's (private virtual) entry point for each accepted connection.
  bool process_and_close_socket(socket_t sock) override {
    const auto stopping = [this] { return stopping_.load(); };
    std::string head;
    const char* refusal = read_head(sock, head, stopping);
    bool ok = false;
    if (refusal != nullptr) {
      ::send(sock, refusal, std::strlen(refusal), MSG_NOSIGNAL);
    } else {
      HeadFirstStream stream(sock, std::move(head), stopping);
      bool closed = false;
      ok = process_request(stream, /*close_connection=*/true, closed, [](httplib::Request&) {});
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  /// Reads up to the blank line that ends the head, within the limits; nullptr when it
  /// came whole, else the response that refuses it.
  template <typename Stop>
  static const char* read_head(int fd, std::string& head, const Stop& stopping) {
    const auto deadline = std::chrono::steady_clock::now() + kHeadDeadline;
    char buffer[4096];
    while (head.find("\r\n\r\n") == std::string::npos) {
      if (head.size() > kMaxHeadBytes || line_count(head) > kMaxHeaderLines + 1) {
        return "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
               "Content-Length: 0\r\n\r\n";
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !wait_for(fd, POLLIN, left, stopping)) {
        return stopping() ? ""
                          : "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                            "Content-Length: 0\r\n\r\n";
      }
      const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got <= 0) return "";  // the client went away
      head.append(buffer, static_cast<std::size_t>(got));
    }
    if (line_count(head.substr(0, head.find("\r\n\r\n"))) > kMaxHeaderLines + 1) {
      return "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
             "Content-Length: 0\r\n\r\n";
    }
    return nullptr;
  }

  static std::size_t line_count(std::string_view text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  }
};

class CppHttplibServer final : public HttpServer {
 public:
  explicit CppHttplibServer(HttpHandler handler) : handler_(std::move(handler)) {
    // More threads than the library's default of 8, so that a few slow clients (each held
    // at most kHeadDeadline) leave room for everyone else.
    server_.new_task_queue = [] { return new httplib::ThreadPool(kThreads); };
    server_.set_read_timeout(std::chrono::duration_cast<std::chrono::seconds>(kIoTimeout));
    server_.set_write_timeout(std::chrono::duration_cast<std::chrono::seconds>(kIoTimeout));
    server_.set_payload_max_length(64 * 1024);
    // Every request, whatever its method and path, goes to the handler before routing.
    server_.set_pre_routing_handler(
        [this](const httplib::Request& request, httplib::Response& response) {
          // Ranges are not served: the library would build a multi-range answer in memory
          // with no limit (400 ranges of a 3 MB file ran it out of memory). The request
          // object is the library's own, not a const one; the whole body is sent instead,
          // as HTTP allows.
          const_cast<httplib::Request&>(request).ranges.clear();
          HttpRequest asked{request.method, request.path, request.get_header_value("Host"), {}};
          for (const auto& [name, value] : request.params) asked.query.emplace_back(name, value);
          HttpResponse answer = handler_(asked);
          response.status = answer.status;
          for (const auto& [name, value] : answer.headers) response.set_header(name, value);
          response.set_content(answer.body, answer.content_type);
          response.set_header("Accept-Ranges", "none");
          return httplib::Server::HandlerResponse::Handled;
        });
  }

  int bind(const std::string& host, int port) override {
    if (port == 0) return server_.bind_to_any_port(host);
    return server_.bind_to_port(host, port) ? port : -1;
  }
  void listen() override { server_.listen_after_bind(); }
  void stop() override {
    server_.begin_stop();
    server_.stop();
  }

 private:
  HttpHandler handler_;
  GuardedServer server_;
};

}  // namespace
}  // namespace perfgate

extern "C" __attribute__((visibility("default"))) perfgate::HttpServer* perfgate_create_http_server(
    perfgate::HttpHandler handler) {
  return new perfgate::CppHttplibServer(std::move(handler));
}
