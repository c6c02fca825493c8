#include "config/bad_config_catalogue.hpp"

#include <gtest/gtest.h>

#include <set>

#include "config/suite_loader.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {

// Readable test names in failures instead of gtest's byte dump.
void PrintTo(const BadConfigCase& bad, std::ostream* out) {
  *out << bad.name;
}

namespace PERFGATE_TEST_FILE {

class BadConfig : public ::testing::TestWithParam<BadConfigCase> {};

TEST_P(BadConfig, IsRejectedWithItsCodeKeyPathAndFix) {
  const BadConfigCase& bad = GetParam();
  TempDir dir;
  const std::filesystem::path file = dir.path() / bad.file_name;
  std::vector<std::filesystem::path> suite = {file};
  if (bad.file_name == "perfgate.toml") {
    dir.write(bad.file_name, bad.content);
    dir.write("ok.toml", kMinimalValidToml);
    suite = {dir.path()};
  } else if (bad.code != ExitCode::kNoInput || !bad.content.empty()) {
    dir.write(bad.file_name, bad.content);
  }

  try {
    load_suite(suite);
    FAIL() << "the config was accepted";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.code(), bad.code) << message;
    EXPECT_EQ(message.rfind(file.string(), 0), 0u) << message;
    for (const auto& fragment : bad.message_fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos)
          << "missing fragment: " << fragment << "\nin message:\n"
          << message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadConfig, ::testing::ValuesIn(bad_config_catalogue()),
                         [](const auto& info) { return info.param.name; });

TEST(BadConfigCatalogue, CoversBothFormatsWithUniqueNames) {
  std::set<std::string> names;
  int json = 0;
  int toml = 0;
  for (const auto& bad : bad_config_catalogue()) {
    EXPECT_TRUE(names.insert(bad.name).second) << bad.name;
    json += bad.file_name.ends_with(".json") ? 1 : 0;
    toml += bad.file_name.ends_with(".toml") ? 1 : 0;
  }
  EXPECT_GE(names.size(), 34u);
  EXPECT_GE(json, 15);
  EXPECT_GE(toml, 15);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
