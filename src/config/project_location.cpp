#include "config/project_location.hpp"

namespace perfgate {

namespace fs = std::filesystem;

std::optional<ProjectLocation> locate_project(const fs::path& start) {
  fs::path folder = fs::absolute(start).lexically_normal();
  if (folder.filename().empty()) folder = folder.parent_path();  // "a/b/" -> "a/b"
  const fs::path first = folder;
  std::error_code ec;
  while (true) {
    if (fs::is_regular_file(folder / "perfgate.toml", ec)) {
      return ProjectLocation{folder, folder / "perfgate.toml"};
    }
    if (fs::exists(folder / ".git", ec)) {
      if (folder == first || fs::is_directory(folder / ".perfgate", ec)) {
        return ProjectLocation{folder, std::nullopt};
      }
      break;
    }
    if (folder == folder.parent_path()) break;
    folder = folder.parent_path();
  }
  if (fs::is_directory(first / ".perfgate", ec)) return ProjectLocation{first, std::nullopt};
  return std::nullopt;
}

}  // namespace perfgate
