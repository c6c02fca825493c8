#pragma once
// The real executor: posix_spawn, one process group per run, timeouts that kill the whole
// group, CPU and peak memory of the whole process tree.
#include <chrono>
#include <filesystem>
#include <optional>

#include "measure/executor.hpp"

namespace perfgate {

struct ProcessExecutorOptions {
  /// How often the /proc sampler sums the RSS of the process group while a run lasts.
  std::chrono::milliseconds sample_interval{10};
  /// cgroup v2 mount to create a per-run cgroup under (for memory.peak). nullopt: detect
  /// (/sys/fs/cgroup when it is cgroup2 with the memory controller and writable).
  std::optional<std::filesystem::path> cgroup_root;
  bool use_cgroup = true;
};

class ProcessExecutor final : public Executor {
 public:
  explicit ProcessExecutor(ProcessExecutorOptions options = {});
  ProcessResult run(const ProcessSpec& spec) override;

 private:
  ProcessExecutorOptions options_;
};

}  // namespace perfgate
