#pragma once
// What ran a benchmark: the hardware and software profiles and their ids (SPEC §1).
#include <map>
#include <string>
#include <vector>

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
  std::string gpu_note;       ///< why no GPU was listed ("libnvidia-ml.so.1 not found"), or empty

  /// The device name used for device_types and thresholds: the first GPU's name, else
  /// the CPU model.
  std::string device_name() const;
  Json to_json() const;  ///< gpu_note is not part of it (it is not hardware)
  std::string id() const { return profile_id_of(to_json()); }
  static std::string profile_id_of(const Json& j);
};

struct SoftwareProfile {
  std::string os;        ///< PRETTY_NAME of /etc/os-release
  std::string kernel;    ///< uname release
  std::string libc;      ///< "glibc 2.36"
  std::string compiler;  ///< the compiler perfgate was built with, e.g. "gcc 12.2.0"
  std::map<std::string, std::string> packages;  ///< name -> version, "not-installed" if absent

  Json to_json() const;
  std::string id() const;  ///< "sw-" + 16 hex digits
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
};

/// The real machine: /proc, /etc/os-release, uname, gnu_get_libc_version, NVML via dlopen.
const HostProbe& real_host();

HardwareProfile collect_hardware_profile(const HostProbe& host);
/// `packages`: versions looked up in the dpkg database (/var/lib/dpkg/status).
SoftwareProfile collect_software_profile(const HostProbe& host,
                                         const std::vector<std::string>& packages);

/// Parses a dpkg status database and returns the versions of `packages` that are
/// installed ("not-installed" for the rest).
std::map<std::string, std::string> dpkg_versions(const std::string& status_text,
                                                 const std::vector<std::string>& packages);

}  // namespace perfgate
