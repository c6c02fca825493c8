// End-to-end: what `perfgate run` checks before it starts anything, and where commands run
// (the README's tour, as written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/json.hpp"
#include "support/cli_runner.hpp"
#include "support/run_folder.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

void write_program(const TempDir& dir, const std::string& name, const std::string& script) {
  const fs::path file = dir.write(name, "#!/bin/sh\n" + script + "\n");
  fs::permissions(file, fs::perms::owner_all);
}

// The README's benchmarks/sort.toml, exactly as printed there.
std::string readme_sort_toml() {
  std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/README.md");
  std::string line;
  std::ostringstream block;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && line == "```toml") {
      inside = true;
      block.str("");
    } else if (inside && line == "```") {
      if (block.str().starts_with("# benchmarks/sort.toml\n")) return block.str();
      inside = false;
    } else if (inside) {
      block << line << "\n";
    }
  }
  return "";
}

/// The raw records of the newest run in the results folder `results`.
std::size_t json_files_in(const fs::path& results) {
  std::size_t count = 0;
  const fs::path dir = testing::newest_run_folder(results);
  if (!fs::exists(dir)) return 0;
  for (const auto& entry : fs::directory_iterator(dir))
    count += entry.path().extension() == ".json" ? 1 : 0;
  return count;
}

// The README's layout: the suite in benchmarks/, the program in build/, run from the root.
void write_readme_project(const TempDir& dir) {
  const std::string sort_toml = readme_sort_toml();
  ASSERT_FALSE(sort_toml.empty()) << "README.md has no benchmarks/sort.toml block";
  dir.write("benchmarks/sort.toml", sort_toml);
  write_program(dir, "build/sort", "echo \"sorted $*\" >> sort-calls.txt");
}

TEST(ReadmeTour, RunsTheSortExampleAsWrittenFromTheProjectRoot) {
  TempDir dir;
  write_readme_project(dir);
  dir.write("perfgate.toml", "# the project root\n");
  const auto result = run_perfgate({"run", "benchmarks/", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_EQ(json_files_in(dir / "out"), 2u);
  const std::string calls = read_text_file(dir / "sort-calls.txt");
  EXPECT_THAT(calls, HasSubstr("sorted --n 100000\n")) << "build/sort runs in the project root";
  EXPECT_THAT(calls, HasSubstr("sorted --n 1000000\n"));
}

TEST(ReadmeTour, RunsTheSortExampleFromASubfolderOfAProjectWithPerfgateToml) {
  TempDir dir;
  write_readme_project(dir);
  dir.write("perfgate.toml", "# the project root\n");
  const auto result = run_perfgate({"run", ".", "-r", "../out"}, dir / "benchmarks");
  EXPECT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_THAT(read_text_file(dir / "sort-calls.txt"), HasSubstr("sorted --n 100000\n"));
}

TEST(ReadmeTour, RunsTheSortExampleWithoutPerfgateTomlFromTheFolderItWasStartedIn) {
  TempDir dir;
  write_readme_project(dir);
  const auto result = run_perfgate({"run", "benchmarks/", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_THAT(read_text_file(dir / "sort-calls.txt"), HasSubstr("sorted --n 1000000\n"));
}

TEST(RunValidation, RefusesAMissingProgramBeforeRunningAnythingWithExit66) {
  TempDir dir;
  dir.write("perfgate.toml", "");
  dir.write("s/good.toml", "benchmark_id = \"good\"\ncommand = \"touch ran-good\"\n");
  dir.write("s/sort.toml", "benchmark_id = \"sort\"\ncommand = [\"./build/sort\"]\n");
  const auto result = run_perfgate({"run", "s", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("s/sort.toml: command[0]: " + (dir / "build/sort").string() +
                                    " does not exist. Build it"));
  EXPECT_FALSE(fs::exists(dir / "ran-good"));
  EXPECT_FALSE(fs::exists(dir / "out")) << "nothing may be written before the suite can run";
  EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST(RunValidation, RefusesAProgramThatIsNotExecutableWithExit65) {
  TempDir dir;
  dir.write("perfgate.toml", "");
  dir.write("build/sort", "#!/bin/sh\n");
  fs::permissions(dir / "build/sort", fs::perms::owner_read | fs::perms::owner_write);
  dir.write("sort.toml", "benchmark_id = \"sort\"\ncommand = [\"build/sort\"]\n");
  const auto result = run_perfgate({"run", "sort.toml", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("sort.toml: command[0]: " + (dir / "build/sort").string() +
                                    " is not executable. Make it executable (chmod +x"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunValidation, RefusesAMissingCwdFolderAndAMissingHookProgramTogether) {
  TempDir dir;
  dir.write("perfgate.toml", "");
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"/bin/true\"]\ncwd = \"work\"\n");
  dir.write("b.toml", "benchmark_id = \"b\"\ncommand = [\"/bin/true\"]\nsetup = [\"./gen\"]\n");
  const auto result = run_perfgate({"run", ".", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("a.toml: cwd: folder " + (dir / "work").string() +
                                    " does not exist. Create it, or fix cwd"));
  EXPECT_THAT(result.err,
              HasSubstr("b.toml: setup[0]: " + (dir / "gen").string() + " does not exist"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunValidation, RefusesAProgramNameThatIsNotOnPath) {
  TempDir dir;
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"no-such-sorter\", \"--n\", \"10\"]\n");
  const auto result = run_perfgate({"run", "a.toml", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("a.toml: command[0]: 'no-such-sorter' is not found on PATH"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunValidation, StartsAProgramFoundOnThePathTheConfigsEnvSets) {
  TempDir dir;
  write_program(dir, "tools/sorter", "echo sorted > sorter-ran.txt");
  dir.write("a.toml", "benchmark_id = \"a\"\ncommand = [\"sorter\"]\n[env]\nPATH = \"" +
                          (dir / "tools").string() +
                          ":/usr/bin:/bin\"\n"
                          "[run_config]\nnum_warmup_runs = 0\nnum_measurement_runs = 1\n");
  const auto result = run_perfgate({"run", "a.toml", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_EQ(read_text_file(dir / "sorter-ran.txt"), "sorted\n");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
