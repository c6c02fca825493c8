#pragma once
// The tables and summary of `perfgate diff`: one table per benchmark and device pair, one
// row per state in the reference file's order, then counts per status and per AMBG reason,
// laid out as nvbench's compare tool does so readers of either feel at home.
#include <string>
#include <vector>

#include "diff/diff_run.hpp"

namespace perfgate {

enum class DiffDisplay {
  kIntervals,  ///< centre and interval of each side, proven change, status (default)
  kSimple,     ///< centres, interval spans, centre change
  kExplain,    ///< explicit intervals, noise, the reason of each decision
};

enum class StatusMarks {
  kPlain,  ///< the status text alone
  kColor,  ///< ANSI colours (a terminal)
  kEmoji,  ///< an emoji before the status (--no-color, NO_COLOR, Markdown)
};

struct DiffRenderOptions {
  DiffDisplay display = DiffDisplay::kIntervals;
  StatusMarks marks = StatusMarks::kPlain;
  bool markdown = false;  ///< escape cells for Markdown (benchmark names, axis values)
  /// --threshold-diff: show only rows whose centres differ by at least this fraction
  /// (???? rows always show). Counts include every row.
  double threshold = 0;
  /// Columns the tables may take (0: no limit). A table wider than this is shown in its
  /// narrow layout: each side's centre without its interval bounds, explain without the
  /// noise columns. Only for a terminal: Markdown and pipes keep every column.
  std::size_t max_width = 0;
};

/// True when the row is displayed under `threshold` (see DiffRenderOptions::threshold).
bool row_displayed(const diff::DiffRow& row, double threshold);

/// Tables and summary as text (Markdown-compatible pipe tables).
std::string render_diff(const diff::DiffOutcome& outcome, const DiffRenderOptions& options);

/// The status with its mark: "\x1b[31mSLOW\x1b[0m", "🔴 SLOW" or "SLOW".
std::string mark_status(diff::DiffStatus status, StatusMarks marks);

/// The text shown for an axis value: the state's own spelling when its key has one
/// ("BlockSize=2^8" shows "2^8"), else the value.
std::string axis_display(const ingest::ResultState& state, const std::string& axis);

}  // namespace perfgate
