#pragma once
// Gzipped result files (pyperf writes *.json.gz): recognised by the magic bytes 1f 8b,
// not by the name, and inflated in memory with zlib.
#include <cstddef>
#include <string>
#include <string_view>

namespace perfgate::ingest {

/// Limit on the inflated size, so a small hostile file cannot fill the memory.
inline constexpr std::size_t kMaxInflatedBytes = std::size_t{1} << 32;

/// True when `bytes` start with the gzip magic number.
bool is_gzip(std::string_view bytes);

/// The content of a gzip stream (several members are concatenated, as gzip does).
/// Error(kDataError) "<source>: <reason>. <fix>" when it is corrupt, truncated or inflates
/// past kMaxInflatedBytes.
std::string gunzip(std::string_view bytes, const std::string& source);

}  // namespace perfgate::ingest
