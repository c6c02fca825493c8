#pragma once
// The HTTP side of `perfgate serve`: cpp-httplib (Debian's libcpp-httplib, a maintained
// server whose request parsing perfgate does not have to own) in front of DashboardApi.
// Only GET and HEAD are answered; every other method is 405, since nothing here writes.
#include <memory>
#include <string>

#include "serve/dashboard_api.hpp"
#include "serve/listen_address.hpp"

namespace httplib {
class Server;
}

namespace perfgate {

class DashboardServer {
 public:
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
  DashboardApi& api_;
  std::unique_ptr<httplib::Server> server_;
  std::string host_;
  int port_ = 0;
};

}  // namespace perfgate
