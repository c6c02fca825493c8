#pragma once
// The host, with its compiler asked for its --version ahead of need: `perfgate run`'s start
// describes the host one fact after another, and the compiler's answer is the only one that
// starts a process (which, on a machine whose CPUs are busy, first waits for one).
#include <future>

#include "measure/host_profile.hpp"

namespace perfgate {

/// Forwards every question to `host`, and asks compiler_version() on a second thread as soon
/// as it is made: the answer is ready, or nearly, when the software profile needs it.
/// `host` must outlive it. Destroyed before the answer came, it waits for it (as the last
/// future of a std::async does).
class CompilerAskedAhead final : public HostProbe {
 public:
  explicit CompilerAskedAhead(const HostProbe& host);

  std::string read_file(const std::string& path) const override;
  std::string uname_machine() const override;
  std::string uname_release() const override;
  int logical_cores() const override;
  std::string libc_version() const override;
  std::vector<GpuInfo> gpus(std::string& note) const override;
  std::string compiler_version() const override;
  CommandOutput run_command(const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd) const override;

 private:
  const HostProbe& host_;
  std::shared_future<std::string> compiler_;
};

}  // namespace perfgate
