#pragma once
// A worker log that never grows past its limit: the first half of a run's output goes
// straight to the file, the last half is held in memory and written when the run ends.
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <vector>

#include "measure/file_descriptor.hpp"

namespace perfgate {

class BoundedLog {
 public:
  /// Opens `path` for appending (created if missing). Throws Error(kIoError) when it
  /// cannot be opened.
  BoundedLog(const std::filesystem::path& path, std::size_t limit_bytes);
  /// Appends to `file`, already open for appending to `path` (open_for_append), which must
  /// outlive this log: one descriptor serves the runs that share a log.
  BoundedLog(const std::filesystem::path& path, int file, std::size_t limit_bytes);
  /// `path` opened for appending (created if missing), as the constructor opens it. Throws
  /// Error(kIoError) when it cannot be opened.
  static FileDescriptor open_for_append(const std::filesystem::path& path);

  /// Writes a line of perfgate's own (a run header) straight to the file; it does not count
  /// against the limit, which bounds only what the child writes.
  void note(std::string_view line) { write_to_file(line); }
  /// Takes the next chunk of output, in the order the child wrote it.
  void write(std::string_view chunk);
  /// Call once, after the last write. Writes the kept tail, preceded by "\n[perfgate: N bytes of
  /// output dropped]\n" when anything was dropped. Throws Error(kIoError) if any write to the file
  /// failed.
  void finish();

  std::size_t total_bytes() const { return total_bytes_; }
  std::size_t dropped_bytes() const { return total_bytes_ - head_bytes_ - tail_.size(); }

 private:
  void write_to_file(std::string_view bytes);
  void keep_in_tail(std::string_view bytes);

  std::filesystem::path path_;
  FileDescriptor owned_;  ///< when the log opened its file itself
  int file_;
  std::size_t head_limit_;
  std::size_t tail_limit_;
  std::size_t total_bytes_ = 0;
  std::size_t head_bytes_ = 0;
  /// Grows up to tail_limit_, then is a ring whose oldest byte is at tail_start_.
  std::vector<char> tail_;
  std::size_t tail_start_ = 0;
  int write_error_ = 0;  ///< first errno of a failed write, reported by finish()
};

}  // namespace perfgate
