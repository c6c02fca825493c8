#pragma once
// A git repository a test builds with the git command line, so that what perfgate reads with
// libgit2 is checked against what git itself wrote. git runs without a shell, without the
// user's or the system's configuration, and with fixed dates, so every SHA is reproducible.
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace perfgate::testing {

/// A git repository a test builds itself, with the git command line; commit times are fixed
/// (1,700,000,000 + 60 s per commit made through it) so SHAs are reproducible: the first
/// commit() or merge() is dated 1,700,000,000, the next one 1,700,000,060, and so on.
class GitFixture {
 public:
  /// Creates `dir` if needed and runs `git init -b main` there, with a local user.name and
  /// user.email. An empty .git folder already there (TempDir makes one) is replaced.
  explicit GitFixture(const std::filesystem::path& dir) : dir_(dir) {
    std::filesystem::create_directories(dir_);
    const std::filesystem::path dot_git = dir_ / ".git";
    if (std::filesystem::is_directory(dot_git) && std::filesystem::is_empty(dot_git)) {
      std::filesystem::remove(dot_git);
    }
    git({"init", "-q", "-b", "main"});
    git({"config", "user.name", "perfgate test"});
    git({"config", "user.email", "test@perfgate.invalid"});
  }

  const std::filesystem::path& dir() const { return dir_; }

  /// Writes each file (path relative to dir -> content; parent folders created), stages
  /// everything (git add -A), commits (even when nothing changed); returns the new HEAD sha.
  std::string commit(const std::map<std::string, std::string>& files, const std::string& message) {
    for (const auto& [path, content] : files) {
      const std::filesystem::path file = dir_ / path;
      std::filesystem::create_directories(file.parent_path());
      std::ofstream(file, std::ios::binary | std::ios::trunc) << content;
    }
    git({"add", "-A"});
    git({"commit", "-q", "--allow-empty", "-m", message});
    ++commits_;
    return rev("HEAD");
  }

  /// Deletes a file (or folder) from the work tree; the deletion is staged by the next commit().
  void remove(const std::string& path) { std::filesystem::remove_all(dir_ / path); }

  /// git checkout (with -b when `create`) `branch`.
  void checkout(const std::string& branch, bool create = false) {
    if (create) {
      git({"checkout", "-q", "-b", branch});
    } else {
      git({"checkout", "-q", branch});
    }
  }

  /// git merge --no-ff -m `message` `branch`; returns the new HEAD sha.
  std::string merge(const std::string& branch, const std::string& message) {
    git({"merge", "-q", "--no-ff", "-m", message, branch});
    ++commits_;
    return rev("HEAD");
  }

  /// Runs git with these arguments in dir() (with the fixed dates in the environment);
  /// returns stdout without the trailing newline. std::runtime_error with stderr when git
  /// fails.
  std::string git(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"git", "-c", "commit.gpgsign=false", "-c",
                                     "init.defaultBranch=main"};
    argv.insert(argv.end(), args.begin(), args.end());
    const Output output = run(argv);
    if (output.status != 0) {
      std::string command;
      for (const std::string& arg : argv) command += (command.empty() ? "" : " ") + arg;
      throw std::runtime_error(command + " failed in " + dir_.string() + ": " + output.err);
    }
    std::string text = output.out;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }

  /// The sha of a revision (git rev-parse --verify).
  std::string rev(const std::string& revision) { return git({"rev-parse", "--verify", revision}); }

 private:
  struct Output {
    int status = -1;
    std::string out;
    std::string err;
  };

  /// The environment git runs with: this process's, less anything that would point git
  /// elsewhere, plus the fixed dates and an empty configuration outside the repository.
  std::vector<std::string> environment() const {
    std::vector<std::string> env;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string variable = *entry;
      const bool git_own = variable.rfind("GIT_", 0) == 0;
      const bool replaced = variable.rfind("HOME=", 0) == 0 ||
                            variable.rfind("XDG_CONFIG_HOME=", 0) == 0 ||
                            variable.rfind("LC_ALL=", 0) == 0;
      if (!git_own && !replaced) env.push_back(variable);
    }
    const std::string date = "@" + std::to_string(1'700'000'000 + 60 * commits_) + " +0000";
    const std::filesystem::path home = dir_.parent_path();
    env.push_back("GIT_AUTHOR_DATE=" + date);
    env.push_back("GIT_COMMITTER_DATE=" + date);
    env.push_back("GIT_CONFIG_NOSYSTEM=1");
    env.push_back("GIT_CONFIG_GLOBAL=/dev/null");
    env.push_back("HOME=" + home.string());
    env.push_back("XDG_CONFIG_HOME=" + (home / ".perfgate-test-no-config").string());
    env.push_back("LC_ALL=C");
    return env;
  }

  Output run(const std::vector<std::string>& argv) const {
    std::vector<std::string> env = environment();
    std::vector<char*> c_argv;
    for (const std::string& arg : argv) c_argv.push_back(const_cast<char*>(arg.c_str()));
    c_argv.push_back(nullptr);
    std::vector<char*> c_env;
    for (std::string& variable : env) c_env.push_back(variable.data());
    c_env.push_back(nullptr);

    int out_pipe[2];
    int err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
      ::close(out_pipe[0]);
      ::close(out_pipe[1]);
      throw std::runtime_error("pipe failed");
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(out_pipe[1], STDOUT_FILENO);
      ::dup2(err_pipe[1], STDERR_FILENO);
      if (::chdir(dir_.c_str()) != 0) ::_exit(126);
      ::execvpe("git", c_argv.data(), c_env.data());
      ::_exit(127);
    }
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    Output output;
    if (pid < 0) {
      ::close(out_pipe[0]);
      ::close(err_pipe[0]);
      throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    }
    // Both pipes at once, so that a chatty stderr cannot block git while we wait on stdout.
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&output.out, &output.err};
    int open_pipes = 2;
    while (open_pipes > 0) {
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0 || fds[i].revents == 0) continue;
        char buffer[4096];
        const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
        if (n > 0) {
          sinks[i]->append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          ::close(fds[i].fd);
          fds[i].fd = -1;
          --open_pipes;
        }
      }
    }
    for (const pollfd& fd : fds) {
      if (fd.fd >= 0) ::close(fd.fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    output.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (output.status == 127) output.err = "cannot run git (is it installed?) " + output.err;
    return output;
  }

  std::filesystem::path dir_;
  int commits_ = 0;
};

}  // namespace perfgate::testing
