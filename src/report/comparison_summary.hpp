#pragma once
// What `perfgate compare` prints and writes: current vs baseline per metric, with deltas,
// status and reason — as a terminal table and as the Markdown summary (SPEC §10).
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// Terminal: one block per record, one row per compared metric. Pure.
std::string render_comparison_table(const std::vector<NormalizedRecord>& records, bool color);

/// Markdown: a heading with the commit, one table row per record with current vs baseline
/// of latency, throughput, memory, CPU time and every component metric, the status and
/// the reason. Every string from a record is escaped for Markdown tables. Pure.
std::string render_comparison_markdown(const std::vector<NormalizedRecord>& records,
                                       const std::string& commit, const std::string& generated_at);

/// "+12.5%" / "-3.1%" / "n/a": the change of current over baseline in plain terms
/// (positive = larger), independent of direction.
std::string format_change(const MetricComparison& comparison);

}  // namespace perfgate
