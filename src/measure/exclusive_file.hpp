#pragma once
// Files that are created once and never changed: written whole to a temporary file in
// the same folder, flushed, then hard-linked to their name. link() fails when the name
// exists, so a file is never overwritten, and it appears complete or not at all.
#include <filesystem>
#include <string>

namespace perfgate {

/// Prefix of the temporary files; readers of a folder skip names that start with it.
inline constexpr const char* kTemporaryFilePrefix = ".tmp-";

/// Creates `file` with `content`. Returns false, changing nothing, when `file` exists.
/// Error(kIoError) when it cannot be written.
bool create_file_exclusively(const std::filesystem::path& file, const std::string& content);

/// The whole content of a file. Error(kIoError) when it cannot be read.
std::string read_whole_file(const std::filesystem::path& file);

}  // namespace perfgate
