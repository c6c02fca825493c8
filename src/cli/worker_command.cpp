#include "cli/worker_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "cli/project_lookup.hpp"
#include "fleet/work_queue.hpp"
#include "fleet/worker.hpp"
#include "history/history_setup.hpp"
#include "model/error.hpp"
#include "model/json.hpp"
#include "store/postgres_connection.hpp"
#include "store/store.hpp"

namespace perfgate {
namespace {

constexpr const char* kStoreHelp =
    "PostgreSQL store holding the queue (default: $PERFGATE_STORE, [store] url)";

std::string queue_url(const WorkerCommandOptions& options) {
  return project_store_url(options.store, project_for("", options.repo));
}

int execute_enqueue(const WorkerCommandOptions& options) {
  if (options.environment.empty()) {
    throw Error(ExitCode::kUsage,
                "--environment is required: the runner environment that should measure the "
                "commits, e.g. --environment gpu-h100-1");
  }
  const history::HistorySetup setup = history::open_history(options.repo, std::nullopt);
  std::vector<std::string> shas;
  for (const auto& commit : options.commits) {
    const auto sha = setup.repository->resolve(commit);
    if (!sha) {
      throw Error(ExitCode::kNoInput, "commit '" + commit + "' is not in the repository " +
                                          options.repo + ". Fetch it, or check the name");
    }
    shas.push_back(*sha);
  }
  enqueue_commits(queue_url(options), shas, options.environment, setup.config.suite);
  return 0;
}

int execute_status(const WorkerCommandOptions& options) {
  WorkQueue queue(queue_url(options));
  const auto items = queue.list();
  if (options.json) {
    Json list = Json::array();
    for (const auto& status : items) {
      list.push_back(
          {{"item", status.item.item_id},
           {"commit", status.item.commit_sha},
           {"environment", status.item.environment},
           {"suite", status.item.suite},
           {"state", status.state},
           {"claims", status.item.claim},
           {"lease_owner", status.lease_owner.empty() ? Json() : Json(status.lease_owner)},
           {"attempts_stored", status.attempts_stored}});
    }
    std::cout << Json{{"store", queue.url()}, {"items", list}}.dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("{:>6}  {:<12}  {:<20}  {:<8}  {:>6}  {:>8}  {}\n", "item", "commit",
                           "environment", "state", "claims", "attempts", "held by");
  for (const auto& status : items) {
    std::cout << fmt::format("{:>6}  {:<12}  {:<20}  {:<8}  {:>6}  {:>8}  {}\n",
                             status.item.item_id, status.item.commit_sha.substr(0, 12),
                             status.item.environment, status.state, status.item.claim,
                             status.attempts_stored, status.lease_owner);
  }
  return 0;
}

}  // namespace

void enqueue_commits(const std::string& store_url, const std::vector<std::string>& commits,
                     const std::string& environment, const std::string& suite) {
  WorkQueue queue(store_url);
  const std::size_t added = queue.enqueue(commits, environment, suite);
  std::cout << fmt::format("{}: queued {} commits for {} ({} were already queued)\n", queue.url(),
                           added, environment, commits.size() - added);
}

WorkerCommands add_worker_command(CLI::App& app, WorkerCommandOptions& options) {
  WorkerCommands commands;
  CLI::App* worker = commands.worker = app.add_subcommand(
      "worker", "On each runner: claim planned commits from a PostgreSQL store and measure them");
  worker->require_subcommand(0, 1);
  worker->add_option("--store", options.store, kStoreHelp);
  worker->add_option("--repo", options.repo,
                     "The checkout whose perfgate.toml [history] says how to build and measure "
                     "(default: the current folder)");
  worker->add_option("--environment", options.environment,
                     "This runner's environment: it claims only work queued for it");
  worker->add_option("--worker-id", options.worker_id,
                     "How the queue names this runner (default: <host>-<pid>)");
  worker->add_option("--lease", options.lease,
                     "Seconds a claim lasts unless renewed; renewed every third of it (default "
                     "300)");
  worker->add_option("--poll", options.poll,
                     "Seconds between looks at an empty queue (default 10)");
  worker->add_flag("--exit-when-idle", options.exit_when_idle,
                   "Stop when nothing is queued for the environment");
  worker->add_option("--max-items", options.max_items, "Stop after measuring this many commits");
  worker->add_option("--work-dir", options.work_dir,
                     "Where each claim's raw output goes (default .perfgate/worker)");
  worker->add_flag("--stable", options.stable,
                   "A dedicated, quiet machine: label the attempts stable");
  worker->add_option("--image", options.image, "Container digest or installation id, if any");
  worker->footer(
      "Examples:\n"
      "  export PERFGATE_STORE=postgresql://perf@db.internal/perf\n"
      "  perfgate worker enqueue HEAD~3 HEAD~2 HEAD~1 HEAD --environment gpu-h100-1\n"
      "  perfgate worker --environment gpu-h100-1 --stable\n"
      "  perfgate worker status\n\n"
      "Each runner claims the oldest queued commit of its environment (SELECT ... FOR UPDATE\n"
      "SKIP LOCKED), measures it as 'history measure' does, stores one attempt and claims the\n"
      "next. A runner that dies stops renewing its lease; when the lease expires another\n"
      "claims the commit again. SIGINT, SIGTERM or SIGHUP stop the measured programs and give\n"
      "the commit back to the queue.\n\n"
      "Exit status: 0 stopped when idle (--exit-when-idle) or after --max-items; 64 bad flag\n"
      "or a store that is not PostgreSQL; 65 bad perfgate.toml; 66 repository or database not\n"
      "found; 74 store unavailable; 130, 143 or 129 interrupted (the claim was released).");

  commands.enqueue = worker->add_subcommand("enqueue", "Queue commits for a runner environment");
  commands.enqueue->add_option("COMMIT", options.commits, "Commits to queue (any git revision)")
      ->required();
  commands.enqueue->add_option("--store", options.store, kStoreHelp);
  commands.enqueue->add_option("--repo", options.repo, "The repository (default: current folder)");
  commands.enqueue
      ->add_option("--environment", options.environment,
                   "The runner environment that should measure them")
      ->required();
  commands.enqueue->footer(
      "Examples:\n"
      "  perfgate worker enqueue HEAD --environment gpu-h100-1\n"
      "  perfgate worker enqueue $(git rev-list -5 main) --environment arm-1 --store "
      "postgresql://perf@db/perf\n\n"
      "A commit already queued for the environment stays as it is: enqueuing twice is a no-op.\n"
      "'perfgate history plan --store URL --environment ID' queues what it selects.\n\n"
      "Exit status: 0 queued; 64 bad flag, commit or store URL; 66 commit, repository or\n"
      "database not found; 74 store unavailable.");

  commands.status =
      worker->add_subcommand("status", "List the queue: each item's state and claims");
  commands.status->add_option("--store", options.store, kStoreHelp);
  commands.status->add_flag("--json", options.json, "Print the queue as JSON");
  commands.status->footer(
      "Examples:\n"
      "  perfgate worker status\n"
      "  perfgate worker status --store postgresql://perf@db/perf --json\n\n"
      "Exit status: 0 listed; 64 bad flag or store URL; 66 database not found; 74 store\n"
      "unavailable.");
  return commands;
}

int execute_worker(const WorkerCommands& commands, const WorkerCommandOptions& options) {
  if (commands.enqueue->parsed()) return execute_enqueue(options);
  if (commands.status->parsed()) return execute_status(options);
  if (options.environment.empty()) {
    throw Error(ExitCode::kUsage,
                "--environment is required: the runner environment this machine measures for, "
                "e.g. --environment gpu-h100-1");
  }
  // Validated before anything else: a mistyped URL or environment claims nothing. A server
  // that is restarting or ending sessions at this moment is not refused here: the worker's
  // first connection waits for it (run_worker, up to 30 s), as a fleet started beside a
  // restarting database must.
  try {
    WorkQueue check(queue_url(options));
  } catch (const PgConnectionLost&) {
  }
  const history::HistorySetup setup = history::open_history(options.repo, std::nullopt);
  WorkerOptions worker;
  worker.store_url = queue_url(options);
  worker.environment = options.environment;
  worker.worker_id = options.worker_id.empty() ? default_worker_id() : options.worker_id;
  worker.lease_seconds = options.lease;
  worker.poll_seconds = options.poll;
  worker.exit_when_idle = options.exit_when_idle;
  worker.max_items = options.max_items;
  worker.work_dir = options.work_dir;
  worker.stable = options.stable;
  worker.image = options.image;
  return run_worker(setup, worker, std::cerr);
}

}  // namespace perfgate
