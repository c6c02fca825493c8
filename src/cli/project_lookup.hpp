#pragma once
// Which perfgate.toml a command that is not given a suite uses.
#include <filesystem>
#include <string>

#include "config/project_config.hpp"

namespace perfgate {

/// `--project FILE` when given (must exist); else the perfgate.toml found from `start`
/// upwards (see find_project_config); else the built-in defaults.
ProjectConfig project_for(const std::string& project_flag, const std::filesystem::path& start);

}  // namespace perfgate
