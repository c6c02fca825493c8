#include "config/history_config.hpp"

#include <gtest/gtest.h>

#include "config/project_config.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

HistoryConfig load(const std::string& text) {
  TempDir dir;
  const ProjectConfig project = load_project_config(dir.write("perfgate.toml", text));
  EXPECT_TRUE(project.history.has_value());
  return project.history.value_or(HistoryConfig{});
}

std::string error_of(const std::string& text) {
  TempDir dir;
  try {
    load_project_config(dir.write("perfgate.toml", text));
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(HistoryConfig, ReadsEveryKey) {
  const HistoryConfig config = load(R"(
[history]
branch = "trunk"
archive = "dir:../perf-archive"
build = ["mkdir -p build", "cc -O2 -o build/app app.c"]
suite = "perf/suite/"
sources = ["perf/", "bench/"]
harness_version = 3
max_per_run = 4
interleave = 2
timeout_s = 600
[history.flags]
percent = 5
absolute_ms = 0.5
mad_factor = 2
)");
  EXPECT_EQ(config.branch, "trunk");
  EXPECT_EQ(config.archive, "dir:../perf-archive");
  EXPECT_EQ(config.build,
            (std::vector<std::string>{"mkdir -p build", "cc -O2 -o build/app app.c"}));
  EXPECT_EQ(config.suite, "perf/suite/");
  EXPECT_EQ(config.sources, (std::vector<std::string>{"perf/", "bench/"}));
  EXPECT_EQ(config.harness_version, 3);
  EXPECT_EQ(config.max_per_run, 4);
  EXPECT_EQ(config.interleave, 2);
  EXPECT_EQ(config.timeout_s, 600);
  EXPECT_EQ(config.flags, (RegressionFlagRule{5, 0.5, 2}));
}

TEST(HistoryConfig, DefaultsFollowTheSeedAndTheSuiteIsItsOwnSource) {
  const HistoryConfig config = load("[history]\n");
  EXPECT_EQ(config.branch, "main");
  EXPECT_EQ(config.archive, "git:perfgate-data");
  EXPECT_TRUE(config.build.empty());
  EXPECT_EQ(config.suite, "benchmarks/");
  EXPECT_EQ(config.sources, std::vector<std::string>{"benchmarks/"});
  EXPECT_EQ(config.harness_version, 1);
  EXPECT_EQ(config.max_per_run, 8);
  EXPECT_EQ(config.interleave, 8);
  EXPECT_EQ(config.flags, (RegressionFlagRule{10, 0.1, 3}));
}

TEST(HistoryConfig, ReportsEveryBadKeyOfTheTableAtOnce) {
  const std::string message = error_of(R"(
[history]
branhc = "main"
archive = "s3://bucket"
suite = "../elsewhere"
max_per_run = 0
interleave = 0
[history.flags]
percent = 0
)");
  EXPECT_NE(message.find("history.branhc"), std::string::npos) << message;
  EXPECT_NE(message.find("Did you mean 'branch'?"), std::string::npos) << message;
  EXPECT_NE(message.find("'s3://bucket' is not an archive URL"), std::string::npos) << message;
  EXPECT_NE(message.find("'../elsewhere' leaves the repository"), std::string::npos) << message;
  EXPECT_NE(message.find("history.max_per_run"), std::string::npos) << message;
  EXPECT_NE(message.find("history.interleave"), std::string::npos) << message;
  EXPECT_NE(message.find("history.flags.percent: 0 is out of range: it must be above 0"),
            std::string::npos)
      << message;
}

TEST(HistoryConfig, LinksAreWebAddressesOrForRawFilesRelativePaths) {
  const HistoryConfig config = load(
      "[history]\ncommit_url = \"https://example.invalid/repo/commit/{sha}\"\n"
      "raw_url = \"./archive/\"\n");
  EXPECT_EQ(config.commit_url, "https://example.invalid/repo/commit/{sha}");
  EXPECT_EQ(config.raw_url, "./archive/");
  EXPECT_EQ(load("[history]\n").commit_url, "");
  const std::string no_sha = error_of("[history]\ncommit_url = \"https://example.invalid/c\"\n");
  EXPECT_NE(no_sha.find("history.commit_url: has no {sha}"), std::string::npos) << no_sha;
  const std::string script = error_of("[history]\ncommit_url = \"javascript:alert(1)//{sha}\"\n");
  EXPECT_NE(script.find("is not an http(s) address"), std::string::npos) << script;
  const std::string relative = error_of("[history]\ncommit_url = \"./c/{sha}\"\n");
  EXPECT_NE(relative.find("is not an http(s) address"), std::string::npos) << relative;
  const std::string quote = error_of("[history]\nraw_url = \"https://x.invalid/\\\"><b>\"\n");
  EXPECT_NE(quote.find("holds a space, a quote"), std::string::npos) << quote;
  const std::string data = error_of("[history]\nraw_url = \"data:text/html,x\"\n");
  EXPECT_NE(data.find("is not an http(s) address or a relative path"), std::string::npos) << data;
}

TEST(HistoryConfig, SuiteFromIsTheCommitOrTheHarnessAndRemoteIsAName) {
  EXPECT_EQ(load("[history]\n").suite_from, "commit");
  EXPECT_EQ(load("[history]\nsuite_from = \"harness\"\n").suite_from, "harness");
  const std::string other = error_of("[history]\nsuite_from = \"tip\"\n");
  EXPECT_NE(other.find("history.suite_from: 'tip' is neither \"commit\" nor \"harness\""),
            std::string::npos)
      << other;
  EXPECT_EQ(load("[history]\nremote = \"origin\"\n").remote, "origin");
  const std::string option = error_of("[history]\nremote = \"--upload-pack=x\"\n");
  EXPECT_NE(option.find("is not the name of a git remote"), std::string::npos) << option;
}

TEST(HistoryConfig, RefusesAnEmptySourcesList) {
  const std::string message = error_of("[history]\nsources = []\n");
  EXPECT_NE(message.find("history.sources: must list at least one path"), std::string::npos)
      << message;
}

TEST(HistoryConfig, AProjectWithoutTheTableHasNoHistory) {
  TempDir dir;
  EXPECT_FALSE(load_project_config(dir.write("perfgate.toml", "[run]\n")).history.has_value());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
