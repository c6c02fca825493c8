#include "probe/testing.hpp"

#include <algorithm>
#include <mutex>

#include "perfgate/probe.hpp"
#include "probe/registry.hpp"
#include "probe/self_cost.hpp"
#include "probe/thread_state.hpp"

namespace perfgate::probe::detail {

void use_clock_for_testing(TestClock clock) {
  g_test_clock = clock;
  if (clock.wall_ns != nullptr) {
    g_clock_kind = ClockKind::kTest;
  } else {
    choose_clock();
  }
}

void use_fallback_clock_for_testing() {
  g_clock_kind = ClockKind::kSteady;
}

void reset_for_testing() {
  ThreadState& caller = this_thread_state();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.threads.erase(std::remove_if(r.threads.begin(), r.threads.end(),
                                 [](const auto& state) { return state->ended; }),
                  r.threads.end());
  const auto at = std::find_if(r.threads.begin(), r.threads.end(),
                               [&](const auto& state) { return state.get() == &caller; });
  std::rotate(r.threads.begin(), at, at + 1);
  std::uint32_t index = 0;
  for (const auto& state : r.threads) {
    state->clear();
    state->index = index++;
  }
  r.regions.clear();
  r.region_by_path.clear();
  r.name_ids.clear();
  r.runs.clear();
  r.folded = RunFold{};
  r.run_detail_cap = kRunDetailCap;
  r.dispatched.clear();
  r.outside_run_calls.clear();
  r.region_ends.clear();
  r.unmatched_ends = 0;
  r.forks = 0;
  r.forked_from = 0;
  r.parent_run_dropped = false;
  r.dynamic_names_over_cap = 0;
  r.dynamic_sites.clear();
  r.overflow_site.reset();
  r.dynamic_name_cap = kMaxDynamicNames;
  r.trace.clear();
  r.trace_dropped = 0;
  r.trace_cap = kTraceEvents;
  r.anchor_steady_ns = steady_ns();
  r.anchor_ticks = now_ticks();
  g_enabled.store(true);
  g_region_extras.store(0);
  g_warmup_runs.store(kWarmupRunsUnset);
  set_region_cost_for_testing(0);
}

}  // namespace perfgate::probe::detail

namespace perfgate::probe::detail {

void set_trace_cap_for_testing(std::size_t cap) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.trace_cap = cap;
}

void set_run_detail_cap_for_testing(std::size_t cap) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.run_detail_cap = cap;
}

void set_dynamic_name_cap_for_testing(std::size_t cap) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.dynamic_name_cap = cap;
}

}  // namespace perfgate::probe::detail
