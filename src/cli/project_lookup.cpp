#include "cli/project_lookup.hpp"

#include <iostream>

#include "config/project_location.hpp"

namespace perfgate {

namespace fs = std::filesystem;

fs::path as_seen_from_here(const fs::path& path) {
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  if (ec || path.is_relative()) return path;
  const fs::path relative = path.lexically_normal().lexically_relative(here);
  return relative.empty() ? path : relative;
}

void announce_project(const ProjectConfig& project) {
  static bool announced = false;
  std::error_code ec;
  if (announced || !project.root || fs::equivalent(*project.root, fs::current_path(ec), ec)) {
    return;
  }
  announced = true;
  std::cerr << "perfgate: project " << project.root->string() << " ("
            << (project.source ? "its perfgate.toml" : "its .perfgate/ folder")
            << "): its store, results and suite are used from here\n";
}

ProjectConfig project_for(const std::string& project_flag, const fs::path& start) {
  ProjectConfig project;
  const auto here = locate_project(start);
  if (!project_flag.empty()) {
    project = load_project_config(project_flag);
  } else if (here && here->config) {
    project = load_project_config(*here->config);
  }
  if (here) project.root = here->root;
  announce_project(project);
  return project;
}

ProjectConfig settings_of_suite_at(const fs::path& folder, const ProjectConfig& project) {
  if (project.source) return project;
  ProjectConfig settings;
  if (const auto found = find_project_config(folder)) settings = load_project_config(*found);
  settings.root = project.root;
  return settings;
}

namespace {

/// A relative sqlite:/dir: path of the project's is relative to its root.
std::string in_project(const std::string& url, const ProjectConfig& project) {
  const auto path = store_local_path(url);
  if (!project.root || !path || path->is_absolute()) return url;
  return url.substr(0, url.find(':') + 1) + as_seen_from_here(*project.root / *path).string();
}

}  // namespace

StoreChoice project_store(const std::string& flag, const ProjectConfig& project) {
  std::optional<std::string> project_url;
  if (project.store_url) project_url = in_project(*project.store_url, project);
  StoreChoice choice = choose_store(flag, project_url);
  if (choice.is_default) {
    if (project.root) {
      choice.url = in_project(choice.url, project);
    } else {
      choice.outside_project = true;
    }
  }
  return choice;
}

std::string project_store_url(const std::string& flag, const ProjectConfig& project) {
  return project_store(flag, project).url;
}

fs::path project_results_dir(const std::string& flag, const ProjectConfig& project) {
  if (!flag.empty()) return flag;
  if (project.results_dir) return as_seen_from_here(*project.results_dir);
  const fs::path default_dir = fs::path(".perfgate") / "results";
  return project.root ? as_seen_from_here(*project.root / default_dir) : default_dir;
}

}  // namespace perfgate
