#include "ingest/bulk_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <system_error>
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
  const auto cannot_read = [&](int error) {
    warning = name + ": cannot read: " + std::generic_category().message(error);
    return std::nullopt;
  };
  // open, fstat and read: a diff reads thousands of these small files, so each costs as few
  // system calls as it can. O_NONBLOCK keeps a FIFO from blocking the open; fstat then
  // refuses it as not a regular file.
  const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return cannot_read(errno);
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) return cannot_read(errno);
  if (!S_ISREG(info.st_mode)) {
    warning = name + ": cannot read: not a regular file";
    return std::nullopt;
  }
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  constexpr std::size_t kMaxCount = std::numeric_limits<std::size_t>::max() / 4;
  if (file.count > kMaxCount || size != static_cast<std::uintmax_t>(file.count) * 4) {
    warning = name + ": holds " + std::to_string(size) + " bytes, but the JSON states " +
              std::to_string(file.count) + " float32 values (" +
              (file.count > kMaxCount ? std::string("too many")
                                      : std::to_string(file.count * 4) + " bytes") +
              ")";
    return std::nullopt;
  }
  // The raw bytes land in the back half of the result's own storage and are widened in
  // place from the front: value i (8 bytes at 8i) never overwrites bytes not yet read
  // (4 bytes at 4(count + i)), so nothing else is allocated.
  std::vector<double> values(file.count);
  unsigned char* const raw = reinterpret_cast<unsigned char*>(values.data()) + file.count * 4;
  std::size_t done = 0;
  while (done < file.count * 4) {
    const ssize_t got = ::read(fd, raw + done, file.count * 4 - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return cannot_read(errno);
    if (got == 0) {
      warning = name + ": cannot read: the file ended early";
      return std::nullopt;
    }
    done += static_cast<std::size_t>(got);
  }
  for (std::size_t i = 0; i < file.count; ++i) values[i] = float32_le(raw + i * 4);
  return values;
}

}  // namespace perfgate::ingest
