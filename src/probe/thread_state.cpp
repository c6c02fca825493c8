#include "probe/thread_state.hpp"

#include <unistd.h>

#include <memory>
#include <mutex>
#include <utility>

#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

ThreadState::ThreadState(std::uint32_t thread_index, std::string thread_name)
    : index(thread_index), name(std::move(thread_name)) {
  // Room for typical programs so that the hot path does not allocate after warm-up.
  nodes_.reserve(64);
  nodes_.push_back(Node{0, kNoRegion});
  stack_.reserve(64);
  touched_.reserve(64);
}

std::uint32_t ThreadState::add_node(std::uint32_t parent, std::uint32_t site) noexcept {
  const std::uint32_t parent_region = nodes_[parent].region;
  std::uint32_t region = 0;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    region = r.region_for(parent_region, site);
  }
  const auto node = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(Node{site, region});
  nodes_[node].next_sibling = nodes_[parent].first_child;
  nodes_[parent].first_child = node;
  return node;
}

std::uint32_t ThreadState::child_of(std::uint32_t parent, std::uint32_t site) noexcept {
  for (std::uint32_t c = nodes_[parent].first_child; c != kNone; c = nodes_[c].next_sibling) {
    if (nodes_[c].site == site) return c;
  }
  return add_node(parent, site);
}

void ThreadState::enter(std::uint32_t site) noexcept {
  const std::uint32_t parent = stack_.empty() ? 0 : stack_.back().node;
  const std::uint32_t node = child_of(parent, site);
  stack_.push_back(Frame{node, run_depth_ > 0 ? run_ : 0, 0, 0});
  // Read last so that the bookkeeping above is not inside the region.
  stack_.back().start_ticks = now_ticks();
}

void ThreadState::exit() noexcept {
  const std::uint64_t end = now_ticks();
  if (stack_.empty()) return;  // an end without a begin (C API): nothing to close
  const Frame frame = stack_.back();
  stack_.pop_back();
  const std::uint64_t wall = end - frame.start_ticks;
  Node& node = nodes_[frame.node];
  if (frame.run != 0 && frame.run == run_ && run_depth_ > 0) {
    if (node.touched_run != run_) {
      node.touched_run = run_;
      node.run_calls = node.run_wall_ticks = node.run_self_ticks = 0;
      touched_.push_back(frame.node);
    }
    ++node.run_calls;
    node.run_wall_ticks += wall;
    node.run_self_ticks += wall - frame.child_ticks;
    if (stack_.empty() || stack_.back().run != frame.run) run_top_level_ticks_ += wall;
  } else if (frame.run == 0) {
    ++node.outside_run_calls;
  }
  if (!stack_.empty()) stack_.back().child_ticks += wall;
  if (g_trace.load(std::memory_order_relaxed)) record_trace(node.region, frame.start_ticks, end);
}

void ThreadState::record_trace(std::uint32_t region, std::uint64_t start,
                               std::uint64_t end) noexcept {
  if (trace_.capacity() == 0) trace_.reserve(kThreadTraceEvents);
  if (trace_.size() == kThreadTraceEvents) {
    ++trace_dropped_;
    return;
  }
  trace_.push_back(TraceEvent{region, index, start, end});
}

void ThreadState::begin_run() noexcept {
  if (run_depth_++ > 0) return;  // nested: the outer run measures
  ++run_;
  touched_.clear();
  run_top_level_ticks_ = 0;
  run_start_cpu_ns_ = process_cpu_ns();
  run_start_ticks_ = now_ticks();
}

void ThreadState::end_run() noexcept {
  const std::uint64_t end = now_ticks();
  const std::uint64_t cpu = process_cpu_ns();
  if (run_depth_ == 0 || --run_depth_ > 0) return;
  RunRecord run{index, end - run_start_ticks_, cpu - run_start_cpu_ns_, run_top_level_ticks_, {}};
  run.rows.reserve(touched_.size());
  for (const std::uint32_t n : touched_) {
    const Node& node = nodes_[n];
    run.rows.push_back(
        RunRow{node.region, node.run_calls, node.run_wall_ticks, node.run_self_ticks});
  }
  touched_.clear();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.runs.push_back(std::move(run));
  hand_over(r);
}

void ThreadState::hand_over(Registry& r) {
  for (Node& node : nodes_) {
    if (node.outside_run_calls == 0) continue;
    r.outside_run_calls[node.region] += node.outside_run_calls;
    node.outside_run_calls = 0;
  }
  for (const TraceEvent& event : trace_) {
    if (r.trace.size() < kTraceEvents) {
      r.trace.push_back(event);
    } else {
      ++r.trace_dropped;
    }
  }
  trace_.clear();
  r.trace_dropped += trace_dropped_;
  trace_dropped_ = 0;
}

std::vector<std::uint32_t> ThreadState::open_regions() const {
  std::vector<std::uint32_t> regions;
  for (const Frame& frame : stack_) regions.push_back(nodes_[frame.node].region);
  return regions;
}

void ThreadState::clear() {
  nodes_.assign(1, Node{0, kNoRegion});
  stack_.clear();
  touched_.clear();
  run_depth_ = 0;
  trace_.clear();
  trace_dropped_ = 0;
}

namespace {

// A plain pointer, so that reaching the state costs one thread-local load and no guard.
constinit thread_local ThreadState* t_state = nullptr;

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

ThreadState& make_thread_state() {
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
  if (t_state != nullptr) [[likely]]
    return *t_state;
  return make_thread_state();
}

ThreadState* this_thread_state_if_any() noexcept {
  return t_state;
}

}  // namespace perfgate::probe::detail
