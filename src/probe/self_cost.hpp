#pragma once
// What the probe itself costs per region call, measured when a report is written: the
// time a call adds outside the interval it measures (entering, looking up the node, and
// leaving). That time lands in the enclosing region's self time, or in the run's residual
// for a top-level call, so the report subtracts it from self times and states it per run.

#include <cstdint>

namespace perfgate::probe::detail {

/// Ticks of the active clock per region call outside its own measured interval: the best
/// of several rounds of empty regions on a scratch thread state that records nothing
/// into the registry. 0 on a test clock unless a test set a cost.
double region_cost_ticks() noexcept;

/// The cost a test clock reports (ticks = ns there); 0 until set.
void set_region_cost_for_testing(double ticks) noexcept;

}  // namespace perfgate::probe::detail
