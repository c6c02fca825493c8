#include "measure/compiler_asked_ahead.hpp"

namespace perfgate {

CompilerAskedAhead::CompilerAskedAhead(const HostProbe& host)
    : host_(host),
      compiler_(std::async(std::launch::async, [&host] { return host.compiler_version(); })) {}

std::string CompilerAskedAhead::read_file(const std::string& path) const {
  return host_.read_file(path);
}
std::string CompilerAskedAhead::uname_machine() const {
  return host_.uname_machine();
}
std::string CompilerAskedAhead::uname_release() const {
  return host_.uname_release();
}
int CompilerAskedAhead::logical_cores() const {
  return host_.logical_cores();
}
std::string CompilerAskedAhead::libc_version() const {
  return host_.libc_version();
}
std::vector<GpuInfo> CompilerAskedAhead::gpus(std::string& note) const {
  return host_.gpus(note);
}
std::string CompilerAskedAhead::compiler_version() const {
  return compiler_.get();
}
CommandOutput CompilerAskedAhead::run_command(const std::vector<std::string>& argv,
                                              const std::filesystem::path& cwd) const {
  return host_.run_command(argv, cwd);
}

}  // namespace perfgate
