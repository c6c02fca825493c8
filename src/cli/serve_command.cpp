#include "cli/serve_command.hpp"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/project_lookup.hpp"
#include "model/error.hpp"
#include "report/html_site.hpp"
#include "serve/dashboard_server.hpp"
#include "serve/listen_address.hpp"

namespace perfgate {
namespace {

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread and every thread started after it, so
/// that only the watcher receives them (with sigtimedwait) and can stop the server cleanly;
/// restores the mask when destroyed.
class SignalWatch {
 public:
  SignalWatch() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    sigaddset(&signals_, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
  }
  ~SignalWatch() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  /// The signal that arrived, or 0 once `done` is set (checked every 200 ms).
  int wait(const std::atomic<bool>& done) const {
    const timespec tick{0, 200'000'000};
    while (!done.load()) {
      const int signal = sigtimedwait(&signals_, nullptr, &tick);
      if (signal > 0) return signal;
    }
    return 0;
  }

 private:
  sigset_t signals_;
  sigset_t previous_;
};

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve the dashboard and a read-only JSON API over the store (docs/api.md)");
  cmd->add_option(
      "--store", options.store,
      "Store URL (default: $PERFGATE_STORE, [store] url, sqlite:.perfgate/perfgate.db)");
  cmd->add_option("--project", options.project,
                  "perfgate.toml to use (store URL, [report] commit_url)");
  cmd->add_option("--history", options.history,
                  "A history.json (perfgate history export) to serve beside the store; read "
                  "again at each request, so a new export appears without a restart");
  cmd->add_option("--listen", options.listen,
                  "HOST:PORT to listen on (default 127.0.0.1:8080; port 0: any free port)");
  cmd->add_flag("--allow-remote", options.allow_remote,
                "Allow a --listen address other than loopback: the store becomes readable by "
                "anyone who can reach it (the API has no authentication)");
  cmd->footer(
      "Examples:\n"
      "  perfgate serve                                      # http://127.0.0.1:8080/\n"
      "  perfgate serve --store sqlite:perf.db --history history.json --listen 127.0.0.1:0\n"
      "  curl -s http://127.0.0.1:8080/api/v1/cohorts\n\n"
      "Ctrl-C (SIGINT), SIGTERM or SIGHUP stops it after the requests in progress.\n\n"
      "Exit status: 0 stopped by a signal; 64 bad flag or --listen address, or a non-loopback\n"
      "address without --allow-remote; 65 unreadable history.json; 66 store or --history file\n"
      "not found; 74 the address cannot be listened on, or the store is not readable.");
  return cmd;
}

int execute_serve(const ServeOptions& options) {
  const ListenAddress address = parse_listen_address(options.listen);
  if (!is_loopback(address.host) && !options.allow_remote) {
    throw Error(ExitCode::kUsage,
                "--listen " + options.listen +
                    " is reachable from other machines, and the API has no authentication. "
                    "Pass --allow-remote to mean it, or listen on 127.0.0.1");
  }
  std::optional<std::filesystem::path> history;
  if (!options.history.empty()) {
    read_history_file(options.history);  // refused now rather than at the first request
    history = std::filesystem::absolute(options.history);
  }
  const ProjectConfig project = project_for(options.project, std::filesystem::current_path());
  DashboardApi api(open_existing_store(project_store_url(options.store, project)), history,
                   report_commit_url(project));

  const SignalWatch signals;  // before the server's threads exist, so that they inherit it
  DashboardServer server(api);
  const int port = server.bind(address);
  std::cout << "perfgate serve: " << listen_url(address.host, port) << " (Ctrl-C stops it)"
            << std::endl;
  if (!is_loopback(address.host)) {
    std::cerr << "perfgate serve: warning: listening on " << address.host
              << ": anyone who reaches this machine can read the store\n";
  }
  std::atomic<bool> done{false};
  std::atomic<int> received{0};
  std::thread watcher([&] {
    received = signals.wait(done);
    server.stop();
  });
  server.run();
  done = true;
  watcher.join();
  std::cerr << "perfgate serve: stopped"
            << (received != 0 ? std::string(" by SIG") + sigabbrev_np(received) : std::string())
            << "\n";
  return 0;
}

}  // namespace perfgate
