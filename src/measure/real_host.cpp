// The HostProbe of the machine perfgate runs on (Linux/glibc).
#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "measure/command_capture.hpp"
#include "measure/host_profile.hpp"
#include "measure/nvml.hpp"
#include "model/compact_json.hpp"

namespace perfgate {
namespace {

// Package listers read a database and exit; a minute means something hangs.
constexpr double kHelperTimeoutS = 60;

// $CXX cut into words where the shell cuts an unquoted variable (blanks and newlines), so
// "ccache g++" is a program and its argument. Nothing else in it is shell syntax.
std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  constexpr std::string_view kBlanks = " \t\n";
  for (std::size_t at = text.find_first_not_of(kBlanks); at != std::string_view::npos;) {
    const std::size_t end = text.find_first_of(kBlanks, at);
    out.emplace_back(text.substr(at, end - at));
    at = text.find_first_not_of(kBlanks, end);
  }
  return out;
}

class RealHost final : public HostProbe {
 public:
  std::string read_file(const std::string& path) const override {
    // /proc files report size 0, so read by streaming rather than by size.
    std::ifstream file(path, std::ios::binary);
    if (!file) return "";
    std::ostringstream contents;
    contents << file.rdbuf();
    return file.bad() ? "" : valid_utf8(contents.str());
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
    std::vector<GpuInfo> gpus = list_nvml_gpus(kNvmlLibrary, note);
    for (GpuInfo& gpu : gpus) gpu.name = valid_utf8(gpu.name);
    return gpus;
  }

  std::string compiler_version() const override {
    // Started directly, not through a shell: a shell is one more process to start, and on a
    // machine whose CPUs are busy every start waits for one.
    std::vector<std::vector<std::string>> compilers;
    if (const char* cxx = std::getenv("CXX"); cxx != nullptr) compilers.push_back(words(cxx));
    compilers.push_back({"c++"});
    for (auto& compiler : compilers) {
      if (auto line = version_line(std::move(compiler), kHelperTimeoutS); line && !line->empty())
        return valid_utf8(*line);
    }
    return "none";
  }

  CommandOutput run_command(const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd) const override {
    CommandOutput output = capture_command(argv, cwd, kHelperTimeoutS);
    output.out = valid_utf8(output.out);
    output.err = valid_utf8(output.err);
    return output;
  }

 private:
  template <std::size_t N>
  static std::string uname_field(char (utsname::*field)[N]) {
    utsname names{};
    if (uname(&names) != 0) return "unknown";
    return valid_utf8(names.*field);
  }
};

}  // namespace

const HostProbe& real_host() {
  static const RealHost host;
  return host;
}

}  // namespace perfgate
