#include "fleet/worker.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "fleet/work_queue.hpp"
#include "history/commit_measurement.hpp"
#include "measure/interruption.hpp"
#include "measure/process_executor.hpp"
#include "model/error.hpp"
#include "model/json.hpp"
#include "store/postgres_connection.hpp"

namespace perfgate {
namespace {

/// Renews the lease of the claimed item from a thread of its own, on a connection of its
/// own, every third of the lease, for as long as the measurement runs. A renewal that fails
/// (the server restarting, the connection terminated) is tried again every second on a new
/// connection, so that the lease lapses only when the database stays away that long.
class LeaseKeeper {
 public:
  LeaseKeeper(const std::string& url, const WorkItem& item, const std::string& worker,
              int lease_seconds)
      : thread_([this, url, item, worker, lease_seconds] {
          const auto period = std::chrono::milliseconds(lease_seconds * 1000 / 3);
          const auto retry = std::min(period, std::chrono::milliseconds(1000));
          std::unique_ptr<WorkQueue> queue;
          std::unique_lock lock(mutex_);
          auto wait = period;
          while (!stop_) {
            if (wake_.wait_for(lock, wait, [this] { return stop_; })) break;
            lock.unlock();
            std::string failure;
            bool held = true;
            try {
              if (!queue) queue = std::make_unique<WorkQueue>(url);
              held = queue->renew(item, worker, lease_seconds);
            } catch (const std::exception& e) {
              failure = e.what();
            }
            lock.lock();
            if (!failure.empty()) {
              ++failures_;
              error_ = failure;
              wait = retry;
              continue;
            }
            wait = period;
            if (!held) {
              lost_ = true;
              break;
            }
          }
        }) {}
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;
  ~LeaseKeeper() { stop(); }

  void stop() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  /// After stop(): whether a renewal found the item held by another claim.
  bool lost() const { return lost_; }
  /// After stop(): how many renewals failed, and the last one's error.
  int failures() const { return failures_; }
  const std::string& error() const { return error_; }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool lost_ = false;
  int failures_ = 0;
  std::string error_;
  std::thread thread_;  ///< last: it starts once everything above exists
};

/// How long a worker's first connection to the store is tried again while the server
/// restarts or ends sessions, before it gives up.
constexpr std::chrono::seconds kFirstConnectionWait(30);

/// Sleeps up to `seconds`, waking early when perfgate is interrupted.
void idle(int seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (interruption_signal() == 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

/// Runs a queue operation until it reaches the database: a lost connection (a restart,
/// pg_terminate_backend) is tried again with a growing pause, up to 5 s, on a new
/// connection. nullopt when perfgate is interrupted meanwhile.
template <typename Operation>
auto with_database(const std::string& worker, const std::string& what, std::ostream& log,
                   Operation operation) -> std::optional<decltype(operation(false))> {
  auto pause = std::chrono::milliseconds(200);
  const auto first_failure = std::chrono::steady_clock::now();
  for (bool retrying = false;; retrying = true) {
    try {
      auto result = operation(retrying);
      if (retrying) {
        const auto away =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - first_failure);
        log << fmt::format("worker {}: the database is back after {:.1f} s; {}\n", worker,
                           away.count(), what)
            << std::flush;
      }
      return result;
    } catch (const PgConnectionLost& lost) {
      if (!retrying) {
        log << fmt::format("worker {}: {}: {}; trying again\n", worker, what, lost.what())
            << std::flush;
      }
    }
    const auto until = std::chrono::steady_clock::now() + pause;
    while (interruption_signal() == 0 && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (interruption_signal() != 0) return std::nullopt;
    pause = std::min(pause * 2, std::chrono::milliseconds(5000));
  }
}

}  // namespace

std::string default_worker_id() {
  char host[HOST_NAME_MAX + 1] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return fmt::format("{}-{}", host[0] != '\0' ? host : "worker", ::getpid());
}

int run_worker(const history::HistorySetup& setup, const WorkerOptions& options,
               std::ostream& log) {
  if (options.lease_seconds < 3) {
    throw Error(ExitCode::kUsage, "--lease " + std::to_string(options.lease_seconds) +
                                      ": a lease shorter than 3 s cannot be renewed in time. "
                                      "Pass 3 or more (default 300)");
  }
  if (options.poll_seconds < 1) {
    throw Error(ExitCode::kUsage, "--poll " + std::to_string(options.poll_seconds) +
                                      ": pass 1 or more seconds (default 10)");
  }
  if (options.max_items && *options.max_items < 1) {
    throw Error(ExitCode::kUsage, "--max-items " + std::to_string(*options.max_items) +
                                      ": pass 1 or more, or leave it out to run until stopped");
  }
  history::MeasureSettings settings;
  settings.config = setup.config;
  settings.harness_sha = setup.repository->resolve("HEAD").value_or("");
  settings.environment_id = options.environment;
  settings.stable = options.stable;
  settings.image = options.image;

  const InterruptionScope interruption;
  // The first connection rides out a restart or a terminated session like every later one
  // (a worker started while the database restarts waits for it), but only for
  // kFirstConnectionWait: a server that is not there at all is an error, not a wait.
  std::optional<WorkQueue> connected;
  {
    const auto give_up = std::chrono::steady_clock::now() + kFirstConnectionWait;
    auto pause = std::chrono::milliseconds(200);
    for (bool said = false;;) {
      try {
        connected.emplace(options.store_url);
        break;
      } catch (const PgConnectionLost& lost) {
        if (std::chrono::steady_clock::now() >= give_up) throw;
        if (!said) {
          log << fmt::format("worker {}: connecting to the store: {}; trying again\n",
                             options.worker_id, lost.what())
              << std::flush;
          said = true;
        }
      }
      const auto until = std::chrono::steady_clock::now() + pause;
      while (interruption_signal() == 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      if (const int signal = interruption_signal(); signal != 0) {
        log << "worker " << options.worker_id << ": " << describe_interruption(signal) << "\n";
        return interrupted_exit_code(signal);
      }
      pause = std::min(pause * 2, std::chrono::milliseconds(5000));
    }
  }
  WorkQueue& queue = *connected;
  ProcessExecutor executor;
  int measured = 0;
  bool said_idle = false;
  while (interruption_signal() == 0 && (!options.max_items || measured < *options.max_items)) {
    const auto claimed =
        with_database(options.worker_id, "claiming the next item", log, [&](bool retrying) {
          // A claim whose answer was lost may have committed: take up what this runner
          // holds before claiming another.
          std::optional<WorkItem> held;
          if (retrying) {
            held = queue.held_claim(options.worker_id, options.environment, setup.config.suite,
                                    options.lease_seconds);
          }
          return held ? held
                      : queue.claim(options.worker_id, options.environment, setup.config.suite,
                                    options.lease_seconds);
        });
    if (!claimed) break;
    const std::optional<WorkItem>& item = *claimed;
    if (!item) {
      if (options.exit_when_idle) {
        log << "worker " << options.worker_id << ": nothing queued for " << options.environment
            << "; done\n";
        break;
      }
      if (!said_idle) {
        log << "worker " << options.worker_id << ": nothing queued for " << options.environment
            << "; waiting\n";
        said_idle = true;
      }
      idle(options.poll_seconds);
      continue;
    }
    said_idle = false;
    log << fmt::format("worker {}: measuring {} (item {}, claim {})\n", options.worker_id,
                       item->commit_sha.substr(0, 12), item->item_id, item->claim)
        << std::flush;
    settings.run = item->run();
    settings.attempt = item->claim;
    std::optional<history::HistoryAttempt> attempt;
    int renewals_failed = 0;
    std::string renewal_error;
    {
      LeaseKeeper keeper(options.store_url, *item, options.worker_id, options.lease_seconds);
      attempt = history::measure_commit(*setup.repository, item->commit_sha, settings, executor,
                                        options.work_dir / item->run());
      keeper.stop();
      renewals_failed = keeper.failures();
      renewal_error = keeper.error();
      if (renewals_failed > 0) {
        log << fmt::format("worker {}: note: {} lease renewal(s) failed; the last: {}\n",
                           options.worker_id, renewals_failed, renewal_error);
      }
    }
    if (!attempt) {
      // Interrupted: give the item back if the database answers at once; otherwise its
      // lease lapses and another runner takes it.
      try {
        queue.release(*item, options.worker_id);
        log << fmt::format("worker {}: interrupted; item {} is queued again\n", options.worker_id,
                           item->item_id);
      } catch (const PgConnectionLost& lost) {
        log << fmt::format(
            "worker {}: interrupted; item {} could not be given back ({}); it is queued again "
            "when its lease expires\n",
            options.worker_id, item->item_id, lost.what());
      }
      break;
    }
    const std::string document = pretty_json(to_json(*attempt));
    const auto outcome = with_database(
        options.worker_id, "storing item " + std::to_string(item->item_id), log,
        [&](bool) { return queue.complete(*item, options.worker_id, attempt->success, document); });
    if (!outcome) {
      log << fmt::format(
          "worker {}: interrupted while the database was away: the result of item {} was not "
          "stored (its raw output is in {}); the item is measured again when its lease "
          "expires\n",
          options.worker_id, item->item_id, (options.work_dir / item->run()).string());
      break;
    }
    if (*outcome == CompleteOutcome::kLeaseLost) {
      const auto now =
          with_database(options.worker_id, "reading item " + std::to_string(item->item_id), log,
                        [&](bool) { return queue.describe(*item); });
      const std::string why =
          renewals_failed > 0
              ? fmt::format("its renewals failed while the database was away (last: {})",
                            renewal_error)
              : "the measurement took longer than the lease; raise --lease above the longest "
                "measurement";
      log << fmt::format(
          "worker {}: item {} is {} now: this runner's lease (claim {}) lapsed because {}. Its "
          "result is not stored; the raw output stays in {}\n",
          options.worker_id, item->item_id, now.value_or("unknown"), item->claim, why,
          (options.work_dir / item->run()).string());
      continue;
    }
    ++measured;
    log << fmt::format("worker {}: {} {}", options.worker_id, item->commit_sha.substr(0, 12),
                       attempt->success ? "measured" : "FAILED");
    if (!attempt->success && !attempt->errors.empty()) {
      const std::string& message = attempt->errors.front().message;
      log << ": " << message.substr(0, message.find('\n'));
    }
    log << "\n" << std::flush;
  }
  if (const int signal = interruption_signal(); signal != 0) {
    log << "worker " << options.worker_id << ": " << describe_interruption(signal) << "\n";
    return interrupted_exit_code(signal);
  }
  return 0;
}

}  // namespace perfgate
