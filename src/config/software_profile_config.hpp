#pragma once
// perfgate.toml [software_profile]: what the software profile of a run names beyond the
// OS, kernel, libc and compiler, so that a cohort changes exactly when one of them does.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/config_value.hpp"

namespace perfgate {

struct SoftwareProfileConfig {
  std::vector<std::string> dpkg_packages;  ///< packages: looked up in the dpkg database
  std::vector<std::string> pip_packages;   ///< pip_packages: looked up by `python`
  std::string python = "python3";          ///< python: the interpreter pip_packages belong to
  /// packages_command: run with /bin/sh -c in command_dir; prints `name version` lines or
  /// a JSON object {"name": "version"}. Empty when not set.
  std::string packages_command;
  std::filesystem::path command_dir;                    ///< the folder of perfgate.toml
  std::map<std::string, std::string> package_versions;  ///< package_versions: taken as written
  std::optional<std::string> image;                     ///< image: container image reference
  std::optional<std::string> profile_version;           ///< profile_version: bumped by hand
  std::string source;  ///< "perfgate.toml" path for messages; empty without one
};

/// Reads the [software_profile] table of the perfgate.toml in `project_dir`. Every key is
/// optional; unknown keys are errors with the nearest known key suggested.
SoftwareProfileConfig read_software_profile_config(const ConfigValue& value,
                                                   const std::filesystem::path& project_dir);

}  // namespace perfgate
