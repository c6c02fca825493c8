#pragma once
// `perfgate worker`: one runner of a fleet. It claims the next planned commit of its
// environment from the store's work queue, measures it exactly as `history measure` does
// (a clean copy of the commit, the [history] build, the commit's own suite), stores the
// attempt in the queue and claims the next, renewing its lease while it measures.
// SIGINT, SIGTERM or SIGHUP stop the measured programs and give the item back unmeasured.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "history/history_setup.hpp"

namespace perfgate {

struct WorkerOptions {
  std::string store_url;
  std::string environment;
  std::string worker_id;  ///< how the queue names this runner: <host>-<pid> by default
  int lease_seconds = 300;
  int poll_seconds = 10;
  bool exit_when_idle = false;     ///< stop when nothing is queued for the environment
  std::optional<int> max_items;    ///< stop after measuring this many
  std::filesystem::path work_dir;  ///< raw output of each claim: <work_dir>/<run>/raw/…
  bool stable = false;
  std::string image;
};

/// Claims and measures until interrupted, idle (exit_when_idle) or max_items are done.
/// Returns 0, or 130/143/129 when interrupted (the claimed item is released).
int run_worker(const history::HistorySetup& setup, const WorkerOptions& options, std::ostream& log);

/// "<host>-<pid>": a name no other live runner has.
std::string default_worker_id();

}  // namespace perfgate
