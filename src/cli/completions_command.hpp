#pragma once
// `perfgate completions bash|zsh`: shell completion scripts written from the command
// line's own definition, so they never miss a command or flag. The build runs it to make the
// files `cmake --install` puts where bash-completion and zsh look for them.
#include <CLI/CLI.hpp>
#include <string>

namespace perfgate {

struct CompletionsOptions {
  std::string shell;
};

/// Adds the `completions` subcommand to `app`.
CLI::App* add_completions_command(CLI::App& app, CompletionsOptions& options);

/// The completion script for `shell` ("bash" or "zsh") covering every command of `app`.
std::string completion_script(const CLI::App& app, const std::string& shell);

}  // namespace perfgate
