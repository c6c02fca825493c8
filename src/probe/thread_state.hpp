#pragma once
// The per-thread half of the probe: the calling thread's tree of regions, its stack of open
// regions and its open run. Only the owning thread touches it while it lives, so the hot
// path takes no lock; finished runs, calls outside runs and trace events are handed to the
// registry at run ends, when the thread ends, and when the thread itself writes a report.

#include <cstdint>
#include <string>
#include <vector>

#include "probe/registry.hpp"

namespace perfgate::probe::detail {

class ThreadState {
 public:
  ThreadState(std::uint32_t index, std::string name);

  void enter(std::uint32_t site) noexcept;
  void exit() noexcept;
  void begin_run() noexcept;
  void end_run() noexcept;

  /// Moves calls outside runs and trace events into `r`; the caller holds r.mutex.
  void hand_over(Registry& r);
  /// Forgets everything recorded (tests only); the caller holds the registry mutex.
  void clear();

  std::uint32_t index;
  std::string name;
  bool ended = false;  // its thread has finished; guarded by the registry mutex

  /// Regions still open, outermost first, and whether a Run is open.
  std::vector<std::uint32_t> open_regions() const;
  bool run_open() const { return run_depth_ > 0; }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Node {
    std::uint32_t site;
    std::uint32_t region;
    std::uint32_t first_child = kNone;
    std::uint32_t next_sibling = kNone;
    std::uint32_t touched_run = 0;  // the run whose counters below are live
    std::uint64_t run_calls = 0;
    std::uint64_t run_wall_ticks = 0;
    std::uint64_t run_self_ticks = 0;
    std::uint64_t outside_run_calls = 0;
  };
  struct Frame {
    std::uint32_t node;
    std::uint32_t run;  // the run open when the region was entered; 0: none
    std::uint64_t start_ticks;
    std::uint64_t child_ticks;
  };

  std::uint32_t child_of(std::uint32_t parent, std::uint32_t site) noexcept;
  std::uint32_t add_node(std::uint32_t parent, std::uint32_t site) noexcept;
  void record_trace(std::uint32_t region, std::uint64_t start, std::uint64_t end) noexcept;

  std::vector<Node> nodes_;  // nodes_[0] is the root: no region
  std::vector<Frame> stack_;
  std::vector<std::uint32_t> touched_;  // nodes with counters in the open run
  std::uint32_t run_depth_ = 0;
  std::uint32_t run_ = 0;  // numbers this thread's runs from 1
  std::uint64_t run_start_ticks_ = 0;
  std::uint64_t run_start_cpu_ns_ = 0;
  std::uint64_t run_top_level_ticks_ = 0;
  std::vector<TraceEvent> trace_;
  std::uint64_t trace_dropped_ = 0;
};

/// The calling thread's state, made and registered on its first use.
ThreadState& this_thread_state();
/// The calling thread's state if it has one.
ThreadState* this_thread_state_if_any() noexcept;

}  // namespace perfgate::probe::detail
