#pragma once
// What the runs of a suite need from the filesystem, checked before anything runs, so a
// missing build or a mistyped folder fails in a second instead of after an hour of runs.
#include <vector>

#include "config/benchmark_config.hpp"

namespace perfgate {

/// Checks every state in `states` and every hook of their configs:
///  - the working folder (BenchmarkConfig::working_folder) exists and is a folder;
///  - an argv program with a '/' (./build/sort) is an executable file, starting from the
///    working folder when relative;
///  - an argv program without one (sort) is found on the run's PATH (run_search_path);
///  - a shell command (a string) needs /bin/sh; its text is the shell's business.
/// Throws one Error listing every problem ("<file>: <key>: <reason>. <fix>", the key being
/// cwd, command[0], setup[0], ...), with kNoInput for a missing folder or program and
/// kDataError for one that is there but unusable (the first problem's code wins).
void check_commands_runnable(const std::vector<const BenchmarkState*>& states);

}  // namespace perfgate
