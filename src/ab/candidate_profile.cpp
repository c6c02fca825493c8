#include "ab/candidate_profile.hpp"

#include <fmt/format.h>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// Runs a short probe command; "" when it succeeded, otherwise why not.
std::string probe(Executor& executor, std::vector<std::string> argv) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.timeout_s = 30;
  const ProcessResult result = executor.run(spec);
  return result.succeeded() ? "" : result.reason();
}

CandidateProfile profiled_run(Executor& executor, ProcessSpec spec, std::string tool,
                              std::string path) {
  const ProcessResult result = executor.run(spec);
  CandidateProfile profile{std::move(tool), std::move(path), ""};
  profile.note = result.succeeded()
                     ? "profiled run ended: ok"
                     : "profiled run ended: " + result.reason() + " (the profile may be partial)";
  return profile;
}

}  // namespace

CandidateProfile profile_candidate(Executor& executor, const ProcessSpec& head,
                                   const fs::path& profile_dir, const std::string& scenario,
                                   const fs::path& log_path, double time_limit_s) {
  std::error_code ec;
  fs::create_directories(profile_dir, ec);
  if (ec) {
    return {"", "",
            fmt::format("no profile: cannot create {}: {}", profile_dir.string(), ec.message())};
  }
  ProcessSpec spec = head;
  spec.log_path = log_path;
  spec.timeout_s = time_limit_s;
  spec.kill_escapees = true;  // the head's daemons, as after each of its runs

  const std::string perf_problem = probe(executor, {"perf", "stat", "-e", "task-clock", "true"});
  if (perf_problem.empty()) {
    const std::string path = (profile_dir / (scenario + ".perf.data")).string();
    spec.argv = {"perf", "record", "-g", "-o", path, "--"};
    spec.argv.insert(spec.argv.end(), head.argv.begin(), head.argv.end());
    return profiled_run(executor, std::move(spec), "perf", path);
  }
  const std::string valgrind_problem = probe(executor, {"valgrind", "--version"});
  if (valgrind_problem.empty()) {
    const std::string path = (profile_dir / (scenario + ".callgrind.%p")).string();
    spec.argv = {"valgrind", "--tool=callgrind", "--trace-children=yes",
                 "--callgrind-out-file=" + path};
    spec.argv.insert(spec.argv.end(), head.argv.begin(), head.argv.end());
    return profiled_run(executor, std::move(spec), "callgrind", path);
  }
  return {"", "",
          fmt::format("no profile: perf does not work here (perf stat -e task-clock true: {}) "
                      "and valgrind does not either (valgrind --version: {})",
                      perf_problem, valgrind_problem)};
}

}  // namespace perfgate
