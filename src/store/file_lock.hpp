#pragma once
// An exclusive advisory lock (flock) on a lock file, held for the lifetime of the object.
// The kernel drops it when the process dies, so a killed writer never leaves it behind.
#include <filesystem>

#include "measure/file_descriptor.hpp"

namespace perfgate {

class FileLock {
 public:
  /// Creates the lock file when missing and waits until the lock is ours.
  /// Error(kIoError) when the file cannot be opened or locked.
  explicit FileLock(const std::filesystem::path& file);

 private:
  FileDescriptor fd_;
};

}  // namespace perfgate
