#include "measure/cgroup_memory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>

#include "measure/file_descriptor.hpp"

namespace perfgate {

namespace {

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool lists_word(const std::string& text, std::string_view word) {
  std::istringstream words(text);
  std::string candidate;
  while (words >> candidate) {
    if (candidate == word) return true;
  }
  return false;
}

// mountinfo escapes space, tab, newline and backslash as a backslash and three octal digits.
std::string unescape_mount_path(std::string_view text) {
  std::string path;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      int value = 0;
      const auto [end, error] = std::from_chars(text.data() + i + 1, text.data() + i + 4, value, 8);
      if (error == std::errc() && end == text.data() + i + 4) {
        path.push_back(static_cast<char>(value));
        i += 3;
        continue;
      }
    }
    path.push_back(text[i]);
  }
  return path;
}

}  // namespace

std::optional<std::filesystem::path> find_cgroup2_mount(const std::filesystem::path& mountinfo) {
  std::ifstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    // "<id> <parent> <major:minor> <root> <mount point> <options> [tags...] - <type> ..."
    const std::size_t separator = line.find(" - ");
    if (separator == std::string::npos) continue;
    std::istringstream after(line.substr(separator + 3));
    std::string type;
    after >> type;
    if (type != "cgroup2") continue;
    std::istringstream before(line.substr(0, separator));
    std::string field;
    for (int i = 0; i < 5 && before >> field; ++i) {
      if (i == 4) return std::filesystem::path(unescape_mount_path(field));
    }
  }
  return std::nullopt;
}

bool cgroup_memory_usable(const std::filesystem::path& folder) {
  const auto controllers = read_text(folder / "cgroup.controllers");
  const auto enabled = read_text(folder / "cgroup.subtree_control");
  return controllers && enabled && lists_word(*controllers, "memory") &&
         lists_word(*enabled, "memory") && ::access(folder.c_str(), W_OK) == 0;
}

std::optional<std::filesystem::path> detect_cgroup_memory_root(
    const std::filesystem::path& mountinfo) {
  auto mount = find_cgroup2_mount(mountinfo);
  if (mount && cgroup_memory_usable(*mount)) return mount;
  return std::nullopt;
}

CgroupMemory::CgroupMemory(const std::filesystem::path& parent, const std::string& name)
    : folder_(parent / name), active_(::mkdir(folder_.c_str(), 0755) == 0) {}

CgroupMemory::~CgroupMemory() {
  remove();
}

void CgroupMemory::add(pid_t pid) {
  if (!active_) return;
  const std::string text = std::to_string(pid);
  const FileDescriptor procs(::open((folder_ / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
  if (!procs.valid() ||
      ::write(procs.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    remove();
  }
}

std::optional<std::uint64_t> CgroupMemory::peak_bytes() const {
  if (!active_) return std::nullopt;
  const auto text = read_text(folder_ / "memory.peak");
  if (!text) return std::nullopt;
  std::uint64_t bytes = 0;
  const char* end = text->data() + text->size();
  const auto [stop, error] = std::from_chars(text->data(), end, bytes);
  if (error != std::errc() || stop == text->data()) return std::nullopt;
  return bytes;
}

void CgroupMemory::remove() {
  if (active_) ::rmdir(folder_.c_str());
  active_ = false;
}

}  // namespace perfgate
