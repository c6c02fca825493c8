#pragma once
// Which project a command works in, and the project's store and results folder as seen from
// the current folder (docs/configs.md, "The project").
#include <filesystem>
#include <string>

#include "config/project_config.hpp"
#include "store/store.hpp"

namespace perfgate {

/// The project found from `start` upwards (locate_project), with the settings of `--project
/// FILE` when given (must exist), else of the project's perfgate.toml, else the built-in
/// defaults; outside any project, no root. Says on stderr which project was found when its
/// root is not the current folder.
ProjectConfig project_for(const std::string& project_flag, const std::filesystem::path& start);

/// When `project` has no perfgate.toml: the settings of the perfgate.toml found from `folder`
/// (a suite's or its records' folder), in the same project root. `project` otherwise.
ProjectConfig settings_of_suite_at(const std::filesystem::path& folder,
                                   const ProjectConfig& project);

/// Says on stderr "perfgate: project <root>" when the project's root is not the current
/// folder; once a process.
void announce_project(const ProjectConfig& project);

/// A path of the project as the user reaches it from the current folder: relative to it
/// (".perfgate/perfgate.db" in the root, "../.perfgate/perfgate.db" one folder down).
std::filesystem::path as_seen_from_here(const std::filesystem::path& path);

/// The store a command uses (choose_store), with relative sqlite:/dir: paths of perfgate.toml
/// and the default store taken from the project's root. Outside any project the default
/// store is marked so (StoreChoice::outside_project): it is not created without --init.
StoreChoice project_store(const std::string& flag, const ProjectConfig& project);

/// The URL of project_store.
std::string project_store_url(const std::string& flag, const ProjectConfig& project);

/// The raw records' folder: `flag` when given, else [run] results_dir of perfgate.toml, else
/// .perfgate/results in the project's root (in the current folder outside any project).
std::filesystem::path project_results_dir(const std::string& flag, const ProjectConfig& project);

}  // namespace perfgate
