#pragma once
// Which project a command works in (docs/configs.md, "The project"): found from a folder
// upward as git finds its repository. The store, the results, the default suite and the
// folder measured commands run in are all the project's, wherever in it perfgate starts.
#include <filesystem>
#include <optional>

namespace perfgate {

struct ProjectLocation {
  std::filesystem::path root;                   ///< absolute, normalised
  std::optional<std::filesystem::path> config;  ///< root/perfgate.toml, when there is one
};

/// From `start` (a folder) upward: the first folder that holds a perfgate.toml. The search
/// stops at a repository root (a folder with a .git entry): a perfgate.toml above it belongs
/// to someone else. Without a perfgate.toml, the repository root if it holds a .perfgate/
/// folder or is `start` itself, else `start` if it holds a .perfgate/ folder (a project
/// outside git). nullopt otherwise.
std::optional<ProjectLocation> locate_project(const std::filesystem::path& start);

}  // namespace perfgate
