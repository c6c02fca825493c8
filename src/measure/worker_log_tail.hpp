#pragma once
// The end of a benchmark's worker log: what a user reads first when a run failed or a
// gate found a regression (seed 000 prints a 200-line tail on a hard regression).
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>

namespace perfgate {

/// How much of a worker log a hard regression or a failed run prints.
inline constexpr std::size_t kWorkerLogTailLines = 200;

/// The last `count` lines of a worker log ("" when it cannot be read). Reads only the end
/// of the file, so a large log costs no more than its tail.
std::string last_lines(const std::filesystem::path& path, std::size_t count);

/// Prints the last `lines` lines of `benchmark_id`'s worker log between two marker lines:
///   ---- <benchmark_id>: last <lines> lines of <path> ----
///   <the lines, ending with a newline>
///   ---- end of worker log ----
/// A log that exists but is empty prints one line, "---- <benchmark_id>: worker log <path>
/// is empty ----"; one that cannot be read (a record measured on another machine or in a
/// container) prints "---- <benchmark_id>: worker log <path> cannot be read ----". An
/// empty `worker_log_path` (a record without a log) or `lines` == 0 prints nothing. Never throws
/// for a missing or unreadable log.
void print_worker_log_tail(std::ostream& out, const std::string& benchmark_id,
                           const std::filesystem::path& worker_log_path, std::size_t lines);

}  // namespace perfgate
