#pragma once
// `perfgate history changes --history history.json`: the change points of the compatibility
// series of a commit-history export (docs/history-json.md), as ChangeSeries the store's
// renderers print (docs/changes.md).
#include <string>
#include <vector>

#include "report/change_report.hpp"

namespace perfgate {

/// Every series of the history document `text` (its medians in commit order), only those
/// of `metric` when it is not empty, each analysed with `options`. A series' cohort is its
/// compatibility id and its label "<case> (<label>, <threads> threads)"; each point carries
/// its commit's SHA, its commit time (UTC) and its attempt id. Error(kDataError)
/// "<source>: <field>: <reason>. <fix>" when the document does not hold together (an index
/// beyond its table, columns of different lengths, a field of the wrong type).
std::vector<ChangeSeries> analyse_history_changes(const std::string& text,
                                                  const std::string& source,
                                                  const std::string& metric,
                                                  const stats::ChangePointOptions& options);

}  // namespace perfgate
