// Every malformed config of the catalogue, through the real binary: the documented exit
// code, the message on standard error, and nothing written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/bad_config_catalogue.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

class BadConfigThroughTheBinary : public ::testing::TestWithParam<BadConfigCase> {};

TEST_P(BadConfigThroughTheBinary, ExitsWithTheDocumentedCodeAndWritesNothing) {
  const BadConfigCase& bad = GetParam();
  TempDir dir;
  const bool is_missing_file = bad.code == ExitCode::kNoInput && bad.content.empty();
  std::string target = bad.file_name;
  if (bad.file_name == "perfgate.toml") {
    dir.write("ok.toml", "benchmark_id = \"ok\"\ncommand = [\"/bin/true\"]\n");
    target = ".";
  }
  if (!is_missing_file) dir.write(bad.file_name, bad.content);

  const auto result = testing::run_perfgate({"run", target, "--results-dir", "out"}, dir.path());

  EXPECT_EQ(result.exit_code, static_cast<int>(bad.code)) << result.err;
  for (const auto& fragment : bad.message_fragments)
    EXPECT_THAT(result.err, ::testing::HasSubstr(fragment));
  EXPECT_FALSE(fs::exists(dir / "out")) << "nothing may be written for an invalid suite";
  EXPECT_TRUE(result.out.empty()) << result.out;
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadConfigThroughTheBinary,
                         ::testing::ValuesIn(bad_config_catalogue()),
                         [](const ::testing::TestParamInfo<BadConfigCase>& info) {
                           return info.param.name;
                         });

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
