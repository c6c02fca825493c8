#pragma once
// What ran a benchmark: the hardware and software profiles and their ids (SPEC §1).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/software_profile_config.hpp"
#include "measure/ci_environment.hpp"
#include "model/json.hpp"

namespace perfgate {

struct GpuInfo {
  std::string name;
  double memory_mb = 0;
  std::string compute_capability;  ///< "8.9"; empty when unknown
};

struct HardwareProfile {
  std::string cpu_model;     ///< /proc/cpuinfo "model name" (or "unknown")
  std::string architecture;  ///< uname machine, e.g. "x86_64"
  int logical_cores = 0;
  double memory_mb = 0;       ///< MemTotal
  std::vector<GpuInfo> gpus;  ///< from NVML when it can be loaded; empty otherwise
  std::string gpu_note;       ///< why no GPU was listed ("no NVIDIA GPU: NVML ..."), or empty

  /// The device name used for device_types and thresholds: the first GPU's name, else
  /// the CPU model.
  std::string device_name() const;
  /// {"architecture", "cpu_model", "logical_cores", "memory_gb", "device_type" ("cuda" or
  /// "cpu"), "gpu_count", "gpus": [{"name", "memory_gb", "compute_capability"}]}; memory in
  /// whole GiB (rounded) so that machines differing only in reserved memory share an id.
  /// gpu_note is not part of it (it is not hardware). See docs/fingerprints.md.
  Json to_json() const;
  std::string id() const { return profile_id_of(to_json()); }
  static std::string profile_id_of(const Json& j);
};

using PackageVersions = std::map<std::string, std::string>;  ///< name -> version

struct SoftwareProfile {
  std::string os;      ///< PRETTY_NAME of /etc/os-release
  std::string kernel;  ///< uname release
  std::string libc;    ///< "glibc 2.36"
  /// First line of `$CXX --version` (else `c++ --version`, else "none"): the toolchain the
  /// benchmarks are built with, not the one perfgate was built with.
  std::string compiler;
  PackageVersions packages;                    ///< dpkg: name -> version, "not-installed" if absent
  std::optional<std::string> image;            ///< container image reference
  std::optional<std::string> profile_version;  ///< the project's own cohort version
  PackageVersions pip_packages;      ///< "not-installed" if absent, "unknown" without Python
  PackageVersions command_packages;  ///< what packages_command printed
  PackageVersions package_versions;  ///< written in perfgate.toml
  /// Why a version could not be looked up ("python3 not found ..."); not part of the id.
  std::vector<std::string> notes;

  /// {"os", "kernel", "libc", "compiler", "packages": {name: version}}, plus "image",
  /// "profile_version", "pip_packages", "command_packages" and "package_versions" only
  /// when set, so a project that uses none of them keeps the id it had before they existed.
  Json to_json() const;
  std::string id() const;  ///< "sw-" + 16 hex digits
};

/// What a helper command (a Python interpreter, packages_command) printed.
struct CommandOutput {
  bool started = false;  ///< false when the program could not be started (not installed)
  int exit_status = -1;  ///< -1 when it was killed by a signal or ran out of time
  std::string out;       ///< stdout
  std::string err;       ///< stderr
};

/// Where host facts come from: the real machine, or fixed text in tests.
class HostProbe {
 public:
  virtual ~HostProbe() = default;
  virtual std::string read_file(const std::string& path) const = 0;  ///< "" if unreadable
  virtual std::string uname_machine() const = 0;
  virtual std::string uname_release() const = 0;
  virtual int logical_cores() const = 0;
  virtual std::string libc_version() const = 0;
  /// GPUs through NVML; sets `note` when none could be listed. Never throws.
  virtual std::vector<GpuInfo> gpus(std::string& note) const = 0;
  /// First line of the benchmark toolchain's `--version`, or "none". Never throws.
  virtual std::string compiler_version() const = 0;
  /// Runs argv (argv[0] looked up in PATH) in `cwd` with stdin from /dev/null and returns
  /// what it printed. Never throws: a program that cannot be started has started == false.
  virtual CommandOutput run_command(const std::vector<std::string>& argv,
                                    const std::filesystem::path& cwd) const = 0;
};

/// The real machine: /proc, /etc/os-release, uname, gnu_get_libc_version, NVML via dlopen,
/// and the compiler named by $CXX. Its text is valid UTF-8: a byte from outside that is not
/// (a compiler's or a package lister's output, a file) is U+FFFD, so that the profiles'
/// fingerprints, which take UTF-8 only, never refuse the machine itself.
const HostProbe& real_host();

HardwareProfile collect_hardware_profile(const HostProbe& host);
/// The software profile that `config` asks for. `env` supplies the image
/// (PERFGATE_IMAGE_REF, else IMAGE_VERSION) and the profile version
/// (PERFGATE_PROFILE_VERSION); each wins over perfgate.toml. Error(kDataError) when
/// packages_command fails or prints something that is not a package list; a missing
/// Python only leaves a note. See docs/fingerprints.md.
SoftwareProfile collect_software_profile(const HostProbe& host, const SoftwareProfileConfig& config,
                                         const Environment& env = {});

/// Parses a dpkg status database and returns the versions of `packages` that are
/// installed ("not-installed" for the rest).
std::map<std::string, std::string> dpkg_versions(const std::string& status_text,
                                                 const std::vector<std::string>& packages);

}  // namespace perfgate
