#pragma once
// A machine described by fixed text, for tests of the host and software profiles: files by
// path, helper commands by their argv, everything else by field.
#include <map>
#include <string>
#include <vector>

#include "measure/host_profile.hpp"

namespace perfgate::testing {

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
  /// What each program prints, by argv[0]; a program not listed cannot be started.
  std::map<std::string, CommandOutput> programs;
  /// Every command run, with its folder, in order.
  mutable std::vector<std::pair<std::vector<std::string>, std::filesystem::path>> commands_run;
  /// Every file read, in order.
  mutable std::vector<std::string> files_read;

  std::string read_file(const std::string& path) const override {
    files_read.push_back(path);
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
  CommandOutput run_command(const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd) const override {
    commands_run.emplace_back(argv, cwd);
    const auto it = programs.find(argv.at(0));
    return it == programs.end() ? CommandOutput{} : it->second;
  }
};

}  // namespace perfgate::testing
