#include "cli/run_environment.hpp"

#include <ctime>
#include <future>
#include <iostream>

#include "measure/ci_environment.hpp"
#include "measure/compiler_asked_ahead.hpp"
#include "measure/host_provenance.hpp"
#include "measure/local_git.hpp"
#include "measure/machine_state.hpp"
#include "model/time_window.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

fs::path project_folder(const Suite& suite) {
  return suite.project.root ? *suite.project.root : fs::current_path();
}

}  // namespace

RunEnvironment describe_run_environment(const Suite& suite, const std::string& run_source_flag) {
  const std::time_t now = std::time(nullptr);
  const Environment env = current_environment();
  const fs::path folder = project_folder(suite);
  // git (up to three commands, more in a large checkout) and the compiler (its --version)
  // answer on their own threads while the rest of the host is described (the GPU library,
  // OpenSSL): most of `perfgate run`'s start on a machine that is not busy.
  std::future<std::optional<LocalGit>> git;
  if (local_git_wanted(read_ci_metadata(env).to_json())) {
    git = std::async(std::launch::async, [folder] { return read_local_git(real_host(), folder); });
  }
  const HostProvenance host = describe_host(CompilerAskedAhead(real_host()), env,
                                            suite.project.software_profile, run_source_flag, now);
  const HardwareProfile& hardware = host.hardware;

  RunEnvironment out;
  out.provenance = host.provenance;
  out.host = &real_host();
  std::cerr << busy_machine_notice(real_host());
  if (git.valid()) apply_local_git(git.get(), out.provenance, folder, std::cerr);
  out.gpu_count = hardware.gpus.size();
  out.file_stamp = file_stamp_utc(now);
  out.counters = std::make_shared<CounterChoices>(machine_counter_sources);
  if (suite.project.log_limit_mb) {
    out.log_limit_bytes = static_cast<std::size_t>(*suite.project.log_limit_mb * 1024 * 1024);
  }
  for (const std::string& note : host.software_notes) {
    std::cerr << "perfgate: note: " << note << "\n";
  }
  if (!hardware.gpu_note.empty() && hardware.gpus.empty()) {
    // Only worth saying when a config asked for GPUs.
    for (const auto& config : suite.configs) {
      if (config.run.required_gpus > 0) {
        std::cerr << "perfgate: note: " << hardware.gpu_note << "\n";
        break;
      }
    }
  }
  return out;
}

}  // namespace perfgate
