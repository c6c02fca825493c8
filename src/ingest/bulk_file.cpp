#include "ingest/bulk_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <vector>

#include "ingest/result_file.hpp"

namespace perfgate::ingest {
namespace {

static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559,
              "bulk files hold IEEE 754 binary32 values");

bool is_there(const std::filesystem::path& path) {
  std::error_code ignored;
  return std::filesystem::exists(path, ignored);
}

// The folder above `folder`, also when `folder` is "" (the working directory) or ".".
std::filesystem::path folder_above(const std::filesystem::path& folder) {
  if (folder.empty() || folder.filename() == "." || folder.filename() == "..") {
    return folder / "..";
  }
  return folder.parent_path();
}

// Little-endian binary32 at `bytes`, whatever the host's byte order.
double float32_le(const unsigned char* bytes) {
  const std::uint32_t bits =
      static_cast<std::uint32_t>(bytes[0]) | (static_cast<std::uint32_t>(bytes[1]) << 8) |
      (static_cast<std::uint32_t>(bytes[2]) << 16) | (static_cast<std::uint32_t>(bytes[3]) << 24);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace

std::filesystem::path resolve_bulk_path(const std::filesystem::path& json_file,
                                        const std::string& written_name) {
  const std::filesystem::path written(written_name);
  if (written.is_absolute()) return written;
  const std::filesystem::path json_folder = json_file.parent_path();
  const std::filesystem::path beside_json = json_folder / written;
  if (is_there(beside_json)) return beside_json;

  const std::string json_name = json_file.filename().string();
  for (auto part = written.begin(); part != written.end(); ++part) {
    if (*part != json_name + "-bin" && *part != json_name + "-freqs-bin") continue;
    std::filesystem::path moved = json_folder;
    for (auto rest = part; rest != written.end(); ++rest) moved /= *rest;
    if (is_there(moved)) return moved;
  }

  const std::filesystem::path above_json = folder_above(json_folder) / written;
  if (is_there(above_json)) return above_json;
  return beside_json;
}

std::optional<std::vector<double>> load_bulk_file(const BulkFile& file, std::string& warning) {
  const std::string name = file.path.string();
  std::error_code error;
  const auto status = std::filesystem::status(file.path, error);
  if (error) {
    warning = name + ": cannot read: " + error.message();
    return std::nullopt;
  }
  if (!std::filesystem::is_regular_file(status)) {
    warning = name + ": cannot read: not a regular file";
    return std::nullopt;
  }
  const std::uintmax_t size = std::filesystem::file_size(file.path, error);
  if (error) {
    warning = name + ": cannot read: " + error.message();
    return std::nullopt;
  }
  constexpr std::size_t kMaxCount = std::numeric_limits<std::size_t>::max() / 4;
  if (file.count > kMaxCount || size != static_cast<std::uintmax_t>(file.count) * 4) {
    warning = name + ": holds " + std::to_string(size) + " bytes, but the JSON states " +
              std::to_string(file.count) + " float32 values (" +
              (file.count > kMaxCount ? std::string("too many")
                                      : std::to_string(file.count * 4) + " bytes") +
              ")";
    return std::nullopt;
  }
  std::ifstream in(file.path, std::ios::binary);
  if (!in) {
    warning = name + ": cannot read: " + std::strerror(errno);
    return std::nullopt;
  }
  std::vector<unsigned char> bytes(file.count * 4);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (in.gcount() != static_cast<std::streamsize>(bytes.size())) {
    warning = name + ": cannot read: the file ended early";
    return std::nullopt;
  }
  std::vector<double> values;
  values.reserve(file.count);
  for (std::size_t i = 0; i < file.count; ++i) values.push_back(float32_le(&bytes[i * 4]));
  return values;
}

}  // namespace perfgate::ingest
