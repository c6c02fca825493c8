#pragma once
// Audit-only facts about the environment of a run (SPEC §1): recorded and fingerprinted as
// env-<prefix>, never part of a comparison cohort.
#include "measure/ci_environment.hpp"
#include "measure/host_profile.hpp"
#include "model/json.hpp"

namespace perfgate {

/// {"hostname", "cpu_governor" (null when cpufreq is absent), "ci_provider",
///  "variables": every PERFGATE_ENV_* variable (e.g. a container image digest)}.
Json collect_environment_metadata(const HostProbe& host, const Environment& env,
                                  const CiMetadata& ci);

}  // namespace perfgate
