// The HostProbe of the machine perfgate runs on (Linux/glibc).
#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "measure/command_capture.hpp"
#include "measure/host_profile.hpp"
#include "measure/nvml.hpp"

namespace perfgate {
namespace {

// Package listers read a database and exit; a minute means something hangs.
constexpr double kHelperTimeoutS = 60;

// The first line a shell command prints on stdout, or "" when it fails or prints nothing.
std::string first_output_line(const std::string& command) {
  const auto close = [](std::FILE* f) { return pclose(f); };
  std::unique_ptr<std::FILE, decltype(close)> pipe(popen(command.c_str(), "r"), close);
  if (!pipe) return "";
  // Read everything so the child never dies of SIGPIPE; `--version` output is short.
  std::string output;
  char buffer[4096];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) {
    if (output.size() < (1 << 16)) output.append(buffer, got);
  }
  const int status = pclose(pipe.release());
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return "";
  return output.substr(0, output.find('\n'));
}

class RealHost final : public HostProbe {
 public:
  std::string read_file(const std::string& path) const override {
    // /proc files report size 0, so read by streaming rather than by size.
    std::ifstream file(path, std::ios::binary);
    if (!file) return "";
    std::ostringstream contents;
    contents << file.rdbuf();
    return file.bad() ? "" : contents.str();
  }

  std::string uname_machine() const override { return uname_field(&utsname::machine); }
  std::string uname_release() const override { return uname_field(&utsname::release); }

  int logical_cores() const override {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<int>(online) : 1;
  }

  std::string libc_version() const override {
    return std::string("glibc ") + gnu_get_libc_version();
  }

  std::vector<GpuInfo> gpus(std::string& note) const override {
    return list_nvml_gpus(kNvmlLibrary, note);
  }

  std::string compiler_version() const override {
    // The shell expands $CXX itself, so "ccache g++" works and the value is never
    // re-parsed as shell syntax.
    const char* cxx = std::getenv("CXX");
    if (cxx != nullptr && *cxx != '\0') {
      if (std::string line = first_output_line("${CXX} --version 2>/dev/null"); !line.empty()) {
        return line;
      }
    }
    if (std::string line = first_output_line("c++ --version 2>/dev/null"); !line.empty()) {
      return line;
    }
    return "none";
  }

  CommandOutput run_command(const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd) const override {
    return capture_command(argv, cwd, kHelperTimeoutS);
  }

 private:
  template <std::size_t N>
  static std::string uname_field(char (utsname::*field)[N]) {
    utsname names{};
    if (uname(&names) != 0) return "unknown";
    return names.*field;
  }
};

}  // namespace

const HostProbe& real_host() {
  static const RealHost host;
  return host;
}

}  // namespace perfgate
