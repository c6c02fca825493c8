#pragma once
// Discovers and validates a whole suite before anything runs.
#include <filesystem>
#include <string>
#include <vector>

#include "config/benchmark_config.hpp"
#include "config/project_config.hpp"
#include "config/project_location.hpp"

namespace perfgate {

struct Suite {
  ProjectConfig project;
  std::vector<BenchmarkConfig> configs;  ///< sorted by source path, then benchmark_id
};

/// Loads one benchmark config (.json or .toml, decided by extension).
/// Error(kNoInput) for a missing or unreadable file; Error(kDataError) for anything
/// malformed: the message is "<file>: <key.path>: <reason>. <fix>".
/// `project` supplies [run] defaults for settings the file does not set.
BenchmarkConfig load_benchmark_config(const std::filesystem::path& file,
                                      const ProjectConfig& project = {});

/// Loads every config named by `paths`: a file is loaded as is; a folder contributes
/// every *.json and *.toml below it (recursively; perfgate.toml, hidden entries and
/// folders named worker_logs/results are skipped). perfgate.toml is looked up from the
/// first path (see find_project_config), unless `project` names the project (found from the
/// current folder by `perfgate run`). Every file is validated; the errors of all
/// files are collected and thrown together as one Error (code of the first error).
/// Duplicate benchmark_ids across the suite are an error. An empty suite is an error.
Suite load_suite(const std::vector<std::filesystem::path>& paths,
                 const std::optional<ProjectLocation>& project = std::nullopt);

}  // namespace perfgate
