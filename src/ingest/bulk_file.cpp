#include "ingest/bulk_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
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

std::optional<std::string> listing_name(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (name.empty() || name == "." || name == "..") return std::nullopt;
  return name;
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

bool BulkFolders::exists(const std::filesystem::path& path) {
  const std::optional<std::string> name = listing_name(path);
  if (!name) return is_there(path);
  return exists_in(path.has_parent_path() ? path.parent_path().string() : ".", *name);
}

bool BulkFolders::exists_in(const std::string& given_folder, const std::string& name) {
  const std::string& folder = given_folder.empty() ? std::string(".") : given_folder;
  const auto look = [&] { return is_there(std::filesystem::path(folder) / name); };
  auto [entry, added] = folders_.try_emplace(folder);
  if (added) {
    if (DIR* listing = ::opendir(folder.c_str())) {
      Listing& found = entry->second.emplace();
      while (const dirent* item = ::readdir(listing)) {
        const bool typed = item->d_type != DT_LNK && item->d_type != DT_UNKNOWN;
        (typed ? found.plain : found.unclear).insert(item->d_name);
      }
      ::closedir(listing);
    }
  }
  if (!entry->second) return look();
  if (entry->second->plain.contains(name)) return true;
  return entry->second->unclear.contains(name) && look();
}

std::optional<std::string> bulk_path_beside(const std::string& json_folder,
                                            const std::string& written_name, BulkFolders& folders) {
  if (written_name.empty() || written_name.front() == '/') return std::nullopt;
  // Every component plain: not empty (no "//", no trailing "/"), not "." or "..".
  std::size_t start = 0;
  while (true) {
    const std::size_t end = written_name.find('/', start);
    const std::string_view part =
        std::string_view(written_name).substr(start, end == std::string::npos ? end : end - start);
    if (part.empty() || part == "." || part == "..") return std::nullopt;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const std::size_t slash = written_name.rfind('/');
  const bool folder_has_separator = !json_folder.empty() && json_folder.back() == '/';
  const std::string separator = json_folder.empty() || folder_has_separator ? "" : "/";
  std::string path = json_folder + separator + written_name;
  const std::string name =
      slash == std::string::npos ? written_name : written_name.substr(slash + 1);
  const std::string folder = slash == std::string::npos
                                 ? json_folder
                                 : json_folder + separator + written_name.substr(0, slash);
  if (!folders.exists_in(folder, name)) return std::nullopt;
  return path;
}

std::filesystem::path resolve_bulk_path(const std::filesystem::path& json_file,
                                        const std::string& written_name) {
  BulkFolders folders;
  return resolve_bulk_path(json_file, written_name, folders);
}

std::filesystem::path resolve_bulk_path(const std::filesystem::path& json_file,
                                        const std::string& written_name, BulkFolders& folders) {
  const std::filesystem::path written(written_name);
  if (written.is_absolute()) return written;
  const std::filesystem::path json_folder = json_file.parent_path();
  const std::filesystem::path beside_json = json_folder / written;
  if (folders.exists(beside_json)) return beside_json;

  const std::string json_name = json_file.filename().string();
  for (auto part = written.begin(); part != written.end(); ++part) {
    if (*part != json_name + "-bin" && *part != json_name + "-freqs-bin") continue;
    std::filesystem::path moved = json_folder;
    for (auto rest = part; rest != written.end(); ++rest) moved /= *rest;
    if (folders.exists(moved)) return moved;
  }

  const std::filesystem::path above_json = folder_above(json_folder) / written;
  if (folders.exists(above_json)) return above_json;
  return beside_json;
}

std::optional<std::vector<double>> load_bulk_file(const BulkFile& file, std::string& warning) {
  const std::string& name = file.path;
  const auto cannot_read = [&](int error) {
    warning = name + ": cannot read: " + std::generic_category().message(error);
    return std::nullopt;
  };
  // A diff reads thousands of these small files, and on a virtual machine each system call
  // costs microseconds: a file of the stated size takes open, one readv and close. The
  // readv asks for one byte more than stated, so a longer file shows itself; anything
  // unusual (an error, a short or long read) goes on to fstat, which says what is wrong.
  // O_NONBLOCK keeps a FIFO from blocking the open; fstat then refuses it as not a
  // regular file.
  const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return cannot_read(errno);
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  // The raw bytes land in the back half of the result's own storage and are widened in
  // place from the front: value i (8 bytes at 8i) never overwrites bytes not yet read
  // (4 bytes at 4(count + i)), so nothing else is allocated.
  constexpr std::size_t kReadBeforeCheckingUpTo = std::size_t{1} << 20;  // values: 4 MiB
  std::vector<double> values;
  std::size_t done = 0;
  int read_error = 0;
  if (file.count <= kReadBeforeCheckingUpTo) {
    values.resize(file.count);
    unsigned char extra = 0;
    iovec parts[2] = {
        {reinterpret_cast<unsigned char*>(values.data()) + file.count * 4, file.count * 4},
        {&extra, 1}};
    ssize_t got;
    do {
      got = ::readv(fd, parts, 2);
    } while (got < 0 && errno == EINTR);
    if (got < 0) read_error = errno;
    if (got >= 0 && static_cast<std::size_t>(got) <= file.count * 4) {
      done = static_cast<std::size_t>(got);
    }
    if (done == file.count * 4 && read_error == 0) {
      unsigned char* const raw = reinterpret_cast<unsigned char*>(values.data()) + file.count * 4;
      for (std::size_t i = 0; i < file.count; ++i) values[i] = float32_le(raw + i * 4);
      return values;
    }
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0) return cannot_read(errno);
  if (!S_ISREG(info.st_mode)) {
    warning = name + ": cannot read: not a regular file";
    return std::nullopt;
  }
  if (read_error != 0) return cannot_read(read_error);
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
  values.resize(file.count);
  unsigned char* const raw = reinterpret_cast<unsigned char*>(values.data()) + file.count * 4;
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
