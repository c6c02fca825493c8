#include "measure/package_versions.hpp"

#include <sstream>

#include "model/error.hpp"
#include "model/json.hpp"

namespace perfgate {
namespace {

// Prints `name version` for each name given; Python 3.8+ ships importlib.metadata.
constexpr const char* kVersionScript =
    "import sys\n"
    "from importlib import metadata\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        print(name, metadata.version(name))\n"
    "    except metadata.PackageNotFoundError:\n"
    "        print(name, 'not-installed')\n";

std::string last_line(const std::string& text) {
  std::string line;
  std::istringstream lines(text);
  for (std::string next; std::getline(lines, next);) {
    if (next.find_first_not_of(" \t\r") != std::string::npos) line = next;
  }
  return line;
}

// "exit status 3: ModuleNotFoundError: ..." / "killed or timed out".
std::string why_it_failed(const CommandOutput& output) {
  if (output.exit_status < 0) return "it was killed or ran out of time";
  std::string why = "exit status " + std::to_string(output.exit_status);
  if (const std::string line = last_line(output.err); !line.empty()) why += ": " + line;
  return why;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::optional<PackageVersions> parse_json_list(const std::string& text, std::string& problem) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    problem = "it starts with '{' but is not a JSON object";
    return std::nullopt;
  }
  PackageVersions versions;
  for (const auto& [name, version] : j.items()) {
    if (!version.is_string() || version.get<std::string>().empty()) {
      problem = "the version of \"" + name + "\" is not a non-empty string";
      return std::nullopt;
    }
    versions[name] = version.get<std::string>();
  }
  return versions;
}

}  // namespace

PackageVersions pip_versions(const HostProbe& host, const SoftwareProfileConfig& config,
                             std::vector<std::string>& notes) {
  PackageVersions versions;
  const std::vector<std::string>& names = config.pip_packages;
  if (names.empty()) return versions;
  const std::string& python = config.python;
  std::vector<std::string> argv{python, "-c", kVersionScript};
  argv.insert(argv.end(), names.begin(), names.end());
  const CommandOutput output = host.run_command(argv, config.command_dir);
  std::string problem;
  std::optional<PackageVersions> listed;
  if (output.started && output.exit_status == 0) listed = parse_package_list(output.out, problem);
  for (const auto& name : names) {
    std::string version = "unknown";
    if (listed) {
      if (const auto found = listed->find(name); found != listed->end()) version = found->second;
    }
    versions[name] = version;
  }
  if (!listed) {
    const std::string why = !output.started ? python + " could not be started"
                            : output.exit_status != 0
                                ? python + " failed (" + why_it_failed(output) + ")"
                                : python + " printed no versions (" + problem + ")";
    notes.push_back(why + ", so pip_packages (" + joined(names) +
                    ") are recorded as \"unknown\". Install Python 3.8 or later, or name the "
                    "interpreter with [software_profile] python in perfgate.toml");
  }
  return versions;
}

PackageVersions command_versions(const HostProbe& host, const SoftwareProfileConfig& config) {
  const auto fail = [&](const std::string& why) {
    return Error(ExitCode::kDataError,
                 config.source + ": software_profile.packages_command: " + why +
                     ". Make the command print `name version` lines or a JSON object of "
                     "name to version, or remove the key");
  };
  const CommandOutput output =
      host.run_command({"/bin/sh", "-c", config.packages_command}, config.command_dir);
  if (!output.started) throw fail("/bin/sh could not be started");
  if (output.exit_status != 0) throw fail("the command failed with " + why_it_failed(output));
  std::string problem;
  std::optional<PackageVersions> versions = parse_package_list(output.out, problem);
  if (!versions) throw fail("it printed something that is not a package list: " + problem);
  return *versions;
}

std::optional<PackageVersions> parse_package_list(const std::string& text, std::string& problem) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') return parse_json_list(text, problem);
  PackageVersions versions;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::istringstream words(line);
    std::string name, version, extra;
    if (!(words >> name) || name.starts_with('#')) continue;
    if (!(words >> version) || (words >> extra)) {
      problem = "line " + std::to_string(number) + " \"" + line + "\" is not `name version`";
      return std::nullopt;
    }
    versions[name] = version;
  }
  return versions;
}

}  // namespace perfgate
