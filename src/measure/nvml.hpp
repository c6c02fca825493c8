#pragma once
// GPU discovery through NVML, loaded with dlopen at run time so that perfgate has no
// link-time dependency on the NVIDIA driver and runs unchanged on machines without one.
#include <string>
#include <vector>

#include "measure/host_profile.hpp"

namespace perfgate {

/// The NVML library the driver installs.
inline constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

/// The GPUs NVML lists when `library` loads. Never throws: a missing library or any
/// failing NVML call gives no GPUs and `note` saying why (a machine without a GPU is a
/// normal CPU machine, not an error). `note` is cleared when GPUs were listed.
std::vector<GpuInfo> list_nvml_gpus(const std::string& library, std::string& note);

}  // namespace perfgate
