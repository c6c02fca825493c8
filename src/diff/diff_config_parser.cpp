// The strict reader of diff config files: anything it does not know is an error naming
// the key path and the fix, because a misspelt threshold that is silently ignored would
// change verdicts without anyone noticing.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "config/config_document.hpp"
#include "config/config_value.hpp"
#include "config/error_list.hpp"
#include "config/key_suggestion.hpp"
#include "diff/diff_config.hpp"
#include "diff/threshold_keys.hpp"
#include "model/error.hpp"

namespace perfgate::diff {
namespace {

using Kind = ConfigNode::Kind;

constexpr int kSupportedVersion = 1;

std::string found_kind(const ConfigValue& value) {
  return describe_kind(value.kind(), ConfigFormat::kToml);
}

/// Where a key or table that is out of place belongs, e.g. "[bulk]"; empty when it is not
/// a key of any table.
std::string home_of(std::string_view key) {
  if (key == "name") return "[preset]";
  if (key == "rare_support") return "[bulk]";
  for (const ThresholdKey& known : kThresholdKeys) {
    if (known.name == key) return "[" + std::string(known.table) + "]";
  }
  return "";
}

Error unknown_member(const ConfigValue& table, const std::string& key, const ConfigValue& value,
                     const std::vector<std::string>& known) {
  const std::string reason = value.kind() == Kind::kTable
                                 ? "unknown table [" + table.child_path(key) + "]"
                                 : "unknown key '" + key + "'";
  std::string fix;
  if (key == "rare_support" && table.path().empty()) {
    fix = "It belongs inside [bulk]: write [bulk.rare_support].";
  } else if (const std::string home = home_of(key); !home.empty()) {
    fix = "It belongs in " + home + "; move it there.";
  } else {
    fix = unknown_key_fix(key, known);
    if (fix.back() != '?') fix += ".";
  }
  return table.child_error(key, reason, fix);
}

/// The members of a table whose keys are in `known`; each other key is added to `errors`,
/// so the known ones are still read and their errors reported in the same pass.
std::vector<std::pair<std::string, ConfigValue>> table_members(
    const ConfigValue& value, const std::vector<std::string>& known, std::string_view header,
    ErrorList& errors) {
  if (value.kind() != Kind::kTable) {
    throw value.error("expected a table, found " + found_kind(value),
                      "Write " + std::string(header) + " with its keys on the lines below it.");
  }
  std::vector<std::pair<std::string, ConfigValue>> members;
  for (auto& [key, member] : value.members()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      errors.add(unknown_member(value, key, member, known));
    } else {
      members.emplace_back(key, member);
    }
  }
  return members;
}

double threshold_value(const ConfigValue& value, ThresholdRange range) {
  const std::string_view allowed =
      range == ThresholdRange::kFraction ? "a value from 0 to 1" : "a value of 0 or more";
  double number = 0;
  if (value.kind() == Kind::kInteger) {
    number = static_cast<double>(value.node().integer);
  } else if (value.kind() == Kind::kFloat) {
    number = value.node().number;
  } else {
    const std::string fix = value.kind() == Kind::kString ? "Write the number without quotes."
                                                          : "Write " + std::string(allowed) + ".";
    throw value.error("expected a number, found " + found_kind(value), fix);
  }
  if (std::isnan(number) || std::isinf(number)) {
    const std::string spelled = std::isnan(number) ? "nan" : number > 0 ? "inf" : "-inf";
    throw value.error(spelled + " is not a finite number", "Use " + std::string(allowed) + ".");
  }
  if (number < 0) {
    throw value.error(fmt::format("{} is below 0", number), "Use " + std::string(allowed) + ".");
  }
  if (range == ThresholdRange::kFraction && number > 1) {
    throw value.error(fmt::format("{} is above 1", number), "Use " + std::string(allowed) + ".");
  }
  return number;
}

class ConfigFileReader {
 public:
  explicit ConfigFileReader(const ConfigDocument& document) : root_(document, document.root, "") {}

  DiffConfigFile read() {
    check_version();
    const std::vector<std::string> known = {"version", "preset", "clear_gap", "same", "bulk"};
    for (const auto& [key, value] : root_.members()) {
      errors_.check([&, &key = key, &value = value] {
        if (key == "version") return;
        if (key == "preset") return read_preset(value);
        if (key == "clear_gap" || key == "same") return read_thresholds(value, key, {});
        if (key == "bulk") return read_thresholds(value, key, {"rare_support"});
        throw unknown_member(root_, key, value, known);
      });
    }
    errors_.throw_if_any();
    return file_;
  }

 private:
  // The version decides how everything else reads, so a wrong one stops here.
  void check_version() const {
    const ConfigNode* node = root_.node().find("version");
    if (node == nullptr) {
      throw root_.child_error("version", "the required key is missing",
                              "Add version = 1 as the first line.");
    }
    const ConfigValue version(root_.document(), *node, "version");
    if (version.kind() != Kind::kInteger) {
      const std::string fix = version.kind() == Kind::kFloat    ? " without a decimal point"
                              : version.kind() == Kind::kString ? " without quotes"
                                                                : "";
      throw version.error("expected the integer 1, found " + found_kind(version),
                          "Write version = 1" + fix + ".");
    }
    if (version.node().integer != kSupportedVersion) {
      throw version.error(
          "version " + std::to_string(version.node().integer) + " is not supported",
          "This perfgate reads version 1 only; write version = 1 (keys: docs/diff.md).");
    }
  }

  void read_preset(const ConfigValue& value) {
    // table_members leaves "name" as the only possible member.
    for (const auto& [key, name] : table_members(value, {"name"}, "[preset]", errors_)) {
      if (name.kind() != Kind::kString) {
        throw name.error("expected a string, found " + found_kind(name),
                         "Write name = \"default\", \"strict\" or \"permissive\".");
      }
      const std::string& text = name.node().text;
      if (!preset_thresholds(text)) {
        const std::optional<std::string> near = nearest_key(text, preset_names());
        throw name.error(
            "unknown preset '" + text + "'",
            near ? "Did you mean '" + *near + "'?" : "Use default, strict or permissive.");
      }
      file_.preset = text;
    }
  }

  void read_thresholds(const ConfigValue& value, const std::string& table,
                       std::vector<std::string> subtables) {
    std::vector<std::string> known;
    for (const ThresholdKey& key : kThresholdKeys) {
      if (key.table == table) known.emplace_back(key.name);
    }
    known.insert(known.end(), subtables.begin(), subtables.end());
    for (const auto& [name, member] : table_members(value, known, "[" + table + "]", errors_)) {
      errors_.check([&, &name = name, &member = member] {
        if (std::find(subtables.begin(), subtables.end(), name) != subtables.end()) {
          return read_thresholds(member, table + "." + name, {});
        }
        for (const ThresholdKey& key : kThresholdKeys) {
          if (key.table == table && key.name == name) {
            file_.*key.setting = threshold_value(member, key.range);
          }
        }
      });
    }
  }

  ConfigValue root_;
  ErrorList errors_;
  DiffConfigFile file_;
};

}  // namespace

DiffConfigFile parse_diff_config(const std::filesystem::path& file, const std::string& text) {
  const ConfigDocument document = parse_toml_document(file, text);
  return ConfigFileReader(document).read();
}

DiffConfigFile read_diff_config(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    throw Error(ExitCode::kNoInput, file.string() +
                                        ": is a folder, not a diff config. Give --config the "
                                        "path of a TOML file.");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kNoInput, file.string() + ": cannot read the diff config (" +
                                        std::strerror(errno) +
                                        "). Check the path given to "
                                        "--config.");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_diff_config(file, text.str());
}

}  // namespace perfgate::diff
