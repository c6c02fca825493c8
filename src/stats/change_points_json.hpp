#pragma once
// The change points of a series as the dashboard's documents carry them: store.json's
// metrics[].changes and history.json's series[].changes (docs/store-json.md,
// docs/history-json.md), written the same way by both writers.
#include <cstddef>
#include <span>
#include <vector>

#include "model/compact_json.hpp"

namespace perfgate::stats {

/// [{"after", "before", "index", "p_value", "relative_change", "worse"}, ...] of the change
/// points of `values` (find_change_points, default options). A change's index is mapped
/// through `positions` (the position in the document's columns of each value) when it is
/// not empty. `worse` follows `lower_is_better`; a relative change from 0 is written null.
/// Returns the indices written, oldest first.
std::vector<std::size_t> write_change_points(CompactJsonWriter& w, std::span<const double> values,
                                             std::span<const std::size_t> positions,
                                             bool lower_is_better);

}  // namespace perfgate::stats
