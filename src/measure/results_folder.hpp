#pragma once
// Where `perfgate run` leaves its raw records: one file per record, never overwritten.
#include <filesystem>
#include <string>

#include "model/raw_record.hpp"

namespace perfgate {

/// Creates the results folder and its worker_logs/ before anything runs, so that a folder
/// that cannot be written stops the run at once: Error(kIoError) naming the path.
void prepare_results_folder(const std::filesystem::path& results_dir);

/// What --dry-run checks instead of creating the folder: that it, or the nearest folder
/// above it that exists, is a writable folder. Error(kIoError) naming the path otherwise.
void check_results_folder_writable(const std::filesystem::path& results_dir);

/// Creates <results_dir>/run-<file_stamp>/ and its worker_logs/: the folder of one
/// `perfgate run`, so that `compare` can tell this run's records from earlier ones. A name
/// already taken gets a -2, -3, ... suffix. Error(kIoError) naming the path on failure.
std::filesystem::path create_run_folder(const std::filesystem::path& results_dir,
                                        const std::string& file_stamp);

/// Writes `text` as <dir>/<stem><extension>, whole or not at all, never replacing a file:
/// a name already taken gets a -2, -3, ... suffix before the extension. Returns the path.
/// Error(kIoError) naming the path when the folder cannot be written.
std::filesystem::path write_new_file(const std::filesystem::path& dir, const std::string& stem,
                                     const std::string& extension, const std::string& text);

/// Writes `record` as <results_dir>/perf_<slug>_<file_stamp>.json. The file appears whole
/// or not at all (written to a temporary name, then linked into place), and an existing
/// file is never replaced: a name already taken gets a -2, -3, ... suffix.
/// Error(kIoError) naming the path when the folder cannot be written.
std::filesystem::path write_raw_record(const std::filesystem::path& results_dir,
                                       const RawRecord& record, const std::string& file_stamp);

}  // namespace perfgate
