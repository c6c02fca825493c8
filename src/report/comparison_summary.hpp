#pragma once
// What `perfgate compare` prints and writes: current vs baseline per metric, with change,
// threshold, verdict, status and reason — as a terminal table and as the Markdown summary
// (SPEC §10). Both take their cells from comparison_row, so they agree.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// Terminal: one block per record (name, status, reason), then one row per metric:
/// metric, current, baseline, change, threshold (worse by), verdict. Pure.
/// `max_width` (0: no limit) is the terminal's width: a wider metric table drops its
/// threshold column, and a long reason continues on indented lines.
/// `baseline_units`: the units of the baseline records' metrics (metric_units).
std::string render_comparison_table(const std::vector<NormalizedRecord>& records, bool color,
                                    std::size_t max_width = 0,
                                    const std::map<std::string, std::string>& baseline_units = {});

/// Markdown: a heading with the commit; one row per record with current vs baseline
/// (change) of every metric, the status and the reason; then a table with one row per
/// metric of each record, with the same columns as the terminal. Every string from a
/// record is escaped for Markdown tables. Pure.
std::string render_comparison_markdown(
    const std::vector<NormalizedRecord>& records, const std::string& commit,
    const std::string& generated_at, const std::map<std::string, std::string>& baseline_units = {});

/// One line naming every change that is beyond its relative threshold but held back by
/// an absolute floor ("not gated: 2 change(s) … sort latency +206.0% worse, under the
/// 500 ms floor; …"), or "" when there is none: such a change is never silent.
std::string not_gated_note(const std::vector<NormalizedRecord>& records);

}  // namespace perfgate
