#pragma once
// A private temporary folder, removed with everything in it when it goes out of scope: for
// the files programs write during runs, and for the copy of a commit `history measure`
// builds.
#include <dirent.h>

#include <filesystem>
#include <string>

namespace perfgate {

class ScratchFolder {
 public:
  /// Creates <temp>/<prefix>XXXXXX (mkdtemp: unique, mode 0700) with a marker naming this
  /// process (.perfgate-owner: pid and start time). First removes, once per process and
  /// prefix, the folders of that prefix that a perfgate process killed before it could
  /// clean up left behind: this user's, with the marker, whose process is gone; nothing
  /// else. Error(kIoError) naming the temporary folder when it cannot be created.
  explicit ScratchFolder(const std::string& prefix = "perfgate-");
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }
  /// Whether nothing but its marker is in it. Read through a descriptor kept open, so that
  /// asking again costs a seek and a read of the folder; false when it cannot be read.
  bool holds_only_its_marker();

 private:
  std::filesystem::path path_;
  DIR* listing_ = nullptr;
};

}  // namespace perfgate
