#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

namespace perfgate {

/// The last `count` lines of a worker log ("" when it cannot be read). Reads only the end
/// of the file, so a large log costs no more than its tail.
std::string last_lines(const std::filesystem::path& path, std::size_t count);

}  // namespace perfgate
