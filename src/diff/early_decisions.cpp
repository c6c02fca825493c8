#include "diff/early_decisions.hpp"

#include <utility>

namespace perfgate::diff {
namespace {

/// Benchmark, device and match key: what a state is paired by within one file pair when
/// nothing else (device filters, repeated keys) intervenes.
std::string pairing_key(const ingest::ResultState& state) {
  std::string key = state.benchmark;
  key += '\x1d';
  if (state.device) key += std::to_string(*state.device);
  key += '\x1d';
  key += match_key(state);
  return key;
}

}  // namespace

EarlyDecisions::EarlyDecisions(const ingest::ResultFile& reference, bool has_clock,
                               const DiffThresholds& thresholds)
    : has_clock_(has_clock), thresholds_(thresholds) {
  // The thread indexes the reference itself: the reader starts at once, and the states it
  // tells about meanwhile wait in the queue.
  thread_ = std::thread([this, &reference] {
    for (const auto& state : reference.states) {
      const auto [entry, added] = reference_by_key_.try_emplace(pairing_key(state), &state);
      if (!added) entry->second = nullptr;  // a repeated key pairs by occurrence: run_diff's
    }
    work();
  });
}

EarlyDecisions::~EarlyDecisions() {
  stop();
}

void EarlyDecisions::state_read(const ingest::ResultState& state, std::size_t /*index*/) {
  const std::lock_guard lock(mutex_);
  if (stopping_) return;
  queue_.push_back(&state);
  changed_.notify_all();
}

void EarlyDecisions::forget_states(std::unique_lock<std::mutex>& lock) {
  queue_.clear();
  decided_.clear();
  ++epoch_;
  changed_.wait(lock, [this] { return !busy_; });
}

void EarlyDecisions::states_moving() {
  std::unique_lock lock(mutex_);
  forget_states(lock);
}

void EarlyDecisions::abandoned() {
  std::unique_lock lock(mutex_);
  forget_states(lock);
}

void EarlyDecisions::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
    changed_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void EarlyDecisions::finish() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queue_.empty() && !busy_; });
  }
  stop();
}

void EarlyDecisions::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const ingest::ResultState* compare = queue_.front();
    queue_.pop_front();
    const std::size_t epoch = epoch_;
    busy_ = true;
    lock.unlock();
    // Outside the lock: the reader goes on adding states meanwhile, and states_moving()
    // waits for busy_ to clear before the states move.
    EarlyDecision decision;
    const auto partner = reference_by_key_.find(pairing_key(*compare));
    if (partner != reference_by_key_.end() && partner->second != nullptr) {
      decision.reference = partner->second;
      decision.decided = decide_pair(MatchedState{partner->second, compare, 0, 1}, has_clock_,
                                     thresholds_, decision.warnings);
    }
    lock.lock();
    busy_ = false;
    if (decision.reference != nullptr && epoch == epoch_) {
      decided_.insert_or_assign(compare, std::move(decision));
    }
    changed_.notify_all();
  }
}

const EarlyDecision* EarlyDecisions::find(const MatchedState& match) const {
  // Only once stopped: the map is then read by run_diff's threads and written by none.
  if (thread_.joinable() || match.reference == nullptr || match.compare == nullptr) {
    return nullptr;
  }
  const auto found = decided_.find(match.compare);
  if (found == decided_.end() || found->second.reference != match.reference) return nullptr;
  return &found->second;
}

bool EarlyDecisions::decided_with(bool has_clock, const DiffThresholds& thresholds) const {
  return has_clock == has_clock_ && thresholds == thresholds_;
}

std::size_t EarlyDecisions::decided_count() const {
  const std::lock_guard lock(mutex_);
  return decided_.size();
}

}  // namespace perfgate::diff
