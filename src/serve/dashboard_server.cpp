#include "serve/dashboard_server.hpp"

#include <httplib.h>

#include <cstring>

#include "model/error.hpp"

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

}  // namespace

DashboardServer::DashboardServer(DashboardApi& api)
    : api_(api), server_(std::make_unique<httplib::Server>()) {
  server_->set_pre_routing_handler(
      [this](const httplib::Request& request, httplib::Response& response) {
        response.set_header("X-Content-Type-Options", "nosniff");
        response.set_header("Referrer-Policy", "no-referrer");
        if (request.method != "GET" && request.method != "HEAD") {
          const auto error = dashboard_error(405, "this server is read-only: only GET and HEAD");
          response.status = error.status;
          response.set_header("Allow", "GET, HEAD");
          response.set_content(error.body, error.content_type);
          return httplib::Server::HandlerResponse::Handled;
        }
        // A loopback server answers only requests addressed to the loopback: a web page that
        // points another name at 127.0.0.1 (DNS rebinding) must not read the store.
        if (is_loopback(host_)) {
          const std::string host = host_of(request.get_header_value("Host"));
          if (!host.empty() && !is_loopback(host)) {
            const auto error =
                dashboard_error(403, "Host '" + host + "' is not this loopback server's address");
            response.status = error.status;
            response.set_content(error.body, error.content_type);
            return httplib::Server::HandlerResponse::Handled;
          }
        }
        QueryParameters query;
        for (const auto& [name, value] : request.params) query[name] = value;
        const DashboardResponse answer = api_.get(request.path, query);
        response.status = answer.status;
        response.set_header("Cache-Control", answer.is_data ? "no-store" : "no-cache");
        if (answer.content_type.rfind("text/html", 0) == 0) {
          response.set_header("Content-Security-Policy",
                              "default-src 'none'; script-src 'self'; style-src 'self'; "
                              "connect-src 'self'; img-src 'self'");
        }
        response.set_content(answer.body, answer.content_type);
        return httplib::Server::HandlerResponse::Handled;
      });
}

DashboardServer::~DashboardServer() = default;

int DashboardServer::bind(const ListenAddress& address) {
  host_ = address.host;
  const std::string host = address.host == "localhost" ? "127.0.0.1" : address.host;
  if (address.port == 0) {
    port_ = server_->bind_to_any_port(host);
  } else {
    port_ = server_->bind_to_port(host, address.port) ? address.port : -1;
  }
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
  if (port_ > 0) server_->listen_after_bind();
}

void DashboardServer::stop() {
  server_->stop();
}

}  // namespace perfgate
