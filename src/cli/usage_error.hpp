#pragma once
// The message for a command line perfgate refuses (exit 64), in the words every other
// error uses: "perfgate: error: unknown command 'rn'; did you mean 'run'?". CLI11's own
// messages ("--upload: nevr not in {never,pass,always}") are rephrased where their shape
// is known, and every one gets the same prefix and a pointer to the right --help.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace perfgate {

/// Checked before parsing, since CLI11 reads an unknown command as a stray positional:
/// the error for the first word that should name a (sub)command and names none, e.g.
/// "unknown command 'rn'; did you mean 'run'?". nullopt when every command word is known.
std::optional<std::string> unknown_command_error(const CLI::App& app, int argc,
                                                 const char* const* argv);

/// The message for `error`, raised while `app` parsed the command line: which flag of
/// which command, what was wrong and, for a mistyped flag or value, the nearest known one.
std::string describe_usage_error(const CLI::App& app, const CLI::ParseError& error);

}  // namespace perfgate
