#include "config/command_check.hpp"

#include <set>
#include <string>

#include "config/error_list.hpp"
#include "config/program_lookup.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

constexpr const char* kShell = "/bin/sh";

class CommandCheck {
 public:
  explicit CommandCheck(const BenchmarkConfig& config) : config_(config) {}

  /// False when the working folder is unusable: programs cannot be looked up from it.
  bool working_folder(std::vector<Error>& errors) const {
    const fs::path& folder = config_.working_folder();
    std::error_code ec;
    if (!fs::exists(folder, ec)) {
      errors.push_back(
          problem(ExitCode::kNoInput, "cwd", "folder " + folder.string() + " does not exist",
                  "Create it, or fix cwd (a relative cwd starts from the config's folder)"));
      return false;
    }
    if (!fs::is_directory(folder, ec)) {
      errors.push_back(problem(ExitCode::kDataError, "cwd", folder.string() + " is not a folder",
                               "Point cwd at a folder"));
      return false;
    }
    return true;
  }

  /// `label` prefixes the reason when the command differs per state (a placeholder in it).
  void command(const CommandSpec& command, const std::string& key,
               const std::map<std::string, std::string>& env, const std::string& label,
               std::vector<Error>& errors) const {
    if (command.shell) {
      if (!is_executable_file(kShell)) {
        errors.push_back(
            problem(ExitCode::kNoInput, key,
                    std::string("a string runs with ") + kShell + ", which is missing",
                    "Write the command as an argv array, e.g. [\"./bench\", \"--fast\"]"));
      }
      return;
    }
    const std::string& program = command.argv.front();
    const std::string program_key = key + "[0]";
    if (program.find('/') == std::string::npos) {
      const std::string search_path = run_search_path(env);
      if (!find_program(program, search_path, config_.working_folder())) {
        const std::string whose = env.contains("PATH") ? "the config's env PATH" : "PATH";
        errors.push_back(
            problem(ExitCode::kNoInput, program_key,
                    label + "'" + program + "' is not found on " + whose + " (" + search_path + ")",
                    "Install it, fix the name, or give its path, e.g. ./" + program));
      }
      return;
    }
    const fs::path resolved = (config_.working_folder() / program).lexically_normal();
    std::error_code ec;
    if (!fs::exists(resolved, ec)) {
      errors.push_back(problem(ExitCode::kNoInput, program_key,
                               label + resolved.string() + " does not exist",
                               "Build it or fix the path; a relative program path starts from the "
                               "working folder " +
                                   config_.working_folder().string() + where_folder_comes_from()));
    } else if (fs::is_directory(resolved, ec)) {
      errors.push_back(problem(ExitCode::kDataError, program_key,
                               label + resolved.string() + " is a folder, not a program",
                               "Name the program file"));
    } else if (!is_executable_file(resolved)) {
      errors.push_back(problem(ExitCode::kDataError, program_key,
                               label + resolved.string() + " is not executable",
                               "Make it executable (chmod +x " + resolved.string() +
                                   ") or start it through its interpreter"));
    }
  }

 private:
  Error problem(ExitCode code, const std::string& key, const std::string& reason,
                const std::string& fix) const {
    return Error(code, config_.source.string() + ": " + key + ": " + reason + ". " + fix);
  }

  std::string where_folder_comes_from() const {
    return config_.cwd ? " (cwd)"
                       : " (the folder of perfgate.toml, else the one perfgate was started in; "
                         "set cwd to change it)";
  }

  const BenchmarkConfig& config_;
};

}  // namespace

void check_commands_runnable(const std::vector<const BenchmarkState*>& states) {
  std::vector<Error> problems;
  std::set<const BenchmarkConfig*> configs_seen;
  for (const BenchmarkState* state : states) {
    const BenchmarkConfig& config = *state->config;
    const CommandCheck check(config);
    const bool first_of_config = configs_seen.insert(&config).second;
    if (!check.working_folder(problems)) continue;
    const bool own_program =
        !config.command.shell && state->command.argv.front() != config.command.argv.front();
    check.command(state->command, "command", state->env,
                  own_program ? "for state " + state->name + ", " : "", problems);
    if (!first_of_config) continue;
    const std::pair<const char*, const std::optional<CommandSpec>*> hooks[] = {
        {"setup", &config.setup},
        {"prepare", &config.prepare},
        {"conclude", &config.conclude},
        {"cleanup", &config.cleanup}};
    for (const auto& [key, hook] : hooks) {
      if (*hook) check.command(**hook, key, state->env, "", problems);
    }
  }
  // Parameter states share the config's folder and usually its program: each problem is
  // reported once.
  ErrorList errors;
  std::set<std::string> reported;
  for (const Error& problem : problems) {
    if (reported.insert(problem.what()).second) errors.add(problem);
  }
  errors.throw_if_any();
}

}  // namespace perfgate
