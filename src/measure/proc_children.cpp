#include "measure/proc_children.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "measure/file_descriptor.hpp"

namespace perfgate {
namespace {

// One thread's list: pids separated by spaces. false when it cannot be read.
bool append_list(const std::string& path, std::vector<pid_t>& out) {
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.valid()) return false;
  std::string text;
  std::array<char, 4096> buffer;
  for (;;) {
    const ssize_t length = ::read(file.get(), buffer.data(), buffer.size());
    if (length < 0) return false;
    if (length == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(length));
  }
  std::size_t position = 0;
  while ((position = text.find_first_of("0123456789", position)) != std::string::npos) {
    const std::size_t end = std::min(text.find_first_not_of("0123456789", position), text.size());
    pid_t child = 0;
    const auto [stop, error] = std::from_chars(text.data() + position, text.data() + end, child);
    if (error == std::errc() && stop == text.data() + end && child > 0) out.push_back(child);
    position = end;
  }
  return true;
}

}  // namespace

bool is_pid_name(const char* name) {
  if (*name == '\0') return false;
  for (; *name != '\0'; ++name) {
    if (*name < '0' || *name > '9') return false;
  }
  return true;
}

bool append_proc_children(const std::string& proc_root, std::string_view pid, bool every_thread,
                          std::vector<pid_t>& out) {
  std::string tasks = proc_root;
  tasks.append("/").append(pid).append("/task/");
  if (!every_thread) return append_list(std::string(tasks).append(pid).append("/children"), out);
  DIR* directory = ::opendir(tasks.c_str());
  if (directory == nullptr) return false;
  bool listed = false;
  while (const dirent* entry = ::readdir(directory)) {
    if (is_pid_name(entry->d_name) &&
        append_list(std::string(tasks).append(entry->d_name).append("/children"), out)) {
      listed = true;
    }
  }
  ::closedir(directory);
  return listed;
}

}  // namespace perfgate
