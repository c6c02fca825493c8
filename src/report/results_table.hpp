#pragma once
// The terminal table `perfgate run` prints: one block per benchmark, one row per metric.
#include <string>
#include <vector>

#include "model/raw_record.hpp"

namespace perfgate {

/// What became of one benchmark state in a run.
struct BenchmarkOutcome {
  enum class Kind { kMeasured, kSkipped };
  Kind kind = Kind::kMeasured;
  std::string name;
  std::string skip_reason;  ///< for kSkipped
  RawRecord record;         ///< for kMeasured
  std::string record_path;  ///< where the record was written

  /// "PASS", "REGRESSION" (static breach), "FAILED" (a run failed) or "SKIPPED".
  std::string status() const;
};

struct TableStyle {
  bool color = false;
};

/// Renders every outcome and a closing count line. Pure: the same input gives the same text.
std::string render_results_table(const std::vector<BenchmarkOutcome>& outcomes,
                                 const TableStyle& style);

}  // namespace perfgate
