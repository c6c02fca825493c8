#include "config/program_lookup.hpp"

#include <unistd.h>

#include <cstdlib>

namespace perfgate {

std::string run_search_path(const std::map<std::string, std::string>& env) {
  if (const auto path = env.find("PATH"); path != env.end()) return path->second;
  if (const char* own = std::getenv("PATH")) return own;
  return "/bin:/usr/bin";
}

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::filesystem::path> find_program(std::string_view name,
                                                  std::string_view search_path,
                                                  const std::filesystem::path& cwd) {
  std::size_t start = 0;
  while (true) {
    const std::size_t end = search_path.find(':', start);
    const std::string_view entry = search_path.substr(start, end - start);
    const std::filesystem::path folder = entry.empty() ? cwd : cwd / entry;
    const std::filesystem::path candidate = (folder / name).lexically_normal();
    if (is_executable_file(candidate)) return candidate;
    if (end == std::string_view::npos) return std::nullopt;
    start = end + 1;
  }
}

}  // namespace perfgate
