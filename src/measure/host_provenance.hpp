#pragma once
// The provenance every record of one invocation shares: this machine's hardware and
// software profiles, the audit-only environment, the CI's metadata, the run source and
// the moment it started. `run` measures here; `import` records results that were
// measured here, so both describe the host the same way and land in the same cohorts.
#include <ctime>
#include <string>
#include <vector>

#include "measure/ci_environment.hpp"
#include "measure/host_profile.hpp"
#include "model/provenance.hpp"

namespace perfgate {

struct HostProvenance {
  Provenance provenance;
  HardwareProfile hardware;  ///< also what the provenance's profile was built from
  /// Why part of the software profile is "unknown" (no Python); worth printing once.
  std::vector<std::string> software_notes;
};

/// Describes the host at `now`. `software` is perfgate.toml's [software_profile];
/// `run_source_flag` (--run-source), when not empty, wins over $PERFGATE_RUN_SOURCE and
/// the CI inference. Error(kDataError) for a bad $PERFGATE_RUN_SOURCE (see
/// infer_run_source) or a failing packages_command (see collect_software_profile).
HostProvenance describe_host(const HostProbe& host, const Environment& env,
                             const SoftwareProfileConfig& software,
                             const std::string& run_source_flag, std::time_t now);

}  // namespace perfgate
