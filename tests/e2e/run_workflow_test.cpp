// End-to-end: what `perfgate run` shows before, during and after a run — --list and
// --dry-run, a folder per run that compare picks up, tables as benchmarks finish, local git
// metadata — and -o/--force on the commands that write one file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

std::vector<fs::path> run_folders(const fs::path& results) {
  std::vector<fs::path> out;
  if (!fs::exists(results)) return out;
  for (const auto& entry : fs::directory_iterator(results)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("run-", 0) == 0)
      out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void write_echo_suite(TempDir& dir) {
  dir.write("suite/echo.toml", R"(
benchmark_id = "echo"
command = ["/bin/echo", "size {n}"]
[parameters]
n = [10000000, 3000000]
[run_config]
num_warmup_runs = 1
num_measurement_runs = 2
timeout_s = 5
)");
}

TEST(RunList, PrintsTheExpandedStatesAndRunsNothing) {
  TempDir dir;
  write_echo_suite(dir);
  dir.write("suite/touch.toml", "benchmark_id = \"touch\"\ncommand = \"touch ran\"\n");
  const auto result = run_perfgate({"run", "suite", "--list", "-r", "out"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "echo[n=10000000]\necho[n=3000000]\ntouch\n");
  EXPECT_FALSE(fs::exists(dir / "ran"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunDryRun, PrintsWhatWouldRunAndWritesNothing) {
  TempDir dir;
  write_echo_suite(dir);
  const auto result = run_perfgate({"run", "suite", "--dry-run", "-r", "out"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("echo[n=10000000]  1 warmup + 2 measured run(s), timeout 5 s\n"
                                    "  /bin/echo size 10000000\n  in " +
                                    dir.path().string() + "\n"));
  EXPECT_THAT(result.out, HasSubstr("would run 2 state(s): 6 run(s), 4 of them measured; records "
                                    "would go to out/run-"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// Two `perfgate run` folders name their records with their own time stamps: diff pairs them
// by benchmark state all the same.
TEST(RunFolders, DiffComparesTwoRunFoldersRecordByRecord) {
  TempDir dir;
  write_echo_suite(dir);
  ASSERT_EQ(run_perfgate({"run", "suite", "-r", "a"}, dir.path()).exit_code, 0);
  ASSERT_EQ(run_perfgate({"run", "suite", "-r", "b"}, dir.path()).exit_code, 0);
  const std::vector<fs::path> a = run_folders(dir / "a");
  const std::vector<fs::path> b = run_folders(dir / "b");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  const auto diff =
      run_perfgate({"diff", "--fail-on", "unmatched", a[0].string(), b[0].string()}, dir.path());
  EXPECT_EQ(diff.exit_code, 0) << diff.err;
  EXPECT_THAT(diff.out, HasSubstr("# File: perf_echo_n_10000000_.json"));
  EXPECT_THAT(diff.out, HasSubstr("# File: perf_echo_n_3000000_.json"));
  EXPECT_THAT(diff.err, Not(HasSubstr("only in")));
}

TEST(RunDryRun, RefusesAMissingProgramLikeARealRunWithoutCreatingAFolder) {
  TempDir dir;
  dir.write("suite/gone.toml", "benchmark_id = \"gone\"\ncommand = [\"./no-such-program\"]\n");
  const auto result = run_perfgate({"run", "suite", "--dry-run", "-r", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("no-such-program"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunFolders, EachRunWritesIntoItsOwnFolderAndCompareJudgesTheNewestOnly) {
  TempDir dir;
  write_echo_suite(dir);
  const std::map<std::string, std::string> env{
      {"PERFGATE_STORE", "sqlite:" + (dir / "store.db").string()}};
  ASSERT_EQ(
      run_perfgate({"run", "suite", "-r", "out", "--filter", "*n=3000000*"}, dir.path()).exit_code,
      0);
  const auto second = run_perfgate({"run", "suite", "-r", "out"}, dir.path());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const auto runs = run_folders(dir / "out");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_THAT(second.out, HasSubstr("records: out/" + runs[1].filename().string() + "\n"));

  const auto newest = run_perfgate({"compare", "-r", "out", "--json", "--init"}, dir.path(), env);
  ASSERT_EQ(newest.exit_code, 0) << newest.err;
  EXPECT_EQ(Json::parse(newest.out).size(), 2u);
  EXPECT_THAT(newest.err, HasSubstr("comparing the newest run, out/" + runs[1].filename().string() +
                                    " (2 record(s)); left out: 1 older run(s). Pass --all"));

  const auto all =
      run_perfgate({"compare", "-r", "out", "--all", "--json", "--init"}, dir.path(), env);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(Json::parse(all.out).size(), 3u);
}

TEST(RunOutput, PrintsEachBenchmarksTableWhenItFinishesAndTheTotalsAtTheEnd) {
  TempDir dir;
  // The second benchmark copies perfgate's standard output (a file here) while it runs:
  // only a table written as soon as the first benchmark finished is in the copy.
  dir.write("suite/a_first.toml",
            "benchmark_id = \"a_first\"\ncommand = \"true\"\n"
            "[run_config]\nnum_warmup_runs = 0\nnum_measurement_runs = 1\n");
  dir.write("suite/b_second.toml",
            "benchmark_id = \"b_second\"\ncommand = \"cp stdout.txt seen.txt\"\n"
            "[run_config]\nnum_warmup_runs = 0\nnum_measurement_runs = 1\n");
  const std::string command = "cd '" + dir.path().string() + "' && NO_COLOR=1 " + PERFGATE_BINARY +
                              " run suite -r out > stdout.txt 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::string seen = read_text_file(dir / "seen.txt");
  EXPECT_THAT(seen, HasSubstr("a_first  PASS"));
  EXPECT_THAT(seen, Not(HasSubstr("b_second")));
  EXPECT_THAT(read_text_file(dir / "stdout.txt"),
              HasSubstr("2 benchmarks: 2 passed, 0 regressed, 0 failed, 0 skipped\n"));
}

TEST(RunOutput, DropsColumnsSoTheTableFitsEightyColumns) {
  TempDir dir;
  write_echo_suite(dir);
  const auto wide = run_perfgate({"run", "suite", "-r", "out"}, dir.path(), {{"COLUMNS", "200"}});
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_THAT(wide.out, HasSubstr("median"));
  // Whether the six columns fit in 80 depends on how many digits the figures measured
  // here have (ResultsTable.DropsTheMedianThenMinMaxToFitTheTerminal pins that with fixed
  // figures); no table of six columns fits in 60, whatever its figures.
  const auto sixty = run_perfgate({"run", "suite", "-r", "out"}, dir.path(), {{"COLUMNS", "60"}});
  ASSERT_EQ(sixty.exit_code, 0) << sixty.err;
  EXPECT_THAT(sixty.out, Not(HasSubstr("median")));
  const auto narrow = run_perfgate({"run", "suite", "-r", "out"}, dir.path(), {{"COLUMNS", "80"}});
  ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
  std::size_t start = 0;
  while (start < narrow.out.size()) {
    const std::size_t end = narrow.out.find('\n', start);
    const std::string line = narrow.out.substr(start, end - start);
    // Table rows start with two spaces; the record path line may be longer than any table.
    if (line.rfind("  record:", 0) != 0 && line.rfind("  ", 0) == 0) {
      std::size_t columns = 0;
      for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
      EXPECT_LE(columns, 80u) << line;
    }
    start = end + 1;
  }
}

TEST(RunGit, RecordsTheCommitAndBranchOfALocalCheckoutAndWhenItIsDirty) {
  TempDir dir;
  write_echo_suite(dir);
  const std::string git = "cd '" + dir.path().string() +
                          "' && git init -q -b trunk && git add suite && git -c user.name=t "
                          "-c user.email=t@t commit -q -m first";
  ASSERT_EQ(std::system(git.c_str()), 0);
  const std::map<std::string, std::string> local{{"GITHUB_ACTIONS", ""}, {"CI", ""}};
  const auto clean = run_perfgate({"run", "suite", "-r", "out", "--json"}, dir.path(), local);
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  const Json record = Json::parse(clean.out).at(0);
  EXPECT_EQ(record["ci"]["commit"].get<std::string>().size(), 40u);
  EXPECT_EQ(record["ci"]["branch"], "trunk");
  EXPECT_EQ(record["ci"]["dirty"], false);
  EXPECT_THAT(clean.err, Not(HasSubstr("uncommitted")));

  dir.write("suite/echo.toml", read_text_file(dir / "suite/echo.toml") + "# edited\n");
  const auto dirty = run_perfgate({"run", "suite", "-r", "out", "--json"}, dir.path(), local);
  ASSERT_EQ(dirty.exit_code, 0) << dirty.err;
  EXPECT_EQ(Json::parse(dirty.out).at(0)["ci"]["dirty"], true);
  EXPECT_THAT(dirty.err, HasSubstr("has uncommitted changes"));
}

TEST(OutputFile, ReportRefusesToReplaceAFileWithoutForceAndReplacesItWithForce) {
  TempDir dir;
  const std::map<std::string, std::string> env{
      {"PERFGATE_STORE", "dir:" + (dir / "store").string()}};
  write_echo_suite(dir);
  ASSERT_EQ(run_perfgate({"run", "suite", "-r", "out"}, dir.path()).exit_code, 0);
  ASSERT_EQ(run_perfgate({"compare", "-r", "out", "--upload", "always", "--init"}, dir.path(), env)
                .exit_code,
            0);
  dir.write("report.md", "keep me");
  const auto refused = run_perfgate({"report", "-o", "report.md"}, dir.path(), env);
  EXPECT_EQ(refused.exit_code, 64);
  EXPECT_EQ(refused.err,
            "perfgate: error: report.md: already exists. Pass --force to replace it, or choose "
            "another --output\n");
  EXPECT_EQ(read_text_file(dir / "report.md"), "keep me");
  const auto forced = run_perfgate({"report", "-o", "report.md", "--force"}, dir.path(), env);
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_THAT(read_text_file(dir / "report.md"), HasSubstr("n=3000000"));
}

TEST(OutputFile, RunHasNoDashOBecauseItWritesAFolder) {
  TempDir dir;
  write_echo_suite(dir);
  const auto result = run_perfgate({"run", "suite", "-o", "out"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("unknown flag '-o' for 'perfgate run'"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
