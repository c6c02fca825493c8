#include "fleet/worker.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "fleet/work_queue.hpp"
#include "history/commit_measurement.hpp"
#include "measure/interruption.hpp"
#include "measure/process_executor.hpp"
#include "model/error.hpp"
#include "model/json.hpp"

namespace perfgate {
namespace {

/// Renews the lease of the claimed item from a thread of its own, on a connection of its
/// own, every third of the lease, for as long as the measurement runs.
class LeaseKeeper {
 public:
  LeaseKeeper(const std::string& url, const WorkItem& item, const std::string& worker,
              int lease_seconds)
      : thread_([this, url, item, worker, lease_seconds] {
          const auto period = std::chrono::milliseconds(lease_seconds * 1000 / 3);
          std::unique_lock lock(mutex_);
          try {
            WorkQueue queue(url);
            while (!stop_) {
              if (wake_.wait_for(lock, period, [this] { return stop_; })) break;
              lock.unlock();
              const bool held = queue.renew(item, worker, lease_seconds);
              lock.lock();
              if (!held) {
                lost_ = true;
                break;
              }
            }
          } catch (const std::exception& e) {
            // A renewal that fails (the server restarting) costs at most the lease:
            // complete() then tells whether the item is still ours.
            error_ = e.what();
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
  bool lost() const { return lost_; }
  const std::string& error() const { return error_; }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> lost_ = false;
  std::string error_;
  std::thread thread_;  ///< last: it starts once everything above exists
};

/// Sleeps up to `seconds`, waking early when perfgate is interrupted.
void idle(int seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (interruption_signal() == 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
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
  WorkQueue queue(options.store_url);
  history::MeasureSettings settings;
  settings.config = setup.config;
  settings.harness_sha = setup.repository->resolve("HEAD").value_or("");
  settings.environment_id = options.environment;
  settings.stable = options.stable;
  settings.image = options.image;

  const InterruptionScope interruption;
  ProcessExecutor executor;
  int measured = 0;
  bool said_idle = false;
  while (interruption_signal() == 0 && (!options.max_items || measured < *options.max_items)) {
    const std::optional<WorkItem> item = queue.claim(options.worker_id, options.environment,
                                                     setup.config.suite, options.lease_seconds);
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
    {
      LeaseKeeper keeper(options.store_url, *item, options.worker_id, options.lease_seconds);
      attempt = history::measure_commit(*setup.repository, item->commit_sha, settings, executor,
                                        options.work_dir / item->run());
      keeper.stop();
      if (!keeper.error().empty()) {
        log << "worker " << options.worker_id
            << ": note: renewing the lease failed: " << keeper.error() << "\n";
      }
    }
    if (!attempt) {
      queue.release(*item, options.worker_id);
      log << fmt::format("worker {}: interrupted; item {} is queued again\n", options.worker_id,
                         item->item_id);
      break;
    }
    const CompleteOutcome outcome =
        queue.complete(*item, options.worker_id, attempt->success, pretty_json(to_json(*attempt)));
    if (outcome == CompleteOutcome::kLeaseLost) {
      log << fmt::format(
          "worker {}: item {} was claimed by another runner after this one's lease expired; "
          "its result is dropped (raise --lease above the longest measurement)\n",
          options.worker_id, item->item_id);
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
