#include "measure/host_profile.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "measure/nvml.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {
namespace {

// A machine described by fixed text: files by path, everything else by field.
class FakeHost final : public HostProbe {
 public:
  std::map<std::string, std::string> files{
      {"/proc/cpuinfo",
       "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13 64-Core "
       "Processor\ncpu MHz\t\t: 2450.000\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13 64-Core "
       "Processor\n"},
      {"/proc/meminfo", "MemTotal:       32823316 kB\nMemFree:        1234567 kB\n"},
      {"/etc/os-release",
       "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n"},
      {"/var/lib/dpkg/status",
       "Package: libssl3\nStatus: install ok installed\nArchitecture: amd64\nVersion: "
       "3.0.11-1~deb12u2\nDescription: Secure Sockets Layer toolkit\n shared libraries\n\n"
       "Package: cmake\nStatus: install ok installed\nVersion: 3.25.1-1\n"}};
  std::string machine = "x86_64";
  std::string release = "6.1.0-18-amd64";
  int cores = 16;
  std::string libc = "glibc 2.36";
  std::vector<GpuInfo> gpu_list;
  std::string gpu_note = "no NVIDIA GPU: NVML (libnvidia-ml.so.1) could not be loaded: test";
  std::string compiler = "g++ (Debian 12.2.0-14) 12.2.0";

  std::string read_file(const std::string& path) const override {
    const auto it = files.find(path);
    return it == files.end() ? "" : it->second;
  }
  std::string uname_machine() const override { return machine; }
  std::string uname_release() const override { return release; }
  int logical_cores() const override { return cores; }
  std::string libc_version() const override { return libc; }
  std::vector<GpuInfo> gpus(std::string& note) const override {
    if (gpu_list.empty()) note = gpu_note;
    return gpu_list;
  }
  std::string compiler_version() const override { return compiler; }
};

const std::vector<std::string> kPackages{"cmake", "libssl3", "valgrind"};

// Sets an environment variable for one scope and restores the previous value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST(HardwareProfile, ReadsCpuModelCoresAndMemoryFromTheProbe) {
  const HardwareProfile hw = collect_hardware_profile(FakeHost{});
  EXPECT_EQ(hw.cpu_model, "AMD EPYC 7B13 64-Core Processor");
  EXPECT_EQ(hw.architecture, "x86_64");
  EXPECT_EQ(hw.logical_cores, 16);
  EXPECT_DOUBLE_EQ(hw.memory_mb, 32823316.0 / 1024.0);
  EXPECT_TRUE(hw.gpus.empty());
  EXPECT_EQ(hw.gpu_note, "no NVIDIA GPU: NVML (libnvidia-ml.so.1) could not be loaded: test");
}

TEST(HardwareProfile, CallsTheCpuUnknownWhenCpuinfoHasNoModelName) {
  FakeHost host;
  host.files["/proc/cpuinfo"] = "processor\t: 0\nCPU implementer\t: 0x41\n";
  host.files.erase("/proc/meminfo");
  const HardwareProfile hw = collect_hardware_profile(host);
  EXPECT_EQ(hw.cpu_model, "unknown");
  EXPECT_EQ(hw.memory_mb, 0.0);
}

TEST(HardwareProfile, HasThisExactJsonAndIdForACpuMachine) {
  const HardwareProfile hw = collect_hardware_profile(FakeHost{});
  const std::string expected =
      R"({"architecture":"x86_64","cpu_model":"AMD EPYC 7B13 64-Core Processor",)"
      R"("device_type":"cpu","gpu_count":0,"gpus":[],"logical_cores":16,"memory_gb":31})";
  EXPECT_EQ(canonical_json(hw.to_json()), expected);
  EXPECT_EQ(hw.id(), "hw-" + sha256_hex(expected).substr(0, 16));
  // Pinned: stored records carry this id, so a change here splits every cohort.
  EXPECT_EQ(hw.id(), "hw-582e5cbc21f7ad94");
}

TEST(HardwareProfile, ListsGpusWithWholeGibAndMarksTheDeviceTypeCuda) {
  FakeHost host;
  host.gpu_list = {{"NVIDIA L40S", 46068.0, "8.9"}, {"NVIDIA L40S", 46068.0, ""}};
  const HardwareProfile hw = collect_hardware_profile(host);
  EXPECT_EQ(hw.gpu_note, "");
  const Json j = hw.to_json();
  EXPECT_EQ(j["device_type"], "cuda");
  EXPECT_EQ(j["gpu_count"], 2);
  EXPECT_EQ(canonical_json(j["gpus"]),
            R"([{"compute_capability":"8.9","memory_gb":45,"name":"NVIDIA L40S"},)"
            R"({"compute_capability":null,"memory_gb":45,"name":"NVIDIA L40S"}])");
}

TEST(HardwareProfile, KeepsItsIdForTheSameMachineAndChangesItForAnotherCpu) {
  FakeHost host;
  const std::string id = collect_hardware_profile(host).id();
  EXPECT_EQ(collect_hardware_profile(host).id(), id);

  host.files["/proc/meminfo"] = "MemTotal:       32800000 kB\n";  // less reserved memory
  EXPECT_EQ(collect_hardware_profile(host).id(), id);

  host.files["/proc/cpuinfo"] = "model name\t: AMD EPYC 9654 96-Core Processor\n";
  EXPECT_NE(collect_hardware_profile(host).id(), id);
}

TEST(HardwareProfile, ExcludesTheGpuNoteFromItsId) {
  FakeHost host;
  const std::string id = collect_hardware_profile(host).id();
  host.gpu_note = "no NVIDIA GPU: NVML lists no devices";
  EXPECT_EQ(collect_hardware_profile(host).id(), id);
}

TEST(HardwareProfile, NamesTheDeviceAfterTheFirstGpuElseTheCpu) {
  HardwareProfile hw;
  hw.cpu_model = "Intel(R) Xeon(R) Platinum 8480+";
  EXPECT_EQ(hw.device_name(), "Intel(R) Xeon(R) Platinum 8480+");
  hw.gpus = {{"NVIDIA H100 80GB HBM3", 81559.0, "9.0"}, {"NVIDIA A10", 22731.0, "8.6"}};
  EXPECT_EQ(hw.device_name(), "NVIDIA H100 80GB HBM3");
}

TEST(SoftwareProfile, HasThisExactJsonAndId) {
  const SoftwareProfile sw = collect_software_profile(FakeHost{}, kPackages);
  const std::string expected =
      R"({"compiler":"g++ (Debian 12.2.0-14) 12.2.0","kernel":"6.1.0-18-amd64",)"
      R"j("libc":"glibc 2.36","os":"Debian GNU/Linux 12 (bookworm)",)j"
      R"("packages":{"cmake":"3.25.1-1","libssl3":"3.0.11-1~deb12u2",)"
      R"("valgrind":"not-installed"}})";
  EXPECT_EQ(canonical_json(sw.to_json()), expected);
  EXPECT_EQ(sw.id(), "sw-" + sha256_hex(expected).substr(0, 16));
  // Pinned: stored records carry this id, so a change here splits every cohort.
  EXPECT_EQ(sw.id(), "sw-4dc005ea252750b5");
}

TEST(SoftwareProfile, ChangesItsIdWhenAPackageVersionChanges) {
  FakeHost host;
  const std::string id = collect_software_profile(host, kPackages).id();
  EXPECT_EQ(collect_software_profile(host, kPackages).id(), id);
  host.files["/var/lib/dpkg/status"] =
      "Package: libssl3\nStatus: install ok installed\nVersion: 3.0.13-1~deb12u1\n\n"
      "Package: cmake\nStatus: install ok installed\nVersion: 3.25.1-1\n";
  EXPECT_NE(collect_software_profile(host, kPackages).id(), id);
}

TEST(SoftwareProfile, FallsBackToUsrLibOsReleaseAndToUnknown) {
  FakeHost host;
  host.files.erase("/etc/os-release");
  host.files["/usr/lib/os-release"] = "NAME=Fedora\nPRETTY_NAME='Fedora Linux 40'\n";
  EXPECT_EQ(collect_software_profile(host, {}).os, "Fedora Linux 40");
  host.files.erase("/usr/lib/os-release");
  EXPECT_EQ(collect_software_profile(host, {}).os, "unknown");
}

TEST(DpkgVersions, TakesTheFirstInstalledStanzaAndSkipsRemovedPackages) {
  const std::string status =
      "Package: libc6\nStatus: deinstall ok config-files\nArchitecture: i386\nVersion: 2.35-1\n"
      "\n"
      "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nVersion: 2.36-9\n"
      "Description: GNU C Library\n multi-line description\n .\n more\n"
      "\n"
      "Package: libc6\nStatus: install ok installed\nArchitecture: i386\nVersion: 2.36-8\n"
      "\n"
      "Package: gdb\nVersion: 13.1-3\nStatus: hold ok installed\n"
      "\n"
      "Package: valgrind\nStatus: purge ok not-installed\n";
  const auto versions = dpkg_versions(status, {"libc6", "gdb", "valgrind", "perf"});
  const std::map<std::string, std::string> expected{{"gdb", "13.1-3"},
                                                    {"libc6", "2.36-9"},
                                                    {"perf", "not-installed"},
                                                    {"valgrind", "not-installed"}};
  EXPECT_EQ(versions, expected);
}

TEST(DpkgVersions, ReportsEveryPackageNotInstalledWithoutADatabase) {
  const auto versions = dpkg_versions("", {"cmake"});
  EXPECT_EQ(versions.at("cmake"), "not-installed");
  EXPECT_EQ(versions.size(), 1u);
}

TEST(Nvml, ListsNoGpuAndSaysWhyWhenTheLibraryIsAbsent) {
  std::string note;
  const auto gpus = list_nvml_gpus("libperfgate-no-such-nvml.so.1", note);
  EXPECT_TRUE(gpus.empty());
  EXPECT_EQ(
      note.rfind("no NVIDIA GPU: NVML (libperfgate-no-such-nvml.so.1) could not be loaded: ", 0),
      0u)
      << note;
  EXPECT_NE(note.find("libperfgate-no-such-nvml.so.1: cannot open shared object file"),
            std::string::npos)
      << note;
}

TEST(Nvml, ListsNoGpuAndSaysWhyWhenTheLibraryIsNotNvml) {
  std::string note;
  const auto gpus = list_nvml_gpus("libc.so.6", note);
  EXPECT_TRUE(gpus.empty());
  EXPECT_EQ(note, "no NVIDIA GPU: NVML lacks nvmlInit_v2");
}

TEST(RealHost, ReturnsNothingForAFileThatCannotBeRead) {
  EXPECT_EQ(real_host().read_file("/nonexistent/perfgate/cpuinfo"), "");
}

TEST(RealHost, DescribesThisMachineWithAtLeastOneCoreAndSomeMemory) {
  const HardwareProfile hw = collect_hardware_profile(real_host());
  EXPECT_GE(hw.logical_cores, 1);
  EXPECT_GT(hw.memory_mb, 0.0);
  EXPECT_FALSE(hw.architecture.empty());
  EXPECT_EQ(real_host().libc_version().rfind("glibc ", 0), 0u);
}

TEST(RealHost, TakesTheCompilerFromTheFirstLineOfCxxVersion) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("perfgate-test-compiler-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  const auto script = dir / "fake-cxx";
  std::ofstream(script) << "#!/bin/sh\necho \"fakecc 9.1 ($1)\"\necho second line\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  std::string version;
  {
    ScopedEnv cxx("CXX", script.string());
    version = real_host().compiler_version();
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(version, "fakecc 9.1 (--version)");
}

TEST(RealHost, SaysNoneWhenNeitherCxxNorCppCanBeRun) {
  ScopedEnv cxx("CXX", "/nonexistent/perfgate/cxx");
  ScopedEnv path("PATH", "/nonexistent/perfgate/bin");
  EXPECT_EQ(real_host().compiler_version(), "none");
}

}  // namespace perfgate
