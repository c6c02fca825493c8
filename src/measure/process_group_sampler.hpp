#pragma once
// Peak memory of a whole process group, seen from /proc while the processes are alive:
// the only way to see several children that hold memory at the same time.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace perfgate {

/// The two fields of /proc/<pid>/stat the sampler needs.
struct ProcStat {
  pid_t process_group = 0;     ///< field 5, pgrp
  std::int64_t rss_pages = 0;  ///< field 24, rss
};

/// Parses the text of /proc/<pid>/stat. Fields are counted after the last ')' because the
/// command name (field 2) may itself contain spaces and parentheses. nullopt if malformed.
std::optional<ProcStat> parse_proc_stat(std::string_view text);

class ProcessGroupSampler {
 public:
  explicit ProcessGroupSampler(std::filesystem::path proc_root = "/proc");

  /// Sums the resident set of every process in `process_group` now and keeps the largest
  /// sum seen. Processes that vanish during the scan are skipped.
  void sample(pid_t process_group);
  std::uint64_t peak_bytes() const { return peak_bytes_; }

 private:
  std::filesystem::path proc_root_;
  std::uint64_t page_bytes_;
  std::uint64_t peak_bytes_ = 0;
};

}  // namespace perfgate
