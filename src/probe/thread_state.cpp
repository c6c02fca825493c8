#include "probe/thread_state.hpp"

#include <unistd.h>

#include <memory>
#include <mutex>
#include <utility>

#include "perfgate/probe.hpp"
#include "probe/count_marks.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

ThreadState::ThreadState(std::uint32_t thread_index, std::string thread_name, Mode mode)
    : index(thread_index), name(std::move(thread_name)), mode_(mode) {
  // Room for a small program's regions, so that the hot path rarely allocates after warm-up
  // (beyond it, each vector doubles once when first outgrown). Not more: every page of heap a
  // program touches first costs it a page fault, and the report at exit builds a second,
  // scratch state (region_cost_ticks): 64 of each made 22 KB of the probe's 34 KB at exit.
  // A detached state (the calibration's) holds one region: room for more would be heap
  // the report at exit touches for nothing.
  const std::size_t room = mode == kDetached ? 2 : kReservedNodes;
  nodes_.reserve(room);
  nodes_.push_back(Node{0, kNoRegion});
  stack_.reserve(room);
  touched_.reserve(room);
}

std::uint32_t ThreadState::add_node(std::uint32_t parent, std::uint32_t site) noexcept {
  // A region entered inside a region of the same name (recursion, direct or through other
  // regions) is counted in that outer region: one row however deep the recursion goes,
  // and ids that stay as long as the program's own nesting. The walk stops at an attached
  // run's root, which stands for a region of another thread.
  std::uint32_t region = 0;
  if (mode_ == kRegistered) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    for (std::uint32_t p = parent; p != 0 && nodes_[p].site != kNoSite; p = nodes_[p].parent) {
      if (r.sites[nodes_[p].site].name == r.sites[site].name) {
        children_.insert(ChildIndex::key(parent, site), p);
        return p;
      }
    }
    region = r.region_for(nodes_[parent].region, site);
  } else {
    for (std::uint32_t p = parent; p != 0 && nodes_[p].site != kNoSite; p = nodes_[p].parent) {
      if (nodes_[p].site == site) {
        children_.insert(ChildIndex::key(parent, site), p);
        return p;
      }
    }
  }
  const auto node = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(Node{site, region, parent});
  children_.insert(ChildIndex::key(parent, site), node);
  return node;
}

std::uint32_t ThreadState::attach_root(std::uint32_t region) {
  if (region == RunRef::kNone) return 0;
  for (const auto& [known, node] : attach_roots_) {
    if (known == region) return node;
  }
  const auto node = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(Node{kNoSite, region, 0});
  attach_roots_.emplace_back(region, node);
  return node;
}

std::uint32_t ThreadState::child_of(std::uint32_t parent, std::uint32_t site) noexcept {
  const std::uint32_t node = children_.find(ChildIndex::key(parent, site));
  return node != ChildIndex::kAbsent ? node : add_node(parent, site);
}

OpenRegion ThreadState::enter(std::uint32_t site) noexcept {
  return enter_inline(site);
}

void ThreadState::exit(OpenRegion region) noexcept {
  exit_inline(region);
}

inline OpenRegion ThreadState::enter_inline(std::uint32_t site) noexcept {
  // The common entry, kept small: inside the open run, under the innermost region (or at
  // the top), the same child as last time at this level and not open already, no trace
  // or CPU time, and no note from another thread.
  if (__builtin_expect(live_run_ != 0 && !has_remote_ends_.load(std::memory_order_acquire) &&
                           g_region_extras.load(std::memory_order_relaxed) == 0,
                       1)) {
    ChildMemo* memo = &base_memo_;
    if (!stack_.empty() && stack_.back().run == live_run_) memo = &stack_.back().last_child;
    if (__builtin_expect(memo->site == site, 1)) {
      const std::uint32_t node = memo->node;  // read before the stack may grow under it
      Node& entered = nodes_[node];
      if (__builtin_expect(entered.open == 0, 1)) {
        entered.open = 1;
        entered.open_run = live_run_;
        const std::uint64_t serial = next_serial_++;
        push_frame(node, live_run_, serial, kNoCpu).start_ticks = now_ticks();
        return OpenRegion{this, serial};
      }
    }
  }
  return enter_slow(site);
}

OpenRegion ThreadState::enter_slow(std::uint32_t site) noexcept {
  if (__builtin_expect(has_remote_ends_.load(std::memory_order_acquire), 0)) take_remote_ends();
  const bool in_run = run_depth_ > 0;
  // A region left open from before the open run (or from an earlier one) is no part of
  // it: what is entered now sits at the top of the run's tree, so that every run's top
  // level and its residual add up to the run's whole time.
  // Each level remembers the last child it entered, so a loop around one region skips
  // the index.
  ChildMemo* memo = &base_memo_;
  std::uint32_t parent = base_;
  if (!stack_.empty() && (!in_run || stack_.back().run == run_)) {
    parent = stack_.back().node;
    memo = &stack_.back().last_child;
  }
  std::uint32_t node;
  if (memo->site == site) {
    node = memo->node;
  } else {
    node = child_of(parent, site);
    *memo = ChildMemo{site, node};
  }
  const std::uint32_t run = in_run ? run_ : 0;
  // A call inside an open call of the same node (recursion) is in that call's time already.
  Node& entered = nodes_[node];
  const bool recursive = entered.open != 0 && entered.open_run == run;
  if (entered.open++ == 0) entered.open_run = run;
  const std::uint64_t start_cpu =
      __builtin_expect(recording(kRecordCpu), 0) ? thread_cpu_ns() : kNoCpu;
  // A call the common end cannot close is marked in its serial, so exit() tells it from
  // the value the caller hands back, without reading the frame.
  // A recursive call is inside the outer call's count already: only the outer is marked.
  const bool counted = __builtin_expect(counting(), 0) && !recursive;
  const bool slow_end = run == 0 || recursive || start_cpu != kNoCpu || trace_wanted() || counted;
  const std::uint64_t serial = next_serial_++ | (slow_end ? kSlowEnd : 0) |
                               (recursive ? kRecursive : 0) | (counted ? kCounted : 0);
  if (counted) mark_entry(node, run);
  Frame& frame = push_frame(node, run, serial, start_cpu);
  // Read last so that the bookkeeping above is not inside the region.
  frame.start_ticks = now_ticks();
  return OpenRegion{this, serial};
}

inline ThreadState::Frame& ThreadState::push_frame(std::uint32_t node, std::uint32_t run,
                                                   std::uint64_t serial,
                                                   std::uint64_t start_cpu) noexcept {
  // Filled in place, field by field: a Frame built aside and copied in was read back
  // with wide loads from narrow stores, a store-forwarding stall on every region.
  Frame& frame = stack_.emplace_back();
  frame.last_child = kNoMemo;
  frame.node = node;
  frame.run = run;
  frame.serial = serial;
  frame.child_ticks = 0;
  frame.child_calls = 0;
  frame.start_cpu_ns = start_cpu;
  frame.child_cpu_ns = 0;
  return frame;
}

inline void ThreadState::exit_inline(OpenRegion region) noexcept {
  const std::uint64_t end = now_ticks();
  if (__builtin_expect((region.serial & kSlowEnd) == 0 &&
                           !has_remote_ends_.load(std::memory_order_acquire) && !stack_.empty() &&
                           stack_.back().serial == region.serial && stack_.back().run == live_run_,
                       1)) {
    end_common(end);
    return;
  }
  exit_slow(region, end);
}

inline void ThreadState::end_common(std::uint64_t end) noexcept {
  // The common end, kept small so that it needs few registers: the innermost region of
  // the open run, timed in wall time only, not recursive, with no trace and no note from
  // another thread (the caller checked).
  const Frame& frame = stack_.back();
  const std::uint64_t wall = end > frame.start_ticks ? end - frame.start_ticks : 0;
  const std::uint64_t self = wall > frame.child_ticks ? wall - frame.child_ticks : 0;
  const std::uint32_t node_index = frame.node;
  const std::uint64_t child_calls = frame.child_calls;
  stack_.pop_back();
  Node& node = nodes_[node_index];
  --node.open;
  if (__builtin_expect(node.run_calls == 0, 0)) touched_.push_back(node_index);
  ++node.run_calls;
  node.run_wall_ticks += wall;
  node.run_self_ticks += self;
  node.run_child_calls += child_calls;
  if (stack_.empty()) {
    run_top_level_ticks_ += wall;
    ++run_top_level_calls_;
  } else {
    Frame& parent = stack_.back();
    if (parent.run != live_run_) {
      run_top_level_ticks_ += wall;
      ++run_top_level_calls_;
    }
    parent.child_ticks += wall;
    ++parent.child_calls;
  }
}

void ThreadState::exit_slow(OpenRegion region, std::uint64_t end) noexcept {
  if (__builtin_expect(has_remote_ends_.load(std::memory_order_acquire), 0)) take_remote_ends();
  if (__builtin_expect(!stack_.empty() && same_call(stack_.back().serial, region.serial), 1)) {
    close(stack_.size() - 1, end, end_cpu(stack_.back()), EndKind::kInnermost);
    return;
  }
  // Not the innermost: a coroutine or a hand-written begin/end interleaved regions.
  for (std::size_t i = stack_.size(); i-- > 0;) {
    if (same_call(stack_[i].serial, region.serial)) {
      close_enclosing(i, end, /*remote=*/false);
      return;
    }
  }
  ++unmatched_ends_;
  mark_unreported();
}

void ThreadState::exit_innermost() noexcept {
  const std::uint64_t end = now_ticks();
  if (__builtin_expect(has_remote_ends_.load(std::memory_order_acquire), 0)) take_remote_ends();
  if (__builtin_expect(!stack_.empty() && (stack_.back().serial & kSlowEnd) == 0 &&
                           stack_.back().run == live_run_,
                       1)) {
    end_common(end);
    return;
  }
  if (stack_.empty()) {
    ++unmatched_ends_;  // an end without a begin (C API): nothing to close
    mark_unreported();
    return;
  }
  close(stack_.size() - 1, end, end_cpu(stack_.back()), EndKind::kInnermost);
}

void ThreadState::close(std::size_t position, std::uint64_t end, std::uint64_t end_cpu,
                        EndKind kind) noexcept {
  // The frame is read where it lies, field by field, and removed last: copied out whole,
  // an empty region's frame was read back with wide loads from the narrow stores enter()
  // had just made, a store-forwarding stall on every call.
  const Frame& frame = stack_[position];
  const std::uint32_t run = frame.run;
  const bool recursive = (frame.serial & kRecursive) != 0;
  if (__builtin_expect((frame.serial & kCounted) != 0, 0) && frame.node < count_ids_.size()) {
    count_mark_with([&] { return "X " + std::to_string(index) + " " + count_ids_[frame.node]; });
  }
  // Saturating: an end taken on another core, or children that outlived their parent,
  // may make a difference negative, and a region never has negative time.
  const std::uint64_t wall = end > frame.start_ticks ? end - frame.start_ticks : 0;
  const std::uint64_t self = wall > frame.child_ticks ? wall - frame.child_ticks : 0;
  // CPU time only for a call timed in it at both ends on this thread.
  std::uint64_t cpu = 0;
  std::uint64_t self_cpu = 0;
  if (__builtin_expect(frame.start_cpu_ns != kNoCpu, 0)) {
    cpu = end_cpu != kNoCpu && end_cpu > frame.start_cpu_ns ? end_cpu - frame.start_cpu_ns : 0;
    self_cpu = cpu > frame.child_cpu_ns ? cpu - frame.child_cpu_ns : 0;
  }
  const std::uint32_t node_index = frame.node;
  Node& node = nodes_[node_index];
  const std::uint64_t child_calls = frame.child_calls;
  const std::uint64_t start = frame.start_ticks;
  --node.open;
  if (__builtin_expect(kind != EndKind::kInnermost, 0)) {
    if (kind == EndKind::kOutOfOrder) ++node.mismatched_ends;
    if (kind == EndKind::kOtherThread) ++node.remote_ends;
    mark_unreported();
  }
  Frame* const parent = position > 0 ? &stack_[position - 1] : nullptr;
  if (__builtin_expect(run != 0 && run_depth_ > 0 && run == run_, 1)) {
    if (node.run_calls == 0) touched_.push_back(node_index);
    ++node.run_calls;
    if (!recursive) node.run_wall_ticks += wall;
    node.run_self_ticks += self;
    node.run_child_calls += child_calls;
    if (!recursive) node.run_cpu_ns += cpu;
    node.run_self_cpu_ns += self_cpu;
    if (parent == nullptr || parent->run != run) {
      run_top_level_ticks_ += wall;
      run_top_level_cpu_ns_ += cpu;
      ++run_top_level_calls_;
    }
  } else if (run != 0) {
    ++node.crossed_run_calls;  // its run ended, or another began, while it was open
    mark_unreported();
  } else {
    ++node.outside_run_calls;
    mark_unreported();
  }
  if (parent != nullptr) {
    parent->child_ticks += wall;
    parent->child_cpu_ns += cpu;
    ++parent->child_calls;
  }
  if (trace_wanted()) {
    record_trace(node.region, start, end);  // may hand events over, but never moves the stack
  }
  if (position + 1 == stack_.size()) {
    stack_.pop_back();
  } else {
    stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(position));
  }
}

void ThreadState::close_enclosing(std::size_t position, std::uint64_t end, bool remote) noexcept {
  // The regions opened inside this call and still open (a coroutine resumed inside a
  // region it suspended under) are split at its end: up to it they are inside this call,
  // as their ids say; after it they go on as calls of their own under this call's parent.
  // So no child outlasts its parent, and a run's top level never overlaps itself.
  struct Split {
    std::uint32_t site;
    std::uint32_t run;
    std::uint64_t serial;
    bool cpu;
  };
  std::vector<Split> split;
  while (stack_.size() > position + 1) {
    const Frame& top = stack_.back();
    split.push_back(
        {nodes_[top.node].site, top.run, top.serial & ~kCallFlags, top.start_cpu_ns != kNoCpu});
    close(stack_.size() - 1, end, remote ? kNoCpu : end_cpu(top), EndKind::kInnermost);
  }
  close(position, end, remote ? kNoCpu : end_cpu(stack_[position]),
        remote ? EndKind::kOtherThread : EndKind::kOutOfOrder);
  const std::uint64_t now_cpu = !remote && recording(kRecordCpu) ? thread_cpu_ns() : kNoCpu;
  for (auto it = split.rbegin(); it != split.rend(); ++it) {
    const bool under_frame = !stack_.empty() && stack_.back().run == it->run;
    const std::uint32_t node = child_of(under_frame ? stack_.back().node : base_, it->site);
    Node& entered = nodes_[node];
    const bool recursive = entered.open != 0 && entered.open_run == it->run;
    if (entered.open++ == 0) entered.open_run = it->run;
    // Ended only by close(): its caller's serial lacks these flags, so exit() goes there.
    Frame& frame = push_frame(node, it->run, it->serial | kSlowEnd | (recursive ? kRecursive : 0),
                              it->cpu ? now_cpu : kNoCpu);
    frame.start_ticks = end;
  }
}

void ThreadState::end_from_other_thread(std::uint64_t serial, std::uint64_t end) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  remote_ends_.emplace_back(serial, end);
  has_remote_ends_.store(true, std::memory_order_release);
}

void ThreadState::take_remote_ends() noexcept {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ends;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    ends.swap(remote_ends_);
    has_remote_ends_.store(false, std::memory_order_relaxed);
  }
  close_remote_ends(ends);
}

void ThreadState::close_remote_ends(
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ends) noexcept {
  for (const auto& [serial, end] : ends) {
    std::size_t i = stack_.size();
    while (i-- > 0 && !same_call(stack_[i].serial, serial)) {
    }
    if (i < stack_.size()) {
      close_enclosing(i, end, /*remote=*/true);  // its end was on another thread's clock
    } else {
      ++unmatched_ends_;
      mark_unreported();
    }
  }
}

void ThreadState::record_trace(std::uint32_t region, std::uint64_t start,
                               std::uint64_t end) noexcept {
  if (trace_.capacity() == 0) trace_.reserve(kThreadTraceEvents);
  mark_unreported();
  if (trace_.size() == kThreadTraceEvents) {
    // Full: hand the events over now (a lock once per 65,536 events), so that the report's
    // cap, which keeps the longest events, decides what is dropped.
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    for (const TraceEvent& event : trace_) r.keep_trace(event);
    trace_.clear();
  }
  trace_.push_back(TraceEvent{region, index, start, end});
}

void ThreadState::mark_entry(std::uint32_t node, std::uint32_t run) noexcept {
  try {
    if (count_ids_.size() <= node) {
      count_ids_.resize(node + 1);
      count_depths_.resize(node + 1);
    }
    if (count_ids_[node].empty()) {
      Registry& r = registry();
      const std::lock_guard lock(r.mutex);
      const RegionInfo& info = r.regions[nodes_[node].region];
      count_ids_[node] = info.id;
      count_depths_[node] = info.depth;
    }
    // Work an attached run does is its owner's: marked with the owner's thread and run.
    const RunRef owner = run == 0             ? RunRef{index, 0, RunRef::kNone}
                         : attached_.run != 0 ? attached_
                                              : RunRef{index, run, RunRef::kNone};
    count_mark("E " + std::to_string(index) + " " + std::to_string(owner.thread) + " " +
               std::to_string(owner.run) + " " + std::to_string(count_depths_[node]) + " " +
               count_ids_[node]);
  } catch (...) {
    // Out of memory for the text: this call goes unmarked, and its end with it.
  }
}

void ThreadState::begin_run() noexcept {
  if (run_depth_++ > 0) return;  // nested: the outer run measures
  open_run();
  if (__builtin_expect(counting(), 0)) {
    const unsigned warmups = g_warmup_runs.load(std::memory_order_relaxed);
    count_mark_with([&] {
      return "R " + std::to_string(index) + " " + std::to_string(run_) + " " +
             (warmups == kWarmupRunsUnset ? std::string("-") : std::to_string(warmups));
    });
  }
  run_start_cpu_ns_ = process_cpu_ns();
  run_start_ticks_ = now_ticks();
}

void ThreadState::open_run() noexcept {
  live_run_ = ++run_;
  forget_run_counters();
  run_top_level_ticks_ = 0;
  run_top_level_calls_ = 0;
  run_top_level_cpu_ns_ = 0;
  run_cpu_ = recording(kRecordCpu);
  if (run_cpu_) run_start_thread_cpu_ns_ = thread_cpu_ns();
  busy_.store(true, std::memory_order_relaxed);
}

bool ThreadState::attach(const RunRef& run) noexcept {
  if (run.run == 0 || mode_ != kRegistered) return false;
  if (run_depth_++ > 0) return true;  // a run is open here: it measures, as a nested Run
  attached_ = run;
  set_base(attach_root(run.region));
  open_run();
  run_start_ticks_ = now_ticks();
  return true;
}

RunRef ThreadState::current_run() const noexcept {
  if (run_depth_ == 0) return {};
  RunRef ref = attached_.run != 0 ? attached_ : RunRef{index, run_, RunRef::kNone};
  for (std::size_t i = stack_.size(); i-- > 0;) {
    if (stack_[i].run == run_) {
      ref.region = nodes_[stack_[i].node].region;
      break;
    }
  }
  return ref;
}

void ThreadState::end_run() noexcept {
  const std::uint64_t end = now_ticks();
  const bool attached = attached_.run != 0;
  const std::uint64_t cpu = attached ? 0 : process_cpu_ns();
  if (__builtin_expect(has_remote_ends_.load(std::memory_order_acquire), 0)) take_remote_ends();
  if (run_depth_ == 0 || --run_depth_ > 0) return;
  if (__builtin_expect(counting(), 0) && !attached && !run_inherited_)
    count_mark_with([&] { return "r " + std::to_string(index) + " " + std::to_string(run_); });
  live_run_ = 0;
  const std::uint64_t thread_cpu = run_cpu_ ? thread_cpu_ns() - run_start_thread_cpu_ns_ : 0;
  std::vector<RunRow> rows;
  rows.reserve(touched_.size());
  for (const std::uint32_t n : touched_) {
    const Node& node = nodes_[n];
    rows.push_back(RunRow{node.region, node.run_calls, node.run_wall_ticks, node.run_self_ticks,
                          node.run_child_calls, node.run_cpu_ns, node.run_self_cpu_ns});
  }
  forget_run_counters();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  busy_.store(false, std::memory_order_relaxed);
  if (attached) {
    r.keep_dispatched(DispatchedWork{attached_.thread, attached_.run, index, std::move(rows)});
    attached_ = RunRef{};
    set_base(0);
  } else if (run_inherited_) {
    run_inherited_ = false;  // a forked child's copy of its parent's run: the parent's
  } else {
    r.keep_run(RunRecord{index, run_, end - run_start_ticks_, cpu - run_start_cpu_ns_,
                         run_top_level_ticks_, run_top_level_calls_, std::move(rows), run_cpu_,
                         thread_cpu, run_top_level_cpu_ns_},
               *this);
  }
  hand_over(r);
}

void ThreadState::forget_run_counters() noexcept {
  for (const std::uint32_t n : touched_) {
    Node& node = nodes_[n];
    node.run_calls = node.run_wall_ticks = node.run_self_ticks = node.run_child_calls = 0;
    node.run_cpu_ns = node.run_self_cpu_ns = 0;
  }
  touched_.clear();
}

void ThreadState::hand_over(Registry& r) {
  if (has_remote_ends_.load(std::memory_order_acquire)) {
    // The lock is already held here: take the notes without take_remote_ends().
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ends;
    ends.swap(remote_ends_);
    has_remote_ends_.store(false, std::memory_order_relaxed);
    close_remote_ends(ends);
  }
  for (Node& node : nodes_) {
    if (node.outside_run_calls != 0) r.outside_run_calls[node.region] += node.outside_run_calls;
    if (node.crossed_run_calls + node.mismatched_ends + node.remote_ends != 0) {
      RegionEnds& ends = r.region_ends[node.region];
      ends.crossed_run += node.crossed_run_calls;
      ends.out_of_order += node.mismatched_ends;
      ends.other_thread += node.remote_ends;
    }
    node.outside_run_calls = node.crossed_run_calls = node.mismatched_ends = node.remote_ends = 0;
  }
  r.unmatched_ends += unmatched_ends_;
  unmatched_ends_ = 0;
  for (const TraceEvent& event : trace_) r.keep_trace(event);
  trace_.clear();
  unreported_.store(false, std::memory_order_relaxed);
}

std::vector<std::uint32_t> ThreadState::open_regions() const {
  std::vector<std::uint32_t> regions;
  for (const Frame& frame : stack_) regions.push_back(nodes_[frame.node].region);
  return regions;
}

void ThreadState::forget_recorded() {
  for (Node& node : nodes_) {
    node.outside_run_calls = node.crossed_run_calls = node.mismatched_ends = node.remote_ends = 0;
  }
  unmatched_ends_ = 0;
  trace_.clear();
  remote_ends_.clear();
  has_remote_ends_.store(false, std::memory_order_relaxed);
  unreported_.store(false, std::memory_order_relaxed);
  first_folded_run = 0;  // the child's runs start a detail list of their own
  if (run_depth_ > 0) run_inherited_ = true;
}

void ThreadState::clear() {
  nodes_.assign(1, Node{0, kNoRegion});
  count_ids_.clear();
  count_depths_.clear();
  children_.clear();
  stack_.clear();
  touched_.clear();
  run_depth_ = 0;
  run_ = 0;
  live_run_ = 0;
  ended_runs = 0;
  first_folded_run = 0;
  set_base(0);
  attached_ = RunRef{};
  attach_roots_.clear();
  busy_.store(false, std::memory_order_relaxed);
  unreported_.store(false, std::memory_order_relaxed);
  run_inherited_ = false;
  unmatched_ends_ = 0;
  trace_.clear();
  remote_ends_.clear();
  has_remote_ends_.store(false, std::memory_order_relaxed);
}

namespace {

// A plain pointer, constant-initialised, so that reaching the state costs one thread-local
// load and no guard.
thread_local ThreadState* t_state = nullptr;

// Its destructor runs when the thread ends: the thread's data goes to the registry then.
struct ThreadExit {
  ThreadState* state = nullptr;
  ~ThreadExit() {
    if (state == nullptr) return;
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    state->hand_over(r);
    state->ended = true;
  }
};

[[gnu::noinline, gnu::cold]] ThreadState& make_thread_state() {
  static thread_local ThreadExit thread_exit;
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto index = static_cast<std::uint32_t>(r.threads.size());
  const bool is_main = gettid() == getpid();
  r.threads.push_back(
      std::make_unique<ThreadState>(index, is_main ? "main" : "thread-" + std::to_string(index)));
  t_state = r.threads.back().get();
  thread_exit.state = t_state;
  return *t_state;
}

}  // namespace

ThreadState& this_thread_state() {
  if (__builtin_expect(t_state != nullptr, 1)) return *t_state;
  return make_thread_state();
}

namespace {
// this_thread_state(), inlined into the macros' entry points.
inline ThreadState& thread_state() {
  if (__builtin_expect(t_state != nullptr, 1)) return *t_state;
  return make_thread_state();
}
}  // namespace

ThreadState* this_thread_state_if_any() noexcept {
  return t_state;
}

// The macros' entry points live beside the thread-local pointer so that reaching the state
// inlines into them.
OpenRegion enter_region(std::uint32_t site) noexcept {
  return thread_state().enter_inline(site);
}
void exit_region(OpenRegion region) noexcept {
  auto* const owner = static_cast<ThreadState*>(region.owner);
  if (__builtin_expect(owner == t_state, 1)) {
    owner->exit_inline(region);
  } else {
    owner->end_from_other_thread(region.serial, now_ticks());
  }
}
void exit_innermost_region() noexcept {
  this_thread_state().exit_innermost();
}
void begin_run() noexcept {
  this_thread_state().begin_run();
}
void end_run() noexcept {
  this_thread_state().end_run();
}
RunRef current_run() noexcept {
  const ThreadState* const state = t_state;
  return state != nullptr ? state->current_run() : RunRef{};
}
bool attach_run(const RunRef& run) noexcept {
  return this_thread_state().attach(run);
}

}  // namespace perfgate::probe::detail
