#pragma once
// `-o FILE` means one thing on every command: a file the command writes its output to.
// An existing file is kept unless --force says to replace it, and the refusal comes before
// any work. The file appears whole or not at all.
#include <string>

namespace perfgate {

/// Error(kUsage) "<path>: already exists. Pass --force to replace it, or choose another
/// <flag>" when `path` exists and `force` is false; Error(kNotFound) when its folder does
/// not exist. Call it before doing the work whose result goes to `path`.
void check_output_file(const std::string& path, const std::string& flag, bool force);

/// Writes `text` to `path` through a temporary file in the same folder renamed into place,
/// replacing an existing file only when `force` (checked again, so a file that appeared
/// meanwhile is not lost). Error(kIoError) naming the path when it cannot be written.
void write_output_file(const std::string& path, const std::string& flag, const std::string& text,
                       bool force);

}  // namespace perfgate
