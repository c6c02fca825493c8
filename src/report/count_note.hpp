#pragma once
// The line every report that shows instruction counts carries (issue 36): counts are a
// proxy for the work, and latency stays the truth.
#include <map>
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// "Instruction counts are a proxy for the work: ...", one Markdown paragraph with its
/// line break.
std::string count_proxy_note();

/// Whether any of `records` carries a count metric (model/metric.hpp count_metric).
bool any_count_metric(const std::vector<NormalizedRecord>& records);

}  // namespace perfgate
