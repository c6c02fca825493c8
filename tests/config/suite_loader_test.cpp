#include "config/suite_loader.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

const char* const kValidToml = "benchmark_id = \"{id}\"\ncommand = [\"true\"]\n";

std::string valid_toml(const std::string& id) {
  std::string text = kValidToml;
  text.replace(text.find("{id}"), 4, id);
  return text;
}

// The message of the Error that loading `paths` throws, or "" when it loads.
Error load_error(const std::vector<std::filesystem::path>& paths) {
  try {
    load_suite(paths);
  } catch (const Error& error) {
    return error;
  }
  return Error(ExitCode::kOk, "");
}

TEST(SuiteLoader, ReportsTheErrorsOfEveryFileTogetherWithTheFirstErrorsCode) {
  TempDir dir;
  const auto a = dir.write("a.json", R"({"benchmark_id": "a", "command": ["x"],
                                         "inputs": ["missing.txt"]})");
  const auto b = dir.write("b.toml", "benchmark_id = \"b\"\ncommand = 5\n");
  dir.write("c.toml", valid_toml("c"));
  const Error error = load_error({dir.path()});
  EXPECT_EQ(error.code(), ExitCode::kNoInput);
  EXPECT_EQ(std::string(error.what()),
            a.string() + ": inputs[0]: input file '" + (dir.path() / "missing.txt").string() +
                "' not found. Create it or fix the path (relative to the config's folder)\n" +
                b.string() +
                ": command: expected an array of strings (argv) or a string (shell command), "
                "found an integer. Write an array of strings (argv) or a string (shell "
                "command) here");
}

TEST(SuiteLoader, RejectsADuplicateBenchmarkIdNamingBothFiles) {
  TempDir dir;
  const auto first = dir.write("a/one.toml", valid_toml("same"));
  const auto second = dir.write("b/two.toml", valid_toml("same"));
  const Error error = load_error({dir.path()});
  EXPECT_EQ(error.code(), ExitCode::kDataError);
  EXPECT_EQ(std::string(error.what()),
            second.string() + ": benchmark_id: 'same' is already used by " + first.string() +
                ". Give every benchmark in a suite its own benchmark_id");
}

TEST(SuiteLoader, DiscoversConfigsRecursivelySkippingTheProjectFileHiddenEntriesAndRunOutput) {
  TempDir dir;
  dir.write("perfgate.toml", "[run]\nnum_measurement_runs = 7\n");
  dir.write("z.json", R"({"benchmark_id": "z", "command": "true"})");
  dir.write("sub/a.toml", valid_toml("a"));
  dir.write("sub/notes.txt", "not a config");
  dir.write(".hidden/c.json", "broken");
  dir.write("sub/.draft.toml", "broken");
  dir.write("results/perf_z.json", "broken");
  dir.write("sub/worker_logs/w.json", "broken");
  const Suite suite = load_suite({dir.path()});
  ASSERT_EQ(suite.configs.size(), 2u);
  EXPECT_EQ(suite.configs[0].source, dir.path() / "sub/a.toml");
  EXPECT_EQ(suite.configs[1].source, dir.path() / "z.json");
  EXPECT_EQ(suite.project.source, dir.path() / "perfgate.toml");
  EXPECT_EQ(suite.configs[0].run.num_measurement_runs, 7);
}

TEST(SuiteLoader, SkipsTheResultsFolderNamedInTheProjectFile) {
  TempDir dir;
  dir.write("perfgate.toml", "[run]\nresults_dir = \"out/runs\"\n");
  dir.write("a.toml", valid_toml("a"));
  dir.write("out/runs/perf_a.json", "{}");
  const Suite suite = load_suite({dir.path()});
  ASSERT_EQ(suite.configs.size(), 1u);
  EXPECT_EQ(suite.project.results_dir, dir.path() / "out/runs");
}

TEST(SuiteLoader, FindsTheProjectFileAboveAConfigNamedDirectly) {
  TempDir dir;
  dir.write("perfgate.toml", "[run]\nnum_warmup_runs = 0\n");
  const auto file = dir.write("suite/deep/a.toml", valid_toml("a"));
  const Suite suite = load_suite({file});
  ASSERT_EQ(suite.configs.size(), 1u);
  EXPECT_EQ(suite.configs[0].run.num_warmup_runs, 0);
  EXPECT_EQ(suite.project.source, dir.path() / "perfgate.toml");
}

TEST(SuiteLoader, SortsBySourcePathAndLoadsAFileNamedTwiceOnce) {
  TempDir dir;
  const auto b = dir.write("b.toml", valid_toml("b"));
  const auto a = dir.write("a.toml", valid_toml("a"));
  const Suite suite = load_suite({b, dir.path(), a});
  ASSERT_EQ(suite.configs.size(), 2u);
  EXPECT_EQ(suite.configs[0].benchmark_id, "a");
  EXPECT_EQ(suite.configs[1].benchmark_id, "b");
}

TEST(SuiteLoader, RejectsAFolderWithoutConfigs) {
  TempDir dir;
  dir.write("perfgate.toml", "");
  dir.write("readme.md", "# nothing");
  const Error error = load_error({dir.path()});
  EXPECT_EQ(error.code(), ExitCode::kNoInput);
  EXPECT_EQ(std::string(error.what()), "no benchmark configs (*.json, *.toml) found in " +
                                           dir.path().string() +
                                           ". Add a config or name another folder");
}

TEST(SuiteLoader, RejectsAPathThatDoesNotExist) {
  TempDir dir;
  const Error error = load_error({dir.path() / "nope"});
  EXPECT_EQ(error.code(), ExitCode::kNoInput);
  EXPECT_EQ(std::string(error.what()),
            (dir.path() / "nope").string() + ": no such file or folder. Check the path");
}

TEST(SuiteLoader, ReportsProjectFileErrorsTogetherWithConfigErrors) {
  TempDir dir;
  const auto project = dir.write("perfgate.toml", "[run]\ntimeout_s = -1\n");
  const auto config = dir.write("a.toml", "benchmark_id = \"a\"\n");
  const Error error = load_error({dir.path()});
  EXPECT_EQ(error.code(), ExitCode::kDataError);
  EXPECT_EQ(std::string(error.what()),
            project.string() + ": run.timeout_s: must be greater than 0. Set a positive value\n" +
                config.string() +
                ": command: missing required key. Add the command to measure, as an argv array "
                "or a shell string");
}

TEST(SuiteLoader, RejectsAnEmptyListOfPathsAsAUsageError) {
  EXPECT_EQ(load_error({}).code(), ExitCode::kUsage);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
