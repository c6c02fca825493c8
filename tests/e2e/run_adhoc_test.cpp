// `perfgate run -- CMD ARGS...`: an ad-hoc benchmark with no config, as hyperfine takes a
// command, written and shown as any suite's benchmark is.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"
#include "support/run_folder.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

/// The one raw record of the newest run in `results`.
Json only_record(const fs::path& results) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(testing::newest_run_folder(results))) {
    if (entry.path().extension() == ".json") found.push_back(entry.path());
  }
  EXPECT_EQ(found.size(), 1u);
  return found.empty() ? Json() : Json::parse(read_text_file(found.front()));
}

TEST(RunAdHoc, MeasuresTheCommandAfterTheDashesAsABenchmarkNamedAfterItsProgram) {
  TempDir dir;
  dir.write("perfgate.toml", "[run]\nnum_measurement_runs = 2\n");
  const auto result =
      run_perfgate({"run", "--warmup", "0", "--", "/bin/echo", "--not-a-flag", "x"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("echo"));
  const Json record = only_record(dir / ".perfgate/results");
  EXPECT_EQ(record["benchmark_id"], "echo");
  // The words after -- are the command as given, flags of perfgate's included.
  EXPECT_EQ(record["recipe"]["command"], Json({"/bin/echo", "--not-a-flag", "x"}));
  EXPECT_EQ(record["recipe"]["run_config"]["num_warmup_runs"], 0);
  EXPECT_EQ(record["recipe"]["run_config"]["num_measurement_runs"], 2);  // perfgate.toml's
  EXPECT_EQ(record["metrics"]["latency"]["samples"].size(), 2u);
  EXPECT_EQ(record["success"], true);
}

TEST(RunAdHoc, RunsOneWordWithSpacesThroughTheShellUnderTheNameGiven) {
  TempDir dir;
  const auto result = run_perfgate(
      {"run", "--runs", "3", "--name", "two-steps", "--results-dir", "out", "--", "true && true"},
      dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json record = only_record(dir / "out");
  EXPECT_EQ(record["benchmark_id"], "two-steps");
  EXPECT_EQ(record["recipe"]["command"], "true && true");
  EXPECT_EQ(record["metrics"]["latency"]["samples"].size(), 3u);
}

TEST(RunAdHoc, RunsInTheCurrentFolderAndShowsItInTheDryRun) {
  TempDir dir;
  dir.write("sub/.keep", "");
  const auto result = run_perfgate({"run", "--dry-run", "--", "./tool", "a"}, dir / "sub");
  // ./tool is looked for where the user stands, and is not there: refused before running.
  EXPECT_EQ(result.exit_code, 66) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("sub/tool does not exist"));
  dir.write("sub/tool", "#!/bin/sh\nexit 0\n");
  fs::permissions(dir / "sub/tool", fs::perms::owner_all);
  const auto plan = run_perfgate({"run", "--dry-run", "--", "./tool", "a"}, dir / "sub");
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("tool"));
  EXPECT_THAT(plan.out, HasSubstr((dir / "sub").string()));
  EXPECT_FALSE(fs::exists(dir / "sub/.perfgate"));  // a dry run writes nothing
}

TEST(RunAdHoc, RefusesWhatItCannotTakeBeforeRunningAnything) {
  TempDir dir;
  auto result = run_perfgate({"run", "--"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("nothing after --"));
  dir.write("suite/a.toml", "benchmark_id = \"a\"\ncommand = [\"true\"]\n");
  result = run_perfgate({"run", "suite", "--", "true"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("give a suite or a command after --, not both"));
  result = run_perfgate({"run", "--runs", "0", "--", "true"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--runs 0: give 1 to 1000000 measured runs"));
  result = run_perfgate({"run", "--name", "a/b", "--", "true"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("not a benchmark id"));
  result = run_perfgate({"run", "--runs", "5", "suite"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("are for a command given after --"));
  EXPECT_FALSE(fs::exists(dir / ".perfgate"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
