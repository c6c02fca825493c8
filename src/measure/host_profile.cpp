#include "measure/host_profile.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "measure/package_versions.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {
namespace {

constexpr const char* kNotInstalled = "not-installed";

std::string_view trim_view(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string trim(const std::string& text) {
  return std::string(trim_view(text));
}

// The value after the first "<key>:" line of a "key: value" file such as /proc/cpuinfo
// (whose keys are padded with tabs before the colon), or "" when absent.
std::string colon_field(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(':');
    if (colon != std::string::npos && trim(line.substr(0, colon)) == key) {
      return trim(line.substr(colon + 1));
    }
  }
  return "";
}

// os-release(5) values are shell-style assignments, optionally quoted.
std::string os_release_field(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key + "=", 0) != 0) continue;
    std::string value = trim(line.substr(key.size() + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    return value;
  }
  return "";
}

// Whole GiB, rounded: reserved memory differs slightly between otherwise equal
// machines (firmware, kernel version), and the profile id must not.
long long whole_gib(double mib) {
  return std::llround(mib / 1024.0);
}

// The first of `variables` that is set and not empty, else perfgate.toml's value: CI sets
// the image per build, perfgate.toml names what a developer's machine runs.
std::optional<std::string> first_set(const Environment& env,
                                     std::initializer_list<const char*> variables,
                                     const std::optional<std::string>& configured) {
  for (const char* name : variables) {
    const auto it = env.find(name);
    if (it != env.end() && !it->second.empty()) return it->second;
  }
  return configured;
}

}  // namespace

std::string HardwareProfile::device_name() const {
  return gpus.empty() ? cpu_model : gpus.front().name;
}

Json HardwareProfile::to_json() const {
  Json gpu_list = Json::array();
  for (const GpuInfo& gpu : gpus) {
    gpu_list.push_back(
        {{"name", gpu.name},
         {"memory_gb", whole_gib(gpu.memory_mb)},
         {"compute_capability",
          gpu.compute_capability.empty() ? Json(nullptr) : Json(gpu.compute_capability)}});
  }
  return {{"architecture", architecture},
          {"cpu_model", cpu_model},
          {"logical_cores", logical_cores},
          {"memory_gb", whole_gib(memory_mb)},
          {"device_type", gpus.empty() ? "cpu" : "cuda"},
          {"gpu_count", gpus.size()},
          {"gpus", gpu_list}};
}

std::string HardwareProfile::profile_id_of(const Json& j) {
  return profile_id("hw", j);
}

Json SoftwareProfile::to_json() const {
  Json j = {{"os", os},
            {"kernel", kernel},
            {"libc", libc},
            {"compiler", compiler},
            {"packages", Json(packages)}};
  if (image) j["image"] = *image;
  if (profile_version) j["profile_version"] = *profile_version;
  if (!pip_packages.empty()) j["pip_packages"] = Json(pip_packages);
  if (!command_packages.empty()) j["command_packages"] = Json(command_packages);
  if (!package_versions.empty()) j["package_versions"] = Json(package_versions);
  return j;
}

std::string SoftwareProfile::id() const {
  return profile_id("sw", to_json());
}

HardwareProfile collect_hardware_profile(const HostProbe& host) {
  HardwareProfile profile;
  profile.cpu_model = colon_field(host.read_file("/proc/cpuinfo"), "model name");
  if (profile.cpu_model.empty()) profile.cpu_model = "unknown";
  profile.architecture = host.uname_machine();
  profile.logical_cores = host.logical_cores();
  // "MemTotal:       32823316 kB" (the kernel's kB are KiB).
  const std::string mem_total = colon_field(host.read_file("/proc/meminfo"), "MemTotal");
  if (!mem_total.empty()) profile.memory_mb = std::strtod(mem_total.c_str(), nullptr) / 1024.0;
  profile.gpus = host.gpus(profile.gpu_note);
  return profile;
}

SoftwareProfile collect_software_profile(const HostProbe& host, const SoftwareProfileConfig& config,
                                         const Environment& env) {
  SoftwareProfile profile;
  // os-release(5): /etc/os-release, falling back to /usr/lib/os-release.
  std::string os_release = host.read_file("/etc/os-release");
  if (os_release.empty()) os_release = host.read_file("/usr/lib/os-release");
  profile.os = os_release_field(os_release, "PRETTY_NAME");
  if (profile.os.empty()) profile.os = "unknown";
  profile.kernel = host.uname_release();
  profile.libc = host.libc_version();
  profile.compiler = host.compiler_version();
  // The dpkg database is most of a megabyte: read only when a package is asked for.
  if (!config.dpkg_packages.empty()) {
    profile.packages = dpkg_versions(host.read_file("/var/lib/dpkg/status"), config.dpkg_packages);
  }
  profile.image = first_set(env, {"PERFGATE_IMAGE_REF", "IMAGE_VERSION"}, config.image);
  profile.profile_version = first_set(env, {"PERFGATE_PROFILE_VERSION"}, config.profile_version);
  profile.pip_packages = pip_versions(host, config, profile.notes);
  if (!config.packages_command.empty()) profile.command_packages = command_versions(host, config);
  profile.package_versions = config.package_versions;
  return profile;
}

std::map<std::string, std::string> dpkg_versions(const std::string& status_text,
                                                 const std::vector<std::string>& packages) {
  std::map<std::string, std::string> versions;
  for (const std::string& name : packages) versions[name] = kNotInstalled;

  // Stanzas are separated by blank lines; continuation lines start with a space and
  // belong to fields we do not read. A package installed for several architectures
  // has one stanza each: the first installed one wins.
  std::string_view package, status, version;
  const auto finish_stanza = [&] {
    const auto wanted = versions.find(std::string(package));
    // Status is "<want> <flag> <state>": the state decides, so "hold ok installed" (a
    // pinned package) counts as installed and "deinstall ok config-files" does not.
    const bool installed = status.ends_with(" ok installed");
    if (wanted != versions.end() && wanted->second == kNotInstalled && installed &&
        !version.empty()) {
      wanted->second = version;
    }
    package = status = version = {};
  };
  // Views into the text, line by line: the database has tens of thousands of lines and
  // only three fields of each stanza matter.
  const std::string_view text(status_text);
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      finish_stanza();
    } else if (line.starts_with("Package:")) {
      package = trim_view(line.substr(8));
    } else if (line.starts_with("Status:")) {
      status = trim_view(line.substr(7));
    } else if (line.starts_with("Version:")) {
      version = trim_view(line.substr(8));
    }
  }
  finish_stanza();
  return versions;
}

}  // namespace perfgate
