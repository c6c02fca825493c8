#pragma once
// The first question of the decision tree: do the two intervals stand clearly apart?
#include <optional>

#include "diff/side_estimate.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {

/// kFast when the compare interval lies wholly below the reference one, kSlow when wholly
/// above, and the gap relative to the lower interval's upper edge is at least `relative`
/// (the same as a gap of log(1 + relative) on a log scale, without the logarithm);
/// nullopt otherwise. Touching intervals have no gap.
std::optional<DiffStatus> clear_gap(const CenteredInterval& reference,
                                    const CenteredInterval& compare, double relative);

/// The gap between the two intervals relative to the lower interval's upper edge; zero or
/// negative when they touch or overlap. For messages.
double relative_gap(const CenteredInterval& reference, const CenteredInterval& compare);

}  // namespace perfgate::diff
