#include "serve/listen_address.hpp"

#include <arpa/inet.h>

#include <charconv>

#include "model/error.hpp"

namespace perfgate {
namespace {

[[noreturn]] void refuse(const std::string& text, const std::string& reason) {
  throw Error(ExitCode::kUsage, "--listen '" + text + "': " + reason +
                                    ". Write HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080 "
                                    "(port 0 picks a free one)");
}

}  // namespace

ListenAddress parse_listen_address(const std::string& text) {
  ListenAddress address;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      refuse(text, "an IPv6 address in brackets must be followed by :PORT");
    }
    address.host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) refuse(text, "there is no :PORT");
    address.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (address.host.find(':') != std::string::npos) {
      refuse(text, "an IPv6 address needs brackets");
    }
  }
  if (address.host.empty()) address.host = "127.0.0.1";
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), address.port);
  if (port.empty() || error != std::errc() || end != port.data() + port.size() ||
      address.port < 0 || address.port > 65535) {
    refuse(text, "the port must be a number from 0 to 65535");
  }
  in_addr v4{};
  in6_addr v6{};
  if (address.host != "localhost" && inet_pton(AF_INET, address.host.c_str(), &v4) != 1 &&
      inet_pton(AF_INET6, address.host.c_str(), &v6) != 1) {
    refuse(text, "'" + address.host + "' is not an IP address");
  }
  return address;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost" || host == "::1") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  return false;
}

std::string listen_url(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/";
}

}  // namespace perfgate
