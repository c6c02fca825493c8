#include "serve/dashboard_server.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "model/error.hpp"
#include "perfgate_build_paths.hpp"

namespace perfgate {
namespace {

/// The host part of a Host header: "127.0.0.1:8080" -> "127.0.0.1", "[::1]:80" -> "::1".
std::string host_of(const std::string& header) {
  if (!header.empty() && header.front() == '[') {
    const auto close = header.find(']');
    return close == std::string::npos ? header : header.substr(1, close - 1);
  }
  return header.substr(0, header.find(':'));
}

HttpResponse error_answer(int status, const std::string& message) {
  const DashboardResponse error = dashboard_error(status, message);
  return {error.status, error.body, error.content_type, {}};
}

/// perfgate-http.so: beside the binary in a build tree, in <libdir>/perfgate once installed.
std::filesystem::path http_module() {
  constexpr const char* kName = "perfgate-http.so";
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return kName;
  const std::filesystem::path beside = self.parent_path() / kName;
  if (std::filesystem::exists(beside, error)) return beside;
  return self.parent_path().parent_path() / PERFGATE_INSTALL_LIBDIR / "perfgate" / kName;
}

}  // namespace

DashboardServer::DashboardServer(DashboardApi& api) : api_(api) {
  const std::filesystem::path module = http_module();
  module_ = std::make_unique<LoadedLibrary>(
      module.string(), "perfgate serve",
      "Build perfgate's perfgate_http target, or install perfgate with cmake --install, which "
      "puts it there.");
  const auto create = module_->function<CreateHttpServer>(kCreateHttpServer);
  server_.reset(create([this](const HttpRequest& request) { return answer(request); }));
}

DashboardServer::~DashboardServer() {
  server_.reset();  // before the module that holds its code
}

HttpResponse DashboardServer::answer(const HttpRequest& request) {
  HttpResponse response;
  if (request.method != "GET" && request.method != "HEAD") {
    response = error_answer(405, "this server is read-only: only GET and HEAD");
    response.headers.emplace_back("Allow", "GET, HEAD");
  } else if (const std::string host = host_of(request.host);
             is_loopback(host_) && !host.empty() && !is_loopback(host)) {
    // A loopback server answers only requests addressed to the loopback: a web page that
    // points another name at 127.0.0.1 (DNS rebinding) must not read the store.
    response = error_answer(403, "Host '" + host + "' is not this loopback server's address");
  } else {
    QueryParameters query;
    for (const auto& [name, value] : request.query) query[name] = value;
    const DashboardResponse answer = api_.get(request.path, query);
    response = {answer.status, answer.body, answer.content_type, {}};
    response.headers.emplace_back("Cache-Control", answer.is_data ? "no-store" : "no-cache");
    if (answer.content_type.rfind("text/html", 0) == 0) {
      response.headers.emplace_back("Content-Security-Policy",
                                    "default-src 'none'; script-src 'self'; style-src 'self'; "
                                    "connect-src 'self'; img-src 'self'");
    }
  }
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Referrer-Policy", "no-referrer");
  return response;
}

int DashboardServer::bind(const ListenAddress& address) {
  host_ = address.host;
  const std::string host = address.host == "localhost" ? "127.0.0.1" : address.host;
  port_ = server_->bind(host, address.port);
  if (port_ < 0) {
    const int error = errno;
    throw Error(ExitCode::kIoError,
                "--listen: cannot listen on " + listen_url(address.host, address.port) + " (" +
                    std::strerror(error) +
                    "). Another server may use that port: choose another with --listen, or "
                    "port 0 for any free one");
  }
  return port_;
}

void DashboardServer::run() {
  if (port_ > 0) server_->listen();
}

void DashboardServer::stop() {
  server_->stop();
}

}  // namespace perfgate
