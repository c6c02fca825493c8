#pragma once
// The per-thread half of the probe: the calling thread's tree of regions, its stack of open
// regions and its open run. Only the owning thread touches it while it lives, so the hot
// path takes no lock; finished runs, calls outside runs and trace events are handed to the
// registry at run ends, when the thread ends, and when the thread itself writes a report.
// The one exception is a region that ends on another thread (a coroutine resumed
// elsewhere): that thread leaves a note under the registry lock, which the owner reads at
// its next region boundary.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "perfgate/probe.hpp"
#include "probe/child_index.hpp"
#include "probe/registry.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

class ThreadState {
 public:
  /// A detached state measures like any other but registers no regions (they are all
  /// region 0) and hands nothing to the registry: the probe's own calibration uses one.
  enum Mode { kRegistered, kDetached };
  ThreadState(std::uint32_t index, std::string name, Mode mode = kRegistered);

  OpenRegion enter(std::uint32_t site) noexcept;
  /// Ends the call `region` opened: normally the innermost open one.
  void exit(OpenRegion region) noexcept;
  /// enter() and exit() themselves, which the macros' entry points inline (defined in
  /// thread_state.cpp, the one file that calls them).
  [[gnu::always_inline]] inline OpenRegion enter_inline(std::uint32_t site) noexcept;
  [[gnu::always_inline]] inline void exit_inline(OpenRegion region) noexcept;
  /// Ends the innermost open region, whichever it is (the C API's end call).
  void exit_innermost() noexcept;
  void begin_run() noexcept;
  void end_run() noexcept;
  /// Opens a run on this thread that works for `run` of another thread (AttachedRun);
  /// false when it would change nothing (a run is open here, or `run` is this thread's).
  bool attach(const RunRef& run) noexcept;
  /// The open run, the attached one's owner included, and its innermost open region.
  RunRef current_run() const noexcept;

  /// Called on another thread: the call `serial` of this thread ended there at `end`.
  void end_from_other_thread(std::uint64_t serial, std::uint64_t end);

  /// Moves calls outside runs and trace events into `r`; the caller holds r.mutex.
  void hand_over(Registry& r);
  /// Forgets everything recorded (tests, and a forked child for its parent's data); the
  /// caller holds the registry mutex. Open regions and an open run stay open.
  void forget_recorded();
  /// Forgets everything, open regions and run included (tests only).
  void clear();

  std::uint32_t index;
  std::string name;
  bool ended = false;  // its thread has finished; guarded by the registry mutex
  // Guarded by the registry mutex: runs of this thread that ended (not counting attached
  // ones), and the first of them that was folded (0: none).
  std::uint32_t ended_runs = 0;
  std::uint32_t first_folded_run = 0;

  /// Regions still open, outermost first, and whether a Run is open.
  std::vector<std::uint32_t> open_regions() const;
  bool run_open() const { return run_depth_ > 0; }
  /// Read on other threads: whether this thread holds data a report needs, which only it
  /// can hand over (calls outside runs, trace events, an open run).
  bool holds_unreported() const {
    return unreported_.load(std::memory_order_relaxed) || busy_.load(std::memory_order_relaxed);
  }
  /// The inclusive time of the open run's top-level calls so far.
  std::uint64_t top_level_ticks_in_open_run() const { return run_top_level_ticks_; }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr std::uint32_t kNoSite = 0xffffffffu;
  /// Nodes, open calls and touched nodes a new state has room for (thread_state.cpp).
  static constexpr std::size_t kReservedNodes = 16;
  struct Node {
    std::uint32_t site;
    std::uint32_t region;
    std::uint32_t parent = 0;
    std::uint32_t open = 0;      // its calls open now (more than one: recursion)
    std::uint32_t open_run = 0;  // the run of the outermost of them
    // Counters of the open run, zero outside it: a node with calls is in touched_.
    std::uint64_t run_calls = 0;
    std::uint64_t run_wall_ticks = 0;
    std::uint64_t run_self_ticks = 0;
    std::uint64_t run_child_calls = 0;  // calls of its direct children: the probe's cost
    std::uint64_t run_cpu_ns = 0;
    std::uint64_t run_self_cpu_ns = 0;
    std::uint64_t outside_run_calls = 0;
    std::uint64_t crossed_run_calls = 0;  // opened in one run, ended outside it
    std::uint64_t mismatched_ends = 0;    // ended while not the innermost open region
    std::uint64_t remote_ends = 0;        // ended on another thread
  };
  /// The child a level entered last (site kNoSite: none yet). A frame's memo is of its own
  /// children; base_memo_ is of base_'s, and is forgotten whenever base_ changes.
  struct ChildMemo {
    std::uint32_t site;
    std::uint32_t node;
  };
  static constexpr ChildMemo kNoMemo{kNoSite, 0};
  /// One open call: 64 bytes, one cache line.
  struct Frame {
    // push_frame() sets the fields one by one, each once: zeroing the frame first cost as
    // many stores again on every region.
    Frame() noexcept {}  // NOLINT(modernize-use-equals-default): = default would zero it
    ChildMemo last_child;
    std::uint32_t node;
    std::uint32_t run;     // the run open when the region was entered; 0: none
    std::uint64_t serial;  // with kSlowEnd and kRecursive
    std::uint64_t start_ticks;
    std::uint64_t child_ticks;
    std::uint64_t child_calls;
    std::uint64_t start_cpu_ns;  // kNoCpu: per-region CPU time was off when it began
    std::uint64_t child_cpu_ns;
  };
  static constexpr std::uint64_t kNoCpu = ~std::uint64_t{0};
  /// In a serial: the call is recursive, timed in CPU time, traced or outside any run, so
  /// only close() ends it.
  static constexpr std::uint64_t kSlowEnd = std::uint64_t{1} << 63;
  /// In a serial: the call's node was open already (recursion), so its wall time is in
  /// the outer call's. Such calls end in close() too.
  static constexpr std::uint64_t kRecursive = std::uint64_t{1} << 62;
  /// In a serial: the call's entry was marked for callgrind, so its end is marked too.
  static constexpr std::uint64_t kCounted = std::uint64_t{1} << 61;
  static constexpr std::uint64_t kCallFlags = kSlowEnd | kRecursive | kCounted;
  /// Whether two serials name the same call, whatever flags either carries.
  static bool same_call(std::uint64_t a, std::uint64_t b) noexcept {
    return ((a ^ b) & ~kCallFlags) == 0;
  }
  enum class EndKind { kInnermost, kOutOfOrder, kOtherThread };

  std::uint32_t child_of(std::uint32_t parent, std::uint32_t site) noexcept;
  std::uint32_t add_node(std::uint32_t parent, std::uint32_t site) noexcept;
  void open_run() noexcept;
  /// The node standing for another thread's `region` at the root of an attached run.
  std::uint32_t attach_root(std::uint32_t region);
  void mark_unreported() noexcept {
    if (!unreported_.load(std::memory_order_relaxed)) {
      unreported_.store(true, std::memory_order_relaxed);
    }
  }
  /// Ends the call at `position` of the stack, in every case exit() does not take itself.
  void close(std::size_t position, std::uint64_t end, std::uint64_t end_cpu, EndKind kind) noexcept;
  /// Ends the call at `position`, which is not the innermost (out of order, or ended on
  /// another thread: `remote`), splitting the calls still open inside it at its end.
  void close_enclosing(std::size_t position, std::uint64_t end, bool remote) noexcept;
  /// A new innermost frame, all but its start time set.
  [[gnu::always_inline]] inline Frame& push_frame(std::uint32_t node, std::uint32_t run,
                                                  std::uint64_t serial,
                                                  std::uint64_t start_cpu) noexcept;
  /// enter() for every entry but the common one.
  [[gnu::noinline]] OpenRegion enter_slow(std::uint32_t site) noexcept;
  /// Ends the innermost call, which is of the open run, timed in wall time only and not
  /// recursive (kSlowEnd clear), when no other thread has left a note.
  [[gnu::always_inline]] inline void end_common(std::uint64_t end) noexcept;
  /// exit() for every end but the common one.
  [[gnu::noinline]] void exit_slow(OpenRegion region, std::uint64_t end) noexcept;
  /// The node a run's top-level regions go under, with its memo forgotten: the memo is of
  /// the old base's children.
  void set_base(std::uint32_t node) noexcept {
    base_ = node;
    base_memo_ = kNoMemo;
  }
  /// Zeroes the run counters of the nodes in touched_, and empties it.
  void forget_run_counters() noexcept;
  bool trace_wanted() const noexcept { return mode_ == kRegistered && recording(kRecordTrace); }
  void take_remote_ends() noexcept;
  /// The thread's CPU clock now if `frame` is timed in CPU time, else kNoCpu.
  static std::uint64_t end_cpu(const Frame& frame) noexcept {
    return __builtin_expect(frame.start_cpu_ns != kNoCpu, 0) ? thread_cpu_ns() : kNoCpu;
  }
  /// Closes the calls other threads ended (serial, end ticks); the notes are already taken.
  void close_remote_ends(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ends) noexcept;
  void record_trace(std::uint32_t region, std::uint64_t start, std::uint64_t end) noexcept;
  /// Whether this thread's boundaries are marked for callgrind (probe/count_marks.hpp).
  bool counting() const noexcept { return mode_ == kRegistered && recording(kRecordCount); }
  /// Marks the entry of `node`'s region in `run` (0: none) for callgrind.
  void mark_entry(std::uint32_t node, std::uint32_t run) noexcept;
  /// Each node's region id and depth for the marks, kept per node so that an end marked
  /// with the registry lock held (a remote end handed over) needs no lock.
  std::vector<std::string> count_ids_;
  std::vector<int> count_depths_;

  std::vector<Node> nodes_;  // nodes_[0] is the root: no region
  ChildIndex children_;      // (parent node, site) -> node: constant cost however many siblings
  std::vector<Frame> stack_;
  std::vector<std::uint32_t> touched_;  // nodes with counters in the open run
  std::uint64_t next_serial_ = 1;
  std::uint64_t unmatched_ends_ = 0;  // ends whose region was no longer open
  std::uint32_t run_depth_ = 0;
  std::uint32_t run_ = 0;          // numbers this thread's runs from 1
  std::uint32_t live_run_ = 0;     // run_ while a run is open, else 0
  std::uint32_t base_ = 0;         // the node regions entered at a run's top level go under
  ChildMemo base_memo_ = kNoMemo;  // the child of base_ entered last (set_base)
  RunRef attached_;                // run != 0: the open run works for this run of another thread
  std::vector<std::pair<std::uint32_t, std::uint32_t>> attach_roots_;  // region -> node
  std::uint64_t run_start_ticks_ = 0;
  std::uint64_t run_start_cpu_ns_ = 0;
  std::uint64_t run_top_level_ticks_ = 0;
  std::uint64_t run_top_level_calls_ = 0;
  bool run_cpu_ = false;  // the open run measures per-region CPU time
  std::uint64_t run_start_thread_cpu_ns_ = 0;
  std::uint64_t run_top_level_cpu_ns_ = 0;
  std::vector<TraceEvent> trace_;
  /// Ends left by other threads (serial, end ticks), guarded by the registry mutex; the
  /// flag says there are some, so the hot path looks at it without the lock.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> remote_ends_;
  std::atomic<bool> has_remote_ends_{false};
  std::atomic<bool> unreported_{false};
  std::atomic<bool> busy_{false};  // a run is open
  bool run_inherited_ = false;     // a forked child's open run: its parent's to record
  Mode mode_;
};

/// The C API's region end: the innermost open region of the calling thread.
void exit_innermost_region() noexcept;

/// The calling thread's state, made and registered on its first use.
ThreadState& this_thread_state();
/// The calling thread's state if it has one.
ThreadState* this_thread_state_if_any() noexcept;

}  // namespace perfgate::probe::detail
