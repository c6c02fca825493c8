#include "cli/project_lookup.hpp"

namespace perfgate {

ProjectConfig project_for(const std::string& project_flag, const std::filesystem::path& start) {
  if (!project_flag.empty()) return load_project_config(project_flag);
  if (const auto found = find_project_config(start)) return load_project_config(*found);
  return ProjectConfig{};
}

}  // namespace perfgate
