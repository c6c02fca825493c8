#pragma once
// The HTTP side of `perfgate serve`: the HTTP server module (serve/http_server.hpp) in
// front of DashboardApi. Only GET and HEAD are answered; every other method is 405, since
// nothing here writes.
#include <memory>
#include <string>

#include "model/loaded_library.hpp"
#include "serve/dashboard_api.hpp"
#include "serve/http_server.hpp"
#include "serve/listen_address.hpp"

namespace perfgate {

class DashboardServer {
 public:
  /// Opens the HTTP server module: Error(kIoError) naming it when it is missing.
  explicit DashboardServer(DashboardApi& api);
  ~DashboardServer();
  DashboardServer(const DashboardServer&) = delete;
  DashboardServer& operator=(const DashboardServer&) = delete;

  /// Binds the address; returns the port (the one chosen for port 0). Error(kIoError)
  /// naming the address when it cannot be bound (in use, not this machine's).
  int bind(const ListenAddress& address);
  /// Serves until stop(); returns at once when bind() was not called.
  void run();
  /// Stops run() from any thread (a signal-watching one): open requests finish first.
  void stop();

 private:
  HttpResponse answer(const HttpRequest& request);

  DashboardApi& api_;
  std::unique_ptr<LoadedLibrary> module_;
  std::unique_ptr<HttpServer> server_;
  std::string host_;
  int port_ = 0;
};

}  // namespace perfgate
