#pragma once
// Where a command's program is: the file execvp would start, found the way a shell finds it.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

/// The PATH a run searches: the config's env PATH when it sets one, else perfgate's own,
/// else the C library's default ("/bin:/usr/bin").
std::string run_search_path(const std::map<std::string, std::string>& env);

/// The first executable regular file named `name` (no '/') in the folders of
/// `search_path`, as execvp looks; an empty entry means `cwd`, and a relative entry starts
/// there. nullopt when there is none.
std::optional<std::filesystem::path> find_program(std::string_view name,
                                                  std::string_view search_path,
                                                  const std::filesystem::path& cwd);

/// Whether `path` is a regular file this process may execute.
bool is_executable_file(const std::filesystem::path& path);

}  // namespace perfgate
