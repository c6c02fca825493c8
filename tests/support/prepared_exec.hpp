#pragma once
// perfgate's argv and environment, built before fork. A test process has threads (a fake
// forge's server, a store's pool): a child forked from it may only make async-signal-safe
// calls until it execs. setenv or a std::string in the child can wait forever on a lock
// (malloc's) that another thread held at the fork; under load it did, and a test hung.
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

namespace perfgate::testing {

class PreparedExec {
 public:
  /// `perfgate args...` with the test process's environment, NO_COLOR=1 and `env` (each
  /// replacing a variable of the same name; an empty value sets it empty).
  PreparedExec(const std::vector<std::string>& args,
               const std::map<std::string, std::string>& env) {
    args_.push_back(PERFGATE_BINARY);
    args_.insert(args_.end(), args.begin(), args.end());
    std::map<std::string, std::string> set = env;
    set.emplace("NO_COLOR", "1");
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string text = *entry;
      const std::string name = text.substr(0, text.find('='));
      if (set.count(name) == 0) env_.push_back(text);
    }
    for (const auto& [name, value] : set) env_.push_back(name + "=" + value);
    for (auto& arg : args_) argv_.push_back(arg.data());
    argv_.push_back(nullptr);
    for (auto& variable : env_) envp_.push_back(variable.data());
    envp_.push_back(nullptr);
  }

  /// In the forked child: only execve, then _exit(127) when it fails.
  [[noreturn]] void exec() const {
    ::execve(PERFGATE_BINARY, argv_.data(), envp_.data());
    ::_exit(127);
  }

 private:
  std::vector<std::string> args_;
  std::vector<std::string> env_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

}  // namespace perfgate::testing
