#include "ab/output_folder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "model/error.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_error(const fs::path& path, const std::string& what, int error) {
  throw Error(ExitCode::kIoError, path.string() + ": " + what + ": " + std::strerror(error) +
                                      ". Check that the output folder is writable and the disk "
                                      "has space");
}

}  // namespace

fs::path output_folder_path(const std::string& given) {
  fs::path dir = fs::path(given).lexically_normal();
  if (dir.filename().empty() && dir.has_parent_path()) dir = dir.parent_path();  // "out/" -> "out"
  return dir;
}

void create_new_output_folder(const fs::path& dir) {
  std::error_code ec;
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  if (ec) io_error(dir.parent_path(), "cannot create the folder", ec.value());
  // create_directory reports an existing folder instead of reusing it: no race with a
  // second run choosing the same name.
  if (!fs::create_directory(dir, ec)) {
    if (ec) io_error(dir, "cannot create the folder", ec.value());
    throw Error(ExitCode::kUsage,
                "--out " + dir.string() +
                    ": the folder already exists. perfgate ab writes only into a new folder so "
                    "that results of different runs never mix; name a new folder or remove this "
                    "one");
  }
}

void replace_file_atomically(const fs::path& file, const std::string& text) {
  const fs::path temp = file.parent_path() / (".tmp-" + file.filename().string());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) io_error(temp, "cannot create", errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      io_error(temp, "cannot write", error);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    io_error(temp, "cannot flush", error);
  }
  ::close(fd);
  if (std::rename(temp.c_str(), file.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    io_error(file, "cannot replace", error);
  }
}

}  // namespace perfgate
