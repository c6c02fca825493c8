#include "probe/report_snapshot.hpp"

#include <mutex>

#include "probe/thread_state.hpp"

namespace perfgate::probe::detail {

Snapshot take_snapshot(ReportMoment moment) {
  Registry& r = registry();
  ThreadState* const caller = this_thread_state_if_any();
  const std::lock_guard lock(r.mutex);
  if (caller != nullptr) caller->hand_over(r);
  Snapshot s{r.sites,        r.regions,          r.runs,  r.outside_run_calls,
             r.region_ends,  r.unmatched_ends,   r.trace, r.trace_dropped,
             r.anchor_ticks, r.anchor_steady_ns, {},      {}};
  s.forks = r.forks;
  s.forked_from = r.forked_from;
  s.parent_run_dropped = r.parent_run_dropped;
  s.dynamic_names_over_cap = r.dynamic_names_over_cap;
  s.dynamic_name_cap = r.dynamic_name_cap;
  s.dispatched = r.dispatched;
  s.folded = r.folded;
  for (const auto& state : r.threads) {
    s.threads.emplace_back(state->index, state->name);
    s.ended_runs[state->index] = state->ended_runs;
    const std::string thread = std::to_string(state->index);
    if (state.get() != caller && !state->ended) {
      // A running thread's own data cannot be read without a lock on its hot path; it
      // says whether it holds any (a pool thread waiting for work holds none).
      if (moment == ReportMoment::kExit && state->holds_unreported()) {
        s.warnings.push_back(
            {"THREAD_NOT_FLUSHED", "thread " + thread + " ('" + state->name +
                                       "') was still running when the report was written at "
                                       "exit: what it recorded after its last finished run "
                                       "is missing"});
      }
      continue;
    }
    if (state->run_open()) {
      s.warnings.push_back({"RUN_OPEN_AT_EXIT", "a run on thread " + thread +
                                                    " was still open when the report was "
                                                    "written; it is not counted"});
    }
    for (const std::uint32_t region : state->open_regions()) {
      s.warnings.push_back({"REGION_OPEN_AT_EXIT", "region '" + r.regions[region].id +
                                                       "' on thread " + thread +
                                                       " was still open when the report was "
                                                       "written; that call is not counted"});
    }
  }
  return s;
}

}  // namespace perfgate::probe::detail
