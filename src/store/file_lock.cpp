#include "store/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "model/error.hpp"

namespace perfgate {

FileLock::FileLock(const std::filesystem::path& file)
    : fd_(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
  const auto fail = [&](const char* what) {
    throw Error(ExitCode::kIoError, file.string() + ": cannot " + what +
                                        " the store's lock: " + std::strerror(errno) +
                                        ". Check that the store's folder is writable");
  };
  if (!fd_.valid()) fail("open");
  while (::flock(fd_.get(), LOCK_EX) != 0) {
    if (errno != EINTR) fail("take");
  }
}

}  // namespace perfgate
