#include "config/software_profile_config.hpp"

#include <gtest/gtest.h>

#include "config/project_config.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(SoftwareProfileConfig, ReadsEveryKeyOfTheSoftwareProfileSection) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml", R"(
[software_profile]
packages = ["libcudnn9"]
pip_packages = ["torch", "triton"]
python = ".venv/bin/python"
packages_command = "./tools/versions.sh"
image = "ghcr.io/acme/bench:py3.12-cuda12.4"
profile_version = 3

[software_profile.package_versions]
firmware = "2.1"
driver = 550
)");
  const SoftwareProfileConfig config = load_project_config(file).software_profile;
  EXPECT_EQ(config.dpkg_packages, std::vector<std::string>{"libcudnn9"});
  EXPECT_EQ(config.pip_packages, (std::vector<std::string>{"torch", "triton"}));
  EXPECT_EQ(config.python, ".venv/bin/python");
  EXPECT_EQ(config.packages_command, "./tools/versions.sh");
  EXPECT_EQ(config.image, "ghcr.io/acme/bench:py3.12-cuda12.4");
  EXPECT_EQ(config.profile_version, "3");
  EXPECT_EQ(config.package_versions,
            (std::map<std::string, std::string>{{"driver", "550"}, {"firmware", "2.1"}}));
  EXPECT_EQ(config.command_dir, std::filesystem::absolute(dir.path()));
  EXPECT_EQ(config.source, file.string());
}

TEST(SoftwareProfileConfig, AsksForNothingBeyondTheOsWhenTheSectionIsAbsent) {
  TempDir dir;
  const SoftwareProfileConfig config =
      load_project_config(dir.write("perfgate.toml", "")).software_profile;
  EXPECT_TRUE(config.dpkg_packages.empty());
  EXPECT_TRUE(config.pip_packages.empty());
  EXPECT_EQ(config.python, "python3");
  EXPECT_TRUE(config.packages_command.empty());
  EXPECT_FALSE(config.image);
  EXPECT_FALSE(config.profile_version);
  EXPECT_TRUE(config.package_versions.empty());
}

TEST(SoftwareProfileConfig, RefusesAMistypedKeyWithASuggestion) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml", "[software_profile]\npip_package = [\"torch\"]\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what()).find("pip_packages"), std::string::npos) << error.what();
  }
}

TEST(SoftwareProfileConfig, RefusesAProfileVersionThatIsNeitherTextNorAnInteger) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml", "[software_profile]\nprofile_version = 3.5\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what()).find("software_profile.profile_version"), std::string::npos)
        << error.what();
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
