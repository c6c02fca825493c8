#pragma once
// `perfgate serve`: the dashboard and a read-only JSON API over the store (and a history
// file), live: every request reads the store as it is now.
#include <CLI/CLI.hpp>
#include <string>

namespace perfgate {

struct ServeOptions {
  std::string store;
  std::string project;
  std::string history;
  std::string listen = "127.0.0.1:8080";
  bool allow_remote = false;
};

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);
/// Serves until SIGINT, SIGTERM or SIGHUP; then 0.
int execute_serve(const ServeOptions& options);

}  // namespace perfgate
