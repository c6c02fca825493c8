#pragma once
// Audit-only facts about the environment of a run (SPEC §1): recorded and fingerprinted as
// env-<prefix>, never part of a comparison cohort.
#include <optional>
#include <string>

#include "measure/ci_environment.hpp"
#include "measure/host_profile.hpp"
#include "model/json.hpp"

namespace perfgate {

/// {"hostname", "cpu_governor" (null when cpufreq is absent), "ci_provider",
///  "variables": every PERFGATE_ENV_* variable}, plus "image_ref" when the software
/// profile names an image (the seed records its pinned image digest here too).
Json collect_environment_metadata(const HostProbe& host, const Environment& env,
                                  const CiMetadata& ci,
                                  const std::optional<std::string>& image_ref = std::nullopt);

}  // namespace perfgate
