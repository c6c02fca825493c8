#pragma once
// What every state of one measuring invocation shares: the host's provenance, the local
// git commit, the file stamp. `run` and `compare --confirm` measure with it.
#include <string>

#include "config/suite_loader.hpp"
#include "measure/benchmark_runner.hpp"

namespace perfgate {

/// Describes this machine for `suite`'s records, printing notes (a busy machine, software
/// profile notes, GPUs asked for and not found) on stderr. `run_source_flag` is --run-source
/// ("" infers it from CI variables).
RunEnvironment describe_run_environment(const Suite& suite, const std::string& run_source_flag);

}  // namespace perfgate
