#pragma once
// `perfgate worker`, `worker enqueue` and `worker status`: a fleet of runners sharing the
// planned commits of a PostgreSQL store (docs/fleet.md).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate {

struct WorkerCommandOptions {
  std::string store;
  std::string repo = ".";
  std::string environment;
  std::string worker_id;
  int lease = 300;
  int poll = 10;
  bool exit_when_idle = false;
  std::optional<int> max_items;
  std::string work_dir = ".perfgate/worker";
  bool stable = false;
  std::string image;
  std::vector<std::string> commits;  ///< enqueue
  bool json = false;                 ///< status
};

struct WorkerCommands {
  CLI::App* worker = nullptr;
  CLI::App* enqueue = nullptr;
  CLI::App* status = nullptr;
};

WorkerCommands add_worker_command(CLI::App& app, WorkerCommandOptions& options);
int execute_worker(const WorkerCommands& commands, const WorkerCommandOptions& options);

/// Queues `commits` (full SHAs) for the environment in the store's work queue and prints how
/// many were new: `worker enqueue`, and `history plan --store`.
void enqueue_commits(const std::string& store_url, const std::vector<std::string>& commits,
                     const std::string& environment, const std::string& suite);

}  // namespace perfgate
