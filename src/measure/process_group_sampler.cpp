#include "measure/process_group_sampler.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

#include "measure/file_descriptor.hpp"
#include "measure/proc_children.hpp"

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

/// A process's resident pages when it is in `process_group`, else 0.
std::uint64_t pages_in(const ProcStat& stat, pid_t process_group) {
  return stat.process_group == process_group && stat.rss_pages > 0
             ? static_cast<std::uint64_t>(stat.rss_pages)
             : 0;
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  // After "pid (comm)" come field 3 (state), 4 (ppid), 5 (pgrp), ... 20 (num_threads), ...
  // 24 (rss).
  const std::string_view rest = text.substr(close + 1);
  const auto process_group = parse_integer<pid_t>(field_after(rest, 2));
  const auto threads = parse_integer<std::int64_t>(field_after(rest, 17));
  const auto rss_pages = parse_integer<std::int64_t>(field_after(rest, 21));
  if (!process_group || !threads || !rss_pages) return std::nullopt;
  return ProcStat{*process_group, *threads, *rss_pages};
}

ProcessGroupSampler::ProcessGroupSampler(std::filesystem::path proc_root, pid_t root)
    : proc_root_(std::move(proc_root)),
      // "self" rather than getpid(): a sampler is made for every run, and most runs end
      // before its first sample.
      root_(root != 0 ? std::to_string(root) : "self"),
      page_bytes_(static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE))) {}

void ProcessGroupSampler::sample(pid_t process_group) {
  // Every process of the machine was read before: 0.7 ms of perfgate's CPU per sample with
  // 67 processes on the development machine, every 10 ms of a run, beside the measured
  // program; tens of ms with thousands of processes.
  const auto below = pages_below_root(process_group);
  const std::uint64_t pages = below ? *below : pages_of_every_process(process_group);
  peak_bytes_ = std::max(peak_bytes_, pages * page_bytes_);
}

std::optional<std::uint64_t> ProcessGroupSampler::pages_below_root(pid_t process_group) {
  std::vector<pid_t> pending;
  // The root is perfgate, with threads of its own: each one's children are listed.
  if (!append_proc_children(proc_root_.native(), root_, /*every_thread=*/true, pending)) {
    return std::nullopt;
  }
  std::uint64_t pages = 0;
  // A tree has no cycles, but pids are reused while it is walked: a bound keeps any mix-up
  // of a vanished process and a new one finite.
  std::size_t visits = 0;
  constexpr std::size_t kMostVisits = 1u << 20;
  while (!pending.empty() && visits++ < kMostVisits) {
    const pid_t pid = pending.back();
    pending.pop_back();
    const std::string entry = std::to_string(pid);
    const auto stat = read_stat(entry);
    if (!stat) continue;  // vanished
    pages += pages_in(*stat, process_group);
    // Below a process of another group (one that called setpgid) may still be ones of the
    // run's group, so every descendant is visited. A process of one thread lists its
    // children under its own task; one of several, under the thread that created each.
    append_proc_children(proc_root_.native(), entry, stat->threads > 1, pending);
  }
  return pages;
}

std::optional<ProcStat> ProcessGroupSampler::read_stat(std::string_view pid) {
  path_.assign(proc_root_.native()).append("/").append(pid).append("/stat");
  const FileDescriptor file(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.valid()) return std::nullopt;
  std::array<char, 1024> buffer;
  const ssize_t length = ::read(file.get(), buffer.data(), buffer.size());
  if (length <= 0) return std::nullopt;
  return parse_proc_stat(std::string_view(buffer.data(), std::size_t(length)));
}

std::uint64_t ProcessGroupSampler::pages_of_every_process(pid_t process_group) {
  DIR* directory = ::opendir(proc_root_.c_str());
  if (directory == nullptr) return 0;
  std::uint64_t total_pages = 0;
  while (const dirent* entry = ::readdir(directory)) {
    if (!is_pid_name(entry->d_name)) continue;
    if (const auto stat = read_stat(entry->d_name)) total_pages += pages_in(*stat, process_group);
  }
  ::closedir(directory);
  return total_pages;
}

}  // namespace perfgate
