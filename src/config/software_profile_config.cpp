#include "config/software_profile_config.hpp"

#include "config/error_list.hpp"

namespace perfgate {
namespace {

std::vector<std::string> package_names(const ConfigValue& list) {
  std::vector<std::string> names;
  for (const auto& item : list.items()) names.push_back(item.non_empty_string());
  return names;
}

// A version people write as 3 means the same as "3"; anything else is a typo.
std::string version_text(const ConfigValue& value) {
  if (value.kind() == ConfigNode::Kind::kInteger) return std::to_string(value.integer());
  if (value.kind() == ConfigNode::Kind::kString) return value.non_empty_string();
  throw value.type_error("a string or an integer");
}

}  // namespace

SoftwareProfileConfig read_software_profile_config(const ConfigValue& value,
                                                   const std::filesystem::path& project_dir) {
  ErrorList errors;
  const ConfigTable table(value,
                          {"packages", "pip_packages", "python", "packages_command",
                           "package_versions", "image", "profile_version"},
                          errors);
  SoftwareProfileConfig config;
  config.source = value.document().file.string();
  config.command_dir = project_dir;
  const auto read = [&](std::string_view key, auto&& reader) {
    errors.check([&] {
      if (auto v = table.get(key)) reader(*v);
    });
  };
  read("packages", [&](const ConfigValue& v) { config.dpkg_packages = package_names(v); });
  read("pip_packages", [&](const ConfigValue& v) { config.pip_packages = package_names(v); });
  read("python", [&](const ConfigValue& v) { config.python = v.non_empty_string(); });
  read("packages_command",
       [&](const ConfigValue& v) { config.packages_command = v.non_empty_string(); });
  read("package_versions", [&](const ConfigValue& v) {
    for (const auto& [name, version] : v.members()) {
      config.package_versions[name] = version_text(version);
    }
  });
  read("image", [&](const ConfigValue& v) { config.image = v.non_empty_string(); });
  read("profile_version", [&](const ConfigValue& v) { config.profile_version = version_text(v); });
  errors.throw_if_any();
  return config;
}

}  // namespace perfgate
