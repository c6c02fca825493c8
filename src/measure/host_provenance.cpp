#include "measure/host_provenance.hpp"

#include "measure/environment_metadata.hpp"
#include "model/compact_json.hpp"
#include "model/fingerprint.hpp"
#include "model/time_window.hpp"

namespace perfgate {
namespace {

// The environment's values may hold any bytes; what of them the provenance keeps is
// fingerprinted, which takes UTF-8 only. Bad bytes become U+FFFD, as the record writers
// write them (and as the real host's own text: real_host()).
Environment with_valid_utf8(const Environment& env) {
  Environment out;
  for (const auto& [name, value] : env) out.emplace(valid_utf8(name), valid_utf8(value));
  return out;
}

}  // namespace

HostProvenance describe_host(const HostProbe& host, const Environment& raw_env,
                             const SoftwareProfileConfig& software_config,
                             const std::string& run_source_flag, std::time_t now) {
  const Environment env = with_valid_utf8(raw_env);
  HostProvenance out;
  Provenance& p = out.provenance;
  out.hardware = collect_hardware_profile(host);
  p.device = out.hardware.device_name();
  p.hardware_profile = out.hardware.to_json();
  // The first digest loads OpenSSL (a few ms): before the software profile, which waits for
  // the compiler's answer, so that with a host that asks it ahead (CompilerAskedAhead) the two
  // overlap.
  p.hardware_profile_id = out.hardware.id();
  const SoftwareProfile software = collect_software_profile(host, software_config, env);
  out.software_notes = software.notes;
  const CiMetadata ci = read_ci_metadata(env);

  p.software_profile = software.to_json();
  p.software_profile_id = software.id();
  p.environment_metadata = collect_environment_metadata(host, env, ci, software.image);
  p.environment_fingerprint = profile_id("env", p.environment_metadata);
  p.ci = ci.to_json();
  if (!run_source_flag.empty()) {
    Environment with_flag = env;
    with_flag["PERFGATE_RUN_SOURCE"] = run_source_flag;
    p.run_source = infer_run_source(ci, with_flag);
  } else {
    p.run_source = infer_run_source(ci, env);
  }
  p.timestamp = iso_utc(now);
  return out;
}

}  // namespace perfgate
