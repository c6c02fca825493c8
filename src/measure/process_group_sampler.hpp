#pragma once
// Peak memory of a whole process group, seen from /proc while the processes are alive:
// the only way to see several children that hold memory at the same time. A sample walks
// the process tree below perfgate (a child subreaper, so a run's orphans stay below it)
// rather than every process of the machine: its cost follows the run's processes, not the
// machine's (docs/measurement.md, "Peak memory").
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

/// The two fields of /proc/<pid>/stat the sampler needs.
struct ProcStat {
  pid_t process_group = 0;     ///< field 5, pgrp
  std::int64_t threads = 1;    ///< field 20, num_threads
  std::int64_t rss_pages = 0;  ///< field 24, rss
};

/// Parses the text of /proc/<pid>/stat. Fields are counted after the last ')' because the
/// command name (field 2) may itself contain spaces and parentheses. nullopt if malformed.
std::optional<ProcStat> parse_proc_stat(std::string_view text);

class ProcessGroupSampler {
 public:
  /// `root`: the process below which a run's processes are (0: this process). It must be a
  /// child subreaper, as perfgate and perfgate-spawner are, or an orphan of the run that
  /// the kernel hands to init is not seen.
  explicit ProcessGroupSampler(std::filesystem::path proc_root = "/proc", pid_t root = 0);

  /// Sums the resident set of every process in `process_group` now and keeps the largest
  /// sum seen. The processes are those below the root, found through the children each
  /// thread lists (/proc/<pid>/task/<tid>/children); where the kernel lists none
  /// (CONFIG_PROC_CHILDREN unset), every process of /proc is read instead. Processes that
  /// vanish during the sample are skipped.
  void sample(pid_t process_group);
  std::uint64_t peak_bytes() const { return peak_bytes_; }

 private:
  /// The group's pages below the root; nullopt when the root's children cannot be listed.
  std::optional<std::uint64_t> pages_below_root(pid_t process_group);
  /// The group's pages among every process of /proc.
  std::uint64_t pages_of_every_process(pid_t process_group);
  /// /proc/<pid>/stat read and parsed; nullopt when the process is gone or it is malformed.
  std::optional<ProcStat> read_stat(std::string_view pid);

  std::filesystem::path proc_root_;
  std::string root_;  ///< the root's /proc entry: its pid, or "self"
  std::uint64_t page_bytes_;
  std::uint64_t peak_bytes_ = 0;
  std::string path_;  ///< scratch, kept between samples
};

}  // namespace perfgate
