#include "measure/bounded_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "model/error.hpp"

namespace perfgate {

FileDescriptor BoundedLog::open_for_append(const std::filesystem::path& path) {
  FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (!file.valid()) {
    throw Error(ExitCode::kIoError,
                fmt::format("cannot open the worker log {}: {}. Check that its folder exists and "
                            "is writable.",
                            path.string(), std::strerror(errno)));
  }
  return file;
}

BoundedLog::BoundedLog(const std::filesystem::path& path, std::size_t limit_bytes)
    : BoundedLog(path, -1, limit_bytes) {
  owned_ = open_for_append(path);
  file_ = owned_.get();
}

BoundedLog::BoundedLog(const std::filesystem::path& path, int file, std::size_t limit_bytes)
    : path_(path),
      file_(file),
      head_limit_(limit_bytes / 2),
      tail_limit_(limit_bytes - limit_bytes / 2) {}

void BoundedLog::write(std::string_view chunk) {
  total_bytes_ += chunk.size();
  const std::size_t to_head = std::min(chunk.size(), head_limit_ - head_bytes_);
  write_to_file(chunk.substr(0, to_head));
  head_bytes_ += to_head;
  keep_in_tail(chunk.substr(to_head));
}

void BoundedLog::keep_in_tail(std::string_view bytes) {
  if (tail_limit_ == 0) return;
  if (bytes.size() >= tail_limit_) {
    tail_.assign(bytes.end() - tail_limit_, bytes.end());
    tail_start_ = 0;
    return;
  }
  const std::size_t room = tail_limit_ - tail_.size();
  const std::size_t appended = std::min(room, bytes.size());
  tail_.insert(tail_.end(), bytes.begin(), bytes.begin() + appended);
  bytes.remove_prefix(appended);
  // The ring is full: each remaining byte replaces the oldest one kept.
  while (!bytes.empty()) {
    const std::size_t run = std::min(bytes.size(), tail_limit_ - tail_start_);
    std::copy_n(bytes.begin(), run, tail_.begin() + tail_start_);
    bytes.remove_prefix(run);
    tail_start_ = (tail_start_ + run) % tail_limit_;
  }
}

void BoundedLog::finish() {
  const std::size_t dropped = dropped_bytes();
  if (dropped > 0)
    write_to_file(fmt::format("\n[perfgate: {} bytes of output dropped]\n", dropped));
  const std::string_view tail(tail_.data(), tail_.size());
  write_to_file(tail.substr(tail_start_));
  write_to_file(tail.substr(0, tail_start_));
  if (write_error_ != 0) {
    throw Error(ExitCode::kIoError,
                fmt::format("cannot write the worker log {}: {}. Free space on its disk or "
                            "choose another results folder.",
                            path_.string(), std::strerror(write_error_)));
  }
}

void BoundedLog::write_to_file(std::string_view bytes) {
  while (!bytes.empty() && write_error_ == 0) {
    const ssize_t written = ::write(file_, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno != EINTR) write_error_ = errno;
      continue;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace perfgate
