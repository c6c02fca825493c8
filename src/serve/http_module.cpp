// perfgate-http.so: cpp-httplib behind the HttpServer interface (serve/http_server.hpp).
// Built as a module of its own and opened by `perfgate serve` only.
#include <httplib.h>

#include <memory>

#include "serve/http_server.hpp"

namespace perfgate {
namespace {

class CppHttplibServer final : public HttpServer {
 public:
  explicit CppHttplibServer(HttpHandler handler) : handler_(std::move(handler)) {
    // Every request, whatever its method and path, goes to the handler before routing.
    server_.set_pre_routing_handler(
        [this](const httplib::Request& request, httplib::Response& response) {
          HttpRequest asked{request.method, request.path, request.get_header_value("Host"), {}};
          for (const auto& [name, value] : request.params) asked.query.emplace_back(name, value);
          HttpResponse answer = handler_(asked);
          response.status = answer.status;
          for (const auto& [name, value] : answer.headers) response.set_header(name, value);
          response.set_content(answer.body, answer.content_type);
          return httplib::Server::HandlerResponse::Handled;
        });
  }

  int bind(const std::string& host, int port) override {
    if (port == 0) return server_.bind_to_any_port(host);
    return server_.bind_to_port(host, port) ? port : -1;
  }
  void listen() override { server_.listen_after_bind(); }
  void stop() override { server_.stop(); }

 private:
  HttpHandler handler_;
  httplib::Server server_;
};

}  // namespace
}  // namespace perfgate

extern "C" __attribute__((visibility("default"))) perfgate::HttpServer* perfgate_create_http_server(
    perfgate::HttpHandler handler) {
  return new perfgate::CppHttplibServer(std::move(handler));
}
