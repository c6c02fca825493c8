#pragma once
// The terminal table `perfgate run` prints: one block per benchmark, one row per metric.
#include <cstddef>
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
  /// The terminal's width; a wider table drops its median, then its min … max column.
  /// 0: no limit (a file or a pipe).
  std::size_t max_width = 0;
};

/// One outcome's block: its header line, metric rows and notes, then a blank line.
std::string render_outcome_block(const BenchmarkOutcome& outcome, const TableStyle& style);

/// "3 benchmarks: 2 passed, 1 regressed, 0 failed, 0 skipped".
std::string render_run_totals(const std::vector<BenchmarkOutcome>& outcomes);

/// Every outcome's block and the closing count line. Pure: the same input gives the same text.
std::string render_results_table(const std::vector<BenchmarkOutcome>& outcomes,
                                 const TableStyle& style);

}  // namespace perfgate
