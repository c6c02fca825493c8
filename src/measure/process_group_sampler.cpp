#include "measure/process_group_sampler.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

#include "measure/file_descriptor.hpp"

namespace perfgate {

namespace {

// The whitespace-separated field after skipping `skip` fields; empty if there are fewer.
std::string_view field_after(std::string_view text, int skip) {
  std::size_t position = 0;
  for (int i = 0;; ++i) {
    position = text.find_first_not_of(" \n", position);
    if (position == std::string_view::npos) return {};
    const std::size_t end = std::min(text.find_first_of(" \n", position), text.size());
    if (i == skip) return text.substr(position, end - position);
    position = end;
  }
}

template <typename Integer>
std::optional<Integer> parse_integer(std::string_view text) {
  Integer value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

bool is_pid_name(const char* name) {
  if (*name == '\0') return false;
  for (; *name != '\0'; ++name) {
    if (*name < '0' || *name > '9') return false;
  }
  return true;
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  // After "pid (comm)" come field 3 (state), 4 (ppid), 5 (pgrp), ... 24 (rss).
  const std::string_view rest = text.substr(close + 1);
  const auto process_group = parse_integer<pid_t>(field_after(rest, 2));
  const auto rss_pages = parse_integer<std::int64_t>(field_after(rest, 21));
  if (!process_group || !rss_pages) return std::nullopt;
  return ProcStat{*process_group, *rss_pages};
}

ProcessGroupSampler::ProcessGroupSampler(std::filesystem::path proc_root)
    : proc_root_(std::move(proc_root)),
      page_bytes_(static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE))) {}

void ProcessGroupSampler::sample(pid_t process_group) {
  DIR* directory = ::opendir(proc_root_.c_str());
  if (directory == nullptr) return;
  std::uint64_t total_pages = 0;
  std::array<char, 1024> buffer;
  std::string path;
  while (const dirent* entry = ::readdir(directory)) {
    if (!is_pid_name(entry->d_name)) continue;
    path.assign(proc_root_.native()).append("/").append(entry->d_name).append("/stat");
    const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!file.valid()) continue;
    const ssize_t length = ::read(file.get(), buffer.data(), buffer.size());
    if (length <= 0) continue;
    const auto stat = parse_proc_stat(std::string_view(buffer.data(), std::size_t(length)));
    if (stat && stat->process_group == process_group && stat->rss_pages > 0) {
      total_pages += static_cast<std::uint64_t>(stat->rss_pages);
    }
  }
  ::closedir(directory);
  peak_bytes_ = std::max(peak_bytes_, total_pages * page_bytes_);
}

}  // namespace perfgate
