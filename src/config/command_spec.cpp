#include <algorithm>
#include <cctype>

#include "config/benchmark_config.hpp"
#include "config/config_sections.hpp"

namespace perfgate {

std::vector<std::string> CommandSpec::to_argv() const {
  if (shell) return {"/bin/sh", "-c", script};
  return argv;
}

Json CommandSpec::to_json() const {
  if (shell) return script;
  return argv;
}

CommandSpec read_command(const ConfigValue& value) {
  CommandSpec command;
  if (value.kind() == ConfigNode::Kind::kString) {
    command.shell = true;
    command.script = value.string();
    const bool blank = std::all_of(command.script.begin(), command.script.end(),
                                   [](unsigned char c) { return std::isspace(c) != 0; });
    if (blank) {
      throw value.error("must not be an empty string",
                        "Write the shell command to run, or use an array such as "
                        "[\"./bench\", \"--size\", \"10\"]");
    }
    return command;
  }
  if (value.kind() != ConfigNode::Kind::kArray) {
    throw value.type_error("an array of strings (argv) or a string (shell command)");
  }
  const std::vector<ConfigValue> items = value.items();
  if (items.empty()) {
    throw value.error("must not be an empty array",
                      "List the program and its arguments, e.g. [\"./bench\", \"--size\", \"10\"]");
  }
  for (const auto& item : items) command.argv.push_back(item.non_empty_string());
  return command;
}

}  // namespace perfgate
