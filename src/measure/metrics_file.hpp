#pragma once
// The metrics file: JSON lines a benchmark appends to $PERFGATE_METRICS_OUT to report its
// own numbers (stage timings, counters), read back after each run.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/metric.hpp"

namespace perfgate {

/// One line of the metrics file.
struct ReportedMetric {
  std::string name;
  double value = 0;
  std::optional<std::string> unit;
  std::optional<Direction> direction;

  bool operator==(const ReportedMetric&) const = default;
};

/// Reads every non-blank line of `path` as
/// {"name": non-empty string, "value": number, "unit": string?, "direction": "lower"|"higher"?}
/// and returns them in file order. A missing file means nothing was reported (empty).
/// Throws Error(kDataError, "<path>:<line>: <reason>. <fix>") for a malformed line, and
/// Error(kIoError) when the file exists but cannot be read.
std::vector<ReportedMetric> read_metrics_file(const std::filesystem::path& path);

}  // namespace perfgate
