#include "config/software_profile_config.hpp"

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
  const ConfigTable table(value, {"packages", "pip_packages", "python", "packages_command",
                                  "package_versions", "image", "profile_version"});
  SoftwareProfileConfig config;
  config.source = value.document().file.string();
  config.command_dir = project_dir;
  if (auto v = table.get("packages")) config.dpkg_packages = package_names(*v);
  if (auto v = table.get("pip_packages")) config.pip_packages = package_names(*v);
  if (auto v = table.get("python")) config.python = v->non_empty_string();
  if (auto v = table.get("packages_command")) config.packages_command = v->non_empty_string();
  if (auto v = table.get("package_versions")) {
    for (const auto& [name, version] : v->members()) {
      config.package_versions[name] = version_text(version);
    }
  }
  if (auto v = table.get("image")) config.image = v->non_empty_string();
  if (auto v = table.get("profile_version")) config.profile_version = version_text(*v);
  return config;
}

}  // namespace perfgate
