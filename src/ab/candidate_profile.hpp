#pragma once
// One extra run of a regressed head under a profiler, excluded from the comparison
// (SPEC §7): `perf record -g` where perf works on this machine (checked with
// `perf stat -e task-clock true`), otherwise `valgrind --tool=callgrind`, each under a
// time limit. When neither works, the result says why instead of a path.
#include <filesystem>
#include <string>

#include "ab/ab_results.hpp"
#include "measure/executor.hpp"

namespace perfgate {

/// Profiles `head` (its argv, cwd and env), writing DIR/profile/<scenario>.perf.data or
/// DIR/profile/<scenario>.callgrind.<pid>, and the profiled run's output to `log_path`.
/// `time_limit_s` bounds the profiled run. Never throws for a profiler that fails.
CandidateProfile profile_candidate(Executor& executor, const ProcessSpec& head,
                                   const std::filesystem::path& profile_dir,
                                   const std::string& scenario,
                                   const std::filesystem::path& log_path, double time_limit_s);

}  // namespace perfgate
