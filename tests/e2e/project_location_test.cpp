// End-to-end: the project is found from where the user stands (docs/configs.md, "The
// project"): from a subfolder, `run` and `compare` use the project's suite, results and store;
// outside any project the default store is not created silently; another checkout's config
// measures this checkout's build.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

/// A project: perfgate.toml, a suite in benchmarks/ whose command prints the folder it runs
/// in into ran.txt there, and a subfolder src/.
void write_project(const TempDir& dir, const std::string& folder) {
  dir.write(folder + "/perfgate.toml", "[run]\nnum_warmup_runs = 0\nnum_measurement_runs = 1\n");
  dir.write(folder + "/benchmarks/where.toml",
            "benchmark_id = \"where\"\ncommand = \"pwd > ran.txt\"\n");
  fs::create_directories(dir / folder / "src");
}

TEST(ProjectLocation, RunAndCompareFromASubfolderUseTheProjectsSuiteResultsAndStore) {
  TempDir dir;
  write_project(dir, ".");
  const fs::path src = dir / "src";

  const auto run = run_perfgate({"run"}, src);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("perfgate: project " + dir.path().string() +
                                 " (its perfgate.toml): its store, results and suite are used "
                                 "from here\n"));
  EXPECT_EQ(read_text_file(dir / "ran.txt"), dir.path().string() + "\n");
  EXPECT_TRUE(fs::is_directory(dir / ".perfgate/results"));

  const auto compare = run_perfgate({"compare", "--upload", "always"}, src);
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_TRUE(fs::exists(dir / ".perfgate/perfgate.db"));
  EXPECT_FALSE(fs::exists(src / ".perfgate")) << "nothing of perfgate's in the subfolder";

  // The report from the subfolder reads the same store: the record is there.
  const auto report = run_perfgate({"report", "--format", "json"}, src);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(Json::parse(report.out)["records"].size(), 1u);
}

TEST(ProjectLocation, ARepositoryRootWithAPerfgateFolderIsTheProjectWithoutAToml) {
  TempDir dir;  // holds .git: a repository root
  dir.write("benchmarks/where.toml",
            "benchmark_id = \"where\"\ncommand = \"pwd > ran.txt\"\n[run_config]\n"
            "num_warmup_runs = 0\nnum_measurement_runs = 1\n");
  ASSERT_EQ(run_perfgate({"run"}, dir.path()).exit_code, 0);
  fs::create_directories(dir / "src/deep");
  const auto compare = run_perfgate({"compare", "--upload", "always"}, dir / "src/deep");
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_THAT(compare.err, HasSubstr("(its .perfgate/ folder)"));
  EXPECT_TRUE(fs::exists(dir / ".perfgate/perfgate.db"));
  EXPECT_FALSE(fs::exists(dir / "src/deep/.perfgate"));
}

TEST(ProjectLocation, TheDefaultStoreIsNotCreatedOutsideAnyProject) {
  TempDir dir;
  write_project(dir, "proj");
  ASSERT_EQ(run_perfgate({"run"}, dir / "proj").exit_code, 0);
  // Elsewhere, no project: the records are named, the default store would be new and empty.
  fs::create_directories(dir / "elsewhere");
  const std::string results = (dir / "proj/.perfgate/results").string();
  auto compare = run_perfgate({"compare", "--results-dir", results}, dir / "elsewhere");
  EXPECT_EQ(compare.exit_code, 66) << compare.err;
  EXPECT_THAT(compare.err, HasSubstr("no perfgate project here: no perfgate.toml in this folder "
                                     "or above it, and no .perfgate/ folder"));
  EXPECT_FALSE(fs::exists(dir / "elsewhere/.perfgate"));
  // --init says: start a store here.
  compare = run_perfgate({"compare", "--results-dir", results, "--init", "--upload", "always"},
                         dir / "elsewhere");
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_TRUE(fs::exists(dir / "elsewhere/.perfgate/perfgate.db"));
}

TEST(ProjectLocation, AnotherCheckoutsConfigMeasuresThisCheckoutsBuild) {
  TempDir dir;
  write_project(dir, "proj");
  write_project(dir, "wt-base");
  const auto dry =
      run_perfgate({"run", "../proj/benchmarks/where.toml", "--dry-run"}, dir / "wt-base");
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("  pwd > ran.txt\n  in " + (dir / "wt-base").string() + "\n"));
  const auto run = run_perfgate({"run", "../proj/benchmarks/where.toml"}, dir / "wt-base");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_text_file(dir / "wt-base/ran.txt"), (dir / "wt-base").string() + "\n");
  EXPECT_FALSE(fs::exists(dir / "proj/ran.txt"));
  EXPECT_TRUE(fs::is_directory(dir / "wt-base/.perfgate/results"));
  EXPECT_FALSE(fs::exists(dir / "proj/.perfgate"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
