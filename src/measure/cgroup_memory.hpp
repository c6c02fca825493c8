#pragma once
// Peak memory of a run from the kernel: a per-run cgroup v2 child whose memory.peak
// covers every process of the run, including ones that left its process group.
// Optional by design: whenever anything about the cgroup fails, it is simply not used.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace perfgate {

/// The mount point of the cgroup2 file system listed in a /proc/<pid>/mountinfo file.
std::optional<std::filesystem::path> find_cgroup2_mount(
    const std::filesystem::path& mountinfo = "/proc/self/mountinfo");

/// Whether per-run children of `folder` get the memory controller: "memory" is listed in
/// its cgroup.controllers and enabled in its cgroup.subtree_control, and it is writable.
bool cgroup_memory_usable(const std::filesystem::path& folder);

/// The cgroup2 mount when cgroup_memory_usable(mount), else nullopt.
std::optional<std::filesystem::path> detect_cgroup_memory_root(
    const std::filesystem::path& mountinfo = "/proc/self/mountinfo");

/// One run's cgroup: created by the constructor, removed by the destructor.
class CgroupMemory {
 public:
  /// Creates `parent`/`name`; active() is false if that fails.
  CgroupMemory(const std::filesystem::path& parent, const std::string& name);
  CgroupMemory(const CgroupMemory&) = delete;
  CgroupMemory& operator=(const CgroupMemory&) = delete;
  ~CgroupMemory();

  bool active() const { return active_; }
  /// Moves `pid` into the cgroup (its later children follow it). On failure the cgroup is
  /// removed and active() becomes false.
  void add(pid_t pid);
  /// memory.peak in bytes; nullopt when inactive or the kernel has no memory.peak.
  std::optional<std::uint64_t> peak_bytes() const;

 private:
  void remove();

  std::filesystem::path folder_;
  bool active_ = false;
};

}  // namespace perfgate
