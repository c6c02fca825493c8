#include "measure/nvml.hpp"

#include <dlfcn.h>

#include <array>
#include <memory>

namespace perfgate {
namespace {

// The few NVML declarations we need, restated from the NVML API so that no nvml.h is
// required at build time. Only NVML_SUCCESS (0) matters to us.
using NvmlReturn = int;
using NvmlDevice = struct NvmlDeviceOpaque*;
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr unsigned int kNvmlDeviceNameBufferSize = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE

struct NvmlApi {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*device_count)(unsigned int*) = nullptr;
  NvmlReturn (*handle_by_index)(unsigned int, NvmlDevice*) = nullptr;
  NvmlReturn (*name)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*memory_info)(NvmlDevice, NvmlMemory*) = nullptr;
  NvmlReturn (*compute_capability)(NvmlDevice, int*, int*) = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
};

struct LibraryCloser {
  void operator()(void* handle) const { dlclose(handle); }
};
using Library = std::unique_ptr<void, LibraryCloser>;

// Resolves `symbol` into `fn`; false (with `note` set) when the library lacks it.
template <typename Fn>
bool resolve(void* library, const char* symbol, Fn& fn, std::string& note) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (fn == nullptr) note = std::string("no NVIDIA GPU: NVML lacks ") + symbol;
  return fn != nullptr;
}

std::string failed(const char* call, NvmlReturn code) {
  return std::string("no NVIDIA GPU: ") + call + " failed with NVML error " + std::to_string(code);
}

// Lists the devices of an initialised NVML; empty with `note` set on any failure.
std::vector<GpuInfo> list_devices(const NvmlApi& api, std::string& note) {
  unsigned int count = 0;
  if (NvmlReturn rc = api.device_count(&count); rc != kNvmlSuccess) {
    note = failed("nvmlDeviceGetCount_v2", rc);
    return {};
  }
  if (count == 0) {
    note = "no NVIDIA GPU: NVML lists no devices";
    return {};
  }
  std::vector<GpuInfo> gpus;
  for (unsigned int i = 0; i < count; ++i) {
    NvmlDevice device = nullptr;
    if (NvmlReturn rc = api.handle_by_index(i, &device); rc != kNvmlSuccess) {
      note = failed("nvmlDeviceGetHandleByIndex_v2", rc);
      return {};
    }
    std::array<char, kNvmlDeviceNameBufferSize> name{};
    if (NvmlReturn rc = api.name(device, name.data(), name.size()); rc != kNvmlSuccess) {
      note = failed("nvmlDeviceGetName", rc);
      return {};
    }
    NvmlMemory memory{};
    if (NvmlReturn rc = api.memory_info(device, &memory); rc != kNvmlSuccess) {
      note = failed("nvmlDeviceGetMemoryInfo", rc);
      return {};
    }
    GpuInfo gpu;
    gpu.name = name.data();
    gpu.memory_mb = static_cast<double>(memory.total) / (1024.0 * 1024.0);
    // Older drivers may not know the capability; the GPU is still listed.
    int major = 0, minor = 0;
    if (api.compute_capability(device, &major, &minor) == kNvmlSuccess) {
      gpu.compute_capability = std::to_string(major) + "." + std::to_string(minor);
    }
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

}  // namespace

std::vector<GpuInfo> list_nvml_gpus(const std::string& library, std::string& note) {
  Library handle(dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!handle) {
    const char* reason = dlerror();
    note = "no NVIDIA GPU: NVML (" + library +
           ") could not be loaded: " + (reason != nullptr ? reason : "unknown reason");
    return {};
  }
  NvmlApi api;
  void* lib = handle.get();
  if (!resolve(lib, "nvmlInit_v2", api.init, note) ||
      !resolve(lib, "nvmlDeviceGetCount_v2", api.device_count, note) ||
      !resolve(lib, "nvmlDeviceGetHandleByIndex_v2", api.handle_by_index, note) ||
      !resolve(lib, "nvmlDeviceGetName", api.name, note) ||
      !resolve(lib, "nvmlDeviceGetMemoryInfo", api.memory_info, note) ||
      !resolve(lib, "nvmlDeviceGetCudaComputeCapability", api.compute_capability, note) ||
      !resolve(lib, "nvmlShutdown", api.shutdown, note)) {
    return {};
  }
  if (NvmlReturn rc = api.init(); rc != kNvmlSuccess) {
    note = failed("nvmlInit_v2", rc);
    return {};
  }
  std::vector<GpuInfo> gpus = list_devices(api, note);
  api.shutdown();
  if (!gpus.empty()) note.clear();
  return gpus;
}

}  // namespace perfgate
