#pragma once
// Running a short helper command (a Python interpreter, a project's package lister) and
// keeping what it prints: the platform half of HostProbe::run_command.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "measure/host_profile.hpp"

namespace perfgate {

/// Runs argv (argv[0] looked up in PATH) in `cwd` (this folder when empty) with stdin from
/// /dev/null, keeping up to 1 MiB each of stdout and stderr. A command still running after
/// `timeout_s` has its process group killed and reports exit_status -1, so a hung helper
/// cannot hang `perfgate run`. Never throws.
CommandOutput capture_command(const std::vector<std::string>& argv,
                              const std::filesystem::path& cwd, double timeout_s);

/// The first line that `program --version` prints on stdout (argv[0] looked up in PATH, any
/// arguments of `program` before --version), or nullopt when it cannot be started, fails or
/// outlasts `timeout_s`.
std::optional<std::string> version_line(std::vector<std::string> program, double timeout_s);

}  // namespace perfgate
