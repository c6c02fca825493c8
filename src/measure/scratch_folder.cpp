#include "measure/scratch_folder.hpp"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "model/error.hpp"

namespace perfgate {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOwnerFile = ".perfgate-owner";

/// The start time of process `pid` in clock ticks since boot (field 22 of
/// /proc/PID/stat): with the pid it names one process, even after the pid is reused.
std::string scratch_owner_start(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return "";
  const std::size_t close = line.rfind(')');  // the name may hold spaces and ')'
  if (close == std::string::npos) return "";
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  for (int index = 3; index <= 22 && fields >> field; ++index) {
    if (index == 22) return field;
  }
  return "";
}

/// Whether the process a marker names ("PID START") still runs.
bool scratch_owner_alive(const std::string& marker) {
  std::istringstream in(marker);
  long long pid = 0;
  std::string start;
  if (!(in >> pid >> start) || pid <= 0) return true;  // unreadable: not provably dead
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  const std::string now = scratch_owner_start(static_cast<pid_t>(pid));
  return now.empty() || now == start;  // another process under a reused pid: dead
}

/// Removes the folders `prefix`XXXXXX in `temp` that a perfgate process made (they hold
/// its marker), that belong to this user and whose process is gone (a SIGKILL leaves
/// them). A folder without the marker, or another user's, is never touched.
void remove_abandoned_scratch(const fs::path& temp, const std::string& prefix) {
  std::error_code error;
  for (fs::directory_iterator it(temp, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0) continue;
    struct stat info {};
    if (::lstat(it->path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
        info.st_uid != ::getuid()) {
      continue;
    }
    std::ifstream marker(it->path() / kOwnerFile);
    std::string text;
    if (!std::getline(marker, text) || scratch_owner_alive(text)) continue;
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

}  // namespace

ScratchFolder::ScratchFolder(const std::string& prefix) {
  const fs::path temp = fs::temp_directory_path();
  // What killed perfgate processes left is cleared once per process and prefix.
  static std::mutex swept_mutex;
  static std::set<std::string> swept;
  {
    const std::lock_guard lock(swept_mutex);
    if (swept.insert(temp.string() + "\n" + prefix).second) remove_abandoned_scratch(temp, prefix);
  }
  std::string pattern = (temp / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(ExitCode::kIoError, "cannot create a temporary folder in " + temp.string() +
                                        ". Check free space, or set TMPDIR");
  }
  path_ = pattern;
  // Who made it, so that a later perfgate can tell a folder whose process was killed.
  std::ofstream(path_ / kOwnerFile) << ::getpid() << " " << scratch_owner_start(::getpid()) << "\n";
}

bool ScratchFolder::holds_only_its_marker() {
  if (listing_ == nullptr) {
    listing_ = ::opendir(path_.c_str());
    if (listing_ == nullptr) return false;
  } else {
    ::rewinddir(listing_);  // the next read lists the folder as it is now
  }
  while (const dirent* entry = ::readdir(listing_)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != ".." && name != kOwnerFile) return false;
  }
  return true;
}

ScratchFolder::~ScratchFolder() {
  if (listing_ != nullptr) ::closedir(listing_);
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace perfgate
