#pragma once
// The output folder of `perfgate ab`: always a new folder, so that the results of two runs
// never mix, and files in it that are replaced whole (results.json is rewritten after
// every run, and a reader must never see half of it).
#include <filesystem>
#include <string>

namespace perfgate {

/// The folder --out names: "perf-out/" and "perf-out" are the same folder.
std::filesystem::path output_folder_path(const std::string& given);

/// Creates `dir` (and its parents). Error(kUsage) naming the folder when it already
/// exists; Error(kIoError) when it cannot be created.
void create_new_output_folder(const std::filesystem::path& dir);

/// Writes `text` to a temporary file beside `file`, flushes it, and renames it over
/// `file`: a reader sees the old content or the new, never a mix. Error(kIoError).
void replace_file_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace perfgate
