#include "measure/exclusive_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "measure/file_descriptor.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw Error(ExitCode::kIoError, path.string() + ": cannot " + what + ": " + std::strerror(errno) +
                                      ". Check free disk space and the folder's permissions");
}

std::filesystem::path temporary_name(const std::filesystem::path& file) {
  std::random_device entropy;
  std::ostringstream name;
  name << kTemporaryFilePrefix << ::getpid() << '-' << std::hex << entropy() << entropy() << '-'
       << file.filename().string();
  return file.parent_path() / name.str();
}

void write_all(int fd, const std::string& content, const std::filesystem::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "write");
    written += static_cast<std::size_t>(n);
  }
}

// Makes the new name durable: a file's own fsync does not cover its directory entry.
void sync_folder(const std::filesystem::path& folder) {
  FileDescriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid() || ::fsync(fd.get()) != 0) fail(folder, "flush the folder");
}

}  // namespace

bool create_file_exclusively(const std::filesystem::path& file, const std::string& content) {
  const std::filesystem::path temporary = temporary_name(file);
  {
    FileDescriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (!fd.valid()) fail(temporary, "create");
    try {
      write_all(fd.get(), content, temporary);
      if (::fsync(fd.get()) != 0) fail(temporary, "flush");
    } catch (...) {
      ::unlink(temporary.c_str());
      throw;
    }
  }
  const int linked = ::link(temporary.c_str(), file.c_str());
  const int link_error = errno;
  ::unlink(temporary.c_str());
  if (linked != 0) {
    if (link_error == EEXIST) return false;
    errno = link_error;
    fail(file, "create");
  }
  sync_folder(file.parent_path());
  return true;
}

std::string read_whole_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, "read");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) fail(file, "read");
  return content.str();
}

}  // namespace perfgate
