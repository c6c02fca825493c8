// load_suite: discover a suite's config files, validate all of them, report every error.
#include "config/suite_loader.hpp"
#include "model/natural_order.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "config/error_list.hpp"
#include "model/path_within.hpp"

namespace perfgate {
namespace {

bool is_config_file(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  return (extension == ".json" || extension == ".toml") && path.filename() != "perfgate.toml";
}

// Folders of run output hold *.json that are records, not configs.
bool is_skipped_folder(const std::filesystem::path& folder, const ProjectConfig& project) {
  const std::string name = folder.filename().string();
  if (name == "worker_logs" || name == "results") return true;
  return project.results_dir &&
         std::filesystem::absolute(folder).lexically_normal() == *project.results_dir;
}

std::vector<std::filesystem::path> discover(const std::filesystem::path& folder,
                                            const ProjectConfig& project) {
  std::vector<std::filesystem::path> files;
  try {
    std::filesystem::recursive_directory_iterator it(folder);
    for (const auto end = std::filesystem::recursive_directory_iterator(); it != end; ++it) {
      const std::filesystem::path& path = it->path();
      const bool hidden = path.filename().string().starts_with(".");
      if (it->is_directory()) {
        if (hidden || is_skipped_folder(path, project)) it.disable_recursion_pending();
      } else if (!hidden && it->is_regular_file() && is_config_file(path)) {
        files.push_back(path);
      }
    }
  } catch (const std::filesystem::filesystem_error& error) {
    throw Error(ExitCode::kIoError, error.path1().string() + ": cannot list the folder (" +
                                        error.code().message() + "). Check its permissions");
  }
  return files;
}

std::filesystem::path project_search_start(const std::filesystem::path& first) {
  std::error_code ec;
  if (std::filesystem::is_directory(first, ec)) return first;
  return first.has_parent_path() ? first.parent_path() : std::filesystem::path(".");
}

}  // namespace

Suite load_suite(const std::vector<std::filesystem::path>& paths,
                 const std::optional<ProjectLocation>& project) {
  if (paths.empty()) {
    throw Error(ExitCode::kUsage, "no suite given. Name a config file or a folder of configs");
  }
  Suite suite;
  ErrorList errors;
  if (project && project->config) {
    errors.check([&] { suite.project = load_project_config(*project->config); });
  } else if (auto project_file = find_project_config(project_search_start(paths.front()))) {
    // The suite's own perfgate.toml, unless it belongs to another project than the one
    // perfgate was started in (another checkout's config measures this checkout's build).
    if (!project || path_within(*project_file, project->root)) {
      errors.check([&] { suite.project = load_project_config(*project_file); });
    }
  }
  if (project) suite.project.root = project->root;

  std::vector<std::filesystem::path> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      std::vector<std::filesystem::path> found;
      if (!errors.check([&] { found = discover(path, suite.project); })) continue;
      if (found.empty()) {
        errors.add(Error(ExitCode::kNoInput, "no benchmark configs (*.json, *.toml) found in " +
                                                 path.string() +
                                                 ". Add a config or name another folder"));
      }
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(path, ec)) {
      files.push_back(path);
    } else {
      errors.add(
          Error(ExitCode::kNoInput, path.string() + ": no such file or folder. Check the path"));
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return natural_less(a.string(), b.string()); });

  std::set<std::filesystem::path> seen;  // a file named twice (file + its folder) loads once
  std::map<std::string, std::filesystem::path> id_owner;
  for (const auto& file : files) {
    std::error_code ec;
    if (!seen.insert(std::filesystem::weakly_canonical(file, ec)).second) continue;
    errors.check([&] {
      BenchmarkConfig config = load_benchmark_config(file, suite.project);
      const auto [owner, inserted] = id_owner.emplace(config.benchmark_id, file);
      if (!inserted) {
        throw Error(ExitCode::kDataError,
                    file.string() + ": benchmark_id: '" + config.benchmark_id +
                        "' is already used by " + owner->second.string() +
                        ". Give every benchmark in a suite its own benchmark_id");
      }
      suite.configs.push_back(std::move(config));
    });
  }
  errors.throw_if_any();
  std::sort(suite.configs.begin(), suite.configs.end(), [](const auto& a, const auto& b) {
    return a.source != b.source ? natural_less(a.source.string(), b.source.string())
                                : natural_less(a.benchmark_id, b.benchmark_id);
  });
  return suite;
}

}  // namespace perfgate
