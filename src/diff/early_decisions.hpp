#pragma once
// Pairs decided while the compare file is still being read. Reading an nvbench file keeps
// one core busy for a third of a diff while the other waits; with bulk samples, deciding
// the pairs costs more than reading. So once the reference file is read, a second thread
// decides each compare state as soon as the fast reader has it (ingest::StateListener),
// pairing it with the reference state of the same benchmark, device and key. run_diff
// then matches the files as always and takes a pair from here only when it paired the
// very same two states; everything else it decides itself. Nothing here changes a result:
// it only decides some pairs sooner, with the same function.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "diff/diff_config.hpp"
#include "diff/diff_run.hpp"
#include "ingest/result_file.hpp"
#include "ingest/state_listener.hpp"

namespace perfgate::diff {

struct EarlyDecision {
  const ingest::ResultState* reference = nullptr;
  DecidedPair decided;
  std::vector<std::string> warnings;  ///< decide_pair's, for this pair alone
};

class EarlyDecisions final : public ingest::StateListener {
 public:
  /// `reference` must outlive this object. A state whose key occurs more than once in
  /// its benchmark and device is left to run_diff (occurrences pair in order there).
  EarlyDecisions(const ingest::ResultFile& reference, bool has_clock,
                 const DiffThresholds& thresholds);
  ~EarlyDecisions() override;
  EarlyDecisions(const EarlyDecisions&) = delete;
  EarlyDecisions& operator=(const EarlyDecisions&) = delete;

  void state_read(const ingest::ResultState& state, std::size_t index) override;
  void states_moving() override;
  void abandoned() override;

  /// Stops the thread: the pair it is deciding is kept, those still queued are left to
  /// run_diff. Call it once the compare file is read, before find().
  void stop();

  /// Waits until every state told about so far is decided, then stops. For callers with
  /// nothing else to do meanwhile (tests); a diff calls stop() and decides the rest itself.
  void finish();

  /// The pair decided early for exactly these two states, or nullptr.
  const EarlyDecision* find(const MatchedState& match) const;
  /// Whether the pairs were decided with this clock and these thresholds.
  bool decided_with(bool has_clock, const DiffThresholds& thresholds) const;

  /// How many pairs were decided early (for tests and the bench).
  std::size_t decided_count() const;

 private:
  void work();
  /// Waits until no pair is being decided, then forgets every state told about.
  void forget_states(std::unique_lock<std::mutex>& lock);

  const bool has_clock_;
  const DiffThresholds thresholds_;
  /// Reference states by benchmark, device and key; nullptr where the key repeats. Built
  /// and read by the thread alone.
  std::unordered_map<std::string, const ingest::ResultState*> reference_by_key_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<const ingest::ResultState*> queue_;
  bool busy_ = false;  ///< a pair is being decided outside the lock
  bool stopping_ = false;
  std::size_t epoch_ = 0;  ///< bumped whenever the states told about are forgotten
  std::unordered_map<const ingest::ResultState*, EarlyDecision> decided_;
  std::thread thread_;
};

}  // namespace perfgate::diff
