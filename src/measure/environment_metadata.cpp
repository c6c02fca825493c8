#include "measure/environment_metadata.hpp"

#include <unistd.h>

#include <string>

namespace perfgate {
namespace {

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

Json collect_environment_metadata(const HostProbe& host, const Environment& env,
                                  const CiMetadata& ci,
                                  const std::optional<std::string>& image_ref) {
  char hostname[256] = {};
  ::gethostname(hostname, sizeof hostname - 1);
  const std::string governor =
      trimmed(host.read_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
  Json variables = Json::object();
  for (const auto& [name, value] : env) {
    if (name.rfind("PERFGATE_ENV_", 0) == 0) variables[name] = value;
  }
  Json metadata = {{"hostname", std::string(hostname)},
                   {"cpu_governor", governor.empty() ? Json(nullptr) : Json(governor)},
                   {"ci_provider", ci.provider},
                   {"variables", variables}};
  if (image_ref) metadata["image_ref"] = *image_ref;
  return metadata;
}

}  // namespace perfgate
