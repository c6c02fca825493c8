#pragma once
// `serve --listen HOST:PORT`: where the dashboard listens. Loopback by default; any other
// address exposes the store to the network and needs --allow-remote.
#include <string>

namespace perfgate {

struct ListenAddress {
  std::string host;  ///< as given, without IPv6 brackets: "127.0.0.1", "::1", "0.0.0.0"
  int port = 8080;   ///< 0: any free port, printed when listening
};

/// "HOST:PORT", "[IPV6]:PORT" or ":PORT" (loopback); Error(kUsage) naming --listen and
/// the fix for anything else.
ListenAddress parse_listen_address(const std::string& text);

/// 127.0.0.0/8, ::1 and "localhost": reachable from this machine only.
bool is_loopback(const std::string& host);

/// "http://HOST:PORT/", with brackets around an IPv6 host.
std::string listen_url(const std::string& host, int port);

}  // namespace perfgate
