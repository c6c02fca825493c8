#pragma once
// Package versions for the software profile from sources other than dpkg: a Python
// interpreter's installed distributions and a command of the project's own.
#include <optional>
#include <string>
#include <vector>

#include "config/software_profile_config.hpp"
#include "measure/host_profile.hpp"

namespace perfgate {

/// Versions of config.pip_packages as config.python sees them from config.command_dir
/// (importlib.metadata, which reads what pip installed): "not-installed" for a package
/// that is absent. When Python cannot be started or fails, every package is "unknown" and
/// `notes` says why; never an error, because a machine without Python still measures.
/// Runs nothing when there are no pip_packages.
PackageVersions pip_versions(const HostProbe& host, const SoftwareProfileConfig& config,
                             std::vector<std::string>& notes);

/// Runs config.packages_command with /bin/sh -c in config.command_dir and reads the list
/// it prints. Error(kDataError) naming the key when the command cannot start, exits
/// non-zero or prints something that is not a package list.
PackageVersions command_versions(const HostProbe& host, const SoftwareProfileConfig& config);

/// A package list: a JSON object {"name": "version", ...}, or one `name version` per line
/// (blank lines and lines starting with '#' are skipped). nullopt with `problem` set when
/// the text is neither.
std::optional<PackageVersions> parse_package_list(const std::string& text, std::string& problem);

}  // namespace perfgate
