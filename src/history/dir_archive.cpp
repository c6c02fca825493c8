#include "history/dir_archive.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "measure/exclusive_file.hpp"
#include "measure/file_descriptor.hpp"
#include "model/error.hpp"
#include "store/file_lock.hpp"

namespace perfgate::history {
namespace {

namespace fs = std::filesystem;

/// Files whose names start with these are the archive's own bookkeeping, not content.
bool bookkeeping(const std::string& name) {
  return name == ".lock" || name.rfind(kTemporaryFilePrefix, 0) == 0;
}

[[noreturn]] void fail_to_read(const fs::path& file) {
  throw Error(ExitCode::kIoError, file.string() + ": cannot read: " + std::strerror(errno) +
                                      ". Check the archive folder's permissions");
}

class DirSnapshot : public ArchiveSnapshot {
 public:
  explicit DirSnapshot(fs::path folder) : folder_(std::move(folder)) {}

  std::optional<std::string> read(const std::string& path) const override {
    // One read() of the whole file into a string of its size: an export reads thousands.
    const fs::path file = folder_ / path;
    FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
      if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
      fail_to_read(file);
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) fail_to_read(file);
    if (!S_ISREG(info.st_mode)) return std::nullopt;
    std::string content(static_cast<std::size_t>(info.st_size), '\0');
    std::size_t done = 0;
    while (true) {
      if (done == content.size()) content.resize(content.size() + 4096);  // it grew
      const ssize_t n = ::read(fd.get(), content.data() + done, content.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail_to_read(file);
      if (n == 0) break;
      done += static_cast<std::size_t>(n);
    }
    content.resize(done);
    return content;
  }

  bool reads_in_parallel() const override { return true; }

  std::vector<std::string> list(const std::string& folder) const override {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(folder_ / folder, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (!bookkeeping(name)) names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path folder_;
};

/// Writes through a temporary file renamed over the old one, so a reader sees the old
/// bytes or the new ones.
void replace_file(const fs::path& file, const std::string& content) {
  const fs::path temporary =
      file.parent_path() / (std::string(kTemporaryFilePrefix) + std::to_string(::getpid()) + "-" +
                            file.filename().string());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw Error(ExitCode::kIoError, file.string() + ": cannot write: " + std::strerror(errno) +
                                          ". Check free disk space and permissions");
    }
  }
  if (std::rename(temporary.c_str(), file.c_str()) != 0) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Error(ExitCode::kIoError, file.string() + ": cannot replace: " + std::strerror(errno) +
                                        ". Check the archive folder's permissions");
  }
}

void ensure_folder(const fs::path& root) {
  std::error_code ec;
  if (fs::is_directory(root, ec)) return;
  if (!fs::is_directory(root.parent_path(), ec)) {
    throw Error(ExitCode::kNoInput,
                root.string() +
                    ": neither the archive nor its parent folder exists. Check the "
                    "path, or create the parent folder first");
  }
  fs::create_directory(root);
}

}  // namespace

DirArchive::DirArchive(std::string url, fs::path folder)
    : url_(std::move(url)), folder_(std::move(folder)) {}

bool DirArchive::exists() const {
  std::error_code ec;
  return fs::is_directory(folder_, ec);
}

std::unique_ptr<ArchiveSnapshot> DirArchive::snapshot() const {
  return std::make_unique<DirSnapshot>(folder_);
}

PublishOutcome DirArchive::publish(
    const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare) {
  const DirSnapshot current(folder_);
  // Prepared once before the folder exists, so a refused change creates nothing.
  CheckedChange checked = check_against(current, prepare(current));
  throw_if_conflicts(url_, checked);
  PublishOutcome outcome;
  outcome.skipped = checked.skipped;
  bool anything = !checked.change.create.empty();
  for (const auto& [path, content] : checked.change.replace) {
    if (current.read(path) != content) anything = true;
  }
  if (!anything) return outcome;

  ensure_folder(folder_);
  const FileLock lock(folder_ / ".lock");
  // Under the lock the archive cannot change: prepare again from what is there now.
  checked = check_against(current, prepare(current));
  throw_if_conflicts(url_, checked);
  outcome.skipped = checked.skipped;
  // Raw files before attempts, attempts before the ledger: an interrupted publish leaves
  // files that a second publish finds identical, never a ledger naming a missing attempt.
  std::vector<std::pair<std::string, std::string>> ordered(checked.change.create.begin(),
                                                           checked.change.create.end());
  std::stable_partition(ordered.begin(), ordered.end(),
                        [](const auto& file) { return file.first.rfind("raw/", 0) == 0; });
  for (const auto& [path, content] : ordered) {
    const fs::path file = folder_ / path;
    fs::create_directories(file.parent_path());
    if (create_file_exclusively(file, content)) {
      ++outcome.created;
    } else {
      ++outcome.skipped;
    }
  }
  for (const auto& [path, content] : checked.change.replace) {
    if (current.read(path) == content) continue;
    const fs::path file = folder_ / path;
    fs::create_directories(file.parent_path());
    replace_file(file, content);
    ++outcome.replaced;
  }
  return outcome;
}

}  // namespace perfgate::history
