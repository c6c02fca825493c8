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

TEST(RunAdHoc, BuildsFileNamesOnlyFromBoundedSafePartsOfWhatTheDataSays) {
  TempDir dir;
  // A 3,000-character name and a commit with '/' and '<': the files are still written.
  const std::string long_name(3000, 'n');
  const auto run = run_perfgate(
      {"run", "--runs", "1", "--warmup", "0", "-r", "out", "--name", long_name, "--", "true"},
      dir.path(), {{"PERFGATE_COMMIT", "<b>c</b>"}});
  EXPECT_EQ(run.exit_code, 64) << run.err;  // an id longer than 100 is refused up front
  dir.write("suite/long.toml",
            "benchmark_id = \"long\"\ncommand = [\"true\", \"{v}\"]\n"
            "[parameters]\nv = [\"" +
                long_name +
                "\"]\n"
                "[run_config]\nnum_warmup_runs = 0\nnum_measurement_runs = 1\n");
  const auto suite =
      run_perfgate({"run", "suite", "-r", "out"}, dir.path(), {{"PERFGATE_COMMIT", "<b>c</b>"}});
  ASSERT_EQ(suite.exit_code, 0) << suite.err;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "out")) {
    EXPECT_LT(entry.path().filename().string().size(), 160u) << entry.path();
  }
  const auto compared = run_perfgate({"compare", "--init", "-r", "out"}, dir.path());
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  bool summary = false;
  for (const auto& entry : fs::directory_iterator(testing::newest_run_folder(dir / "out"))) {
    const std::string name = entry.path().filename().string();
    summary |= name.rfind("perf__b_c__b__", 0) == 0 && entry.path().extension() == ".md";
  }
  EXPECT_TRUE(summary);
}

TEST(RunAdHoc, ShowsAControlCharacterOfAConfigErrorVisibly) {
  TempDir dir;
  dir.write("suite/x.toml",
            "benchmark_id = \"x\"\ncommand = [\"true\"]\n\"bad\\u001b[2Jkey\" = 1\n");
  const auto result = run_perfgate({"run", "suite"}, dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << result.err;
  EXPECT_THAT(result.err, HasSubstr("unknown key 'bad\\x1b[2Jkey'"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
