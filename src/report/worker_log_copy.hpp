#pragma once
// A copy of a regressed benchmark's worker log beside the Markdown summary, as the seed's
// lane mirrors worker_<benchmark_id>_<ts>.md into its reports folder: CI systems that
// relay only .md/.json/.html files then still carry the log as a build artifact.
#include <filesystem>
#include <string>

namespace perfgate {

/// The worker log as a Markdown document: a "# Worker log of <benchmark_id>" title (markup
/// in the id escaped), the log's path in a code span, and the whole log in one fenced code block
/// whose fence (backticks) is longer than any run of backticks in the log, so no log line can close
/// it early. Pure.
std::string worker_log_markdown(const std::string& benchmark_id,
                                const std::filesystem::path& worker_log,
                                const std::string& log_text);

/// Writes worker_log_markdown() of `worker_log` as
/// <reports_dir>/worker_<file_slug(benchmark_id)>_<stamp>.md and returns its path.
/// Creates `reports_dir` when missing. Never overwrites: when the name is taken the copy
/// gets a -2, -3, ... suffix before ".md", and the file appears whole or not at all.
/// Returns an empty path, writing nothing, when `worker_log` is empty or cannot be read
/// (a record from another machine); the caller says so if it wants.
/// Error(kIoError) naming the path when `reports_dir` cannot be written.
std::filesystem::path copy_worker_log_to_reports(const std::filesystem::path& worker_log,
                                                 const std::string& benchmark_id,
                                                 const std::string& stamp,
                                                 const std::filesystem::path& reports_dir);

}  // namespace perfgate
