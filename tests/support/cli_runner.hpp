#pragma once
// Runs the real perfgate binary for end-to-end tests and captures what it printed.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/prepared_exec.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `perfgate args...` in `cwd` with `env` added to the environment; NO_COLOR is set so
/// the output is plain text.
inline CliResult run_perfgate(const std::vector<std::string>& args,
                              const std::filesystem::path& cwd,
                              const std::map<std::string, std::string>& env = {}) {
  TempDir capture;
  const auto out_path = capture / "stdout";
  const auto err_path = capture / "stderr";
  const PreparedExec perfgate(args, env);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    perfgate.exec();
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text_file(out_path);
  result.err = read_text_file(err_path);
  return result;
}

}  // namespace perfgate::testing
