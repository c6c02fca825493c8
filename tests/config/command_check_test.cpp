#include "config/command_check.hpp"

#include <gtest/gtest.h>

#include "config/program_lookup.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

fs::path write_program(const TempDir& dir, const std::string& name, bool executable = true) {
  const fs::path file = dir.write(name, "#!/bin/sh\nexit 0\n");
  fs::permissions(file, executable ? fs::perms::owner_all : fs::perms::owner_read,
                  fs::perm_options::replace);
  return file;
}

BenchmarkConfig config_in(const TempDir& dir, std::vector<std::string> argv) {
  BenchmarkConfig config;
  config.source = dir / "benchmarks/sort.toml";
  config.benchmark_id = "sort";
  config.default_cwd = dir.path();
  config.command.argv = std::move(argv);
  return config;
}

// The error check_commands_runnable throws for `config`'s states; "" when it accepts them.
std::string problems_of(const BenchmarkConfig& config, ExitCode expected_code) {
  const std::vector<BenchmarkState> states = expand_states(config);
  std::vector<const BenchmarkState*> pointers;
  for (const auto& state : states) pointers.push_back(&state);
  try {
    check_commands_runnable(pointers);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), expected_code) << error.what();
    return error.what();
  }
  return "";
}

TEST(CommandCheck, AcceptsARelativeProgramPathThatStartsFromTheWorkingFolder) {
  TempDir dir;
  write_program(dir, "build/sort");
  EXPECT_EQ(problems_of(config_in(dir, {"./build/sort", "--n", "10"}), ExitCode::kOk), "");
}

TEST(CommandCheck, RefusesAProgramPathThatDoesNotExistWithTheResolvedPath) {
  TempDir dir;
  const BenchmarkConfig config = config_in(dir, {"./build/sort"});
  EXPECT_EQ(problems_of(config, ExitCode::kNoInput),
            config.source.string() + ": command[0]: " + (dir / "build/sort").string() +
                " does not exist. Build it or fix the path; a relative program path starts "
                "from the working folder " +
                dir.path().string() +
                " (the folder of perfgate.toml, else the one perfgate was started in; set cwd "
                "to change it)");
}

TEST(CommandCheck, RefusesAProgramThatIsNotExecutable) {
  TempDir dir;
  const fs::path program = write_program(dir, "build/sort", false);
  const BenchmarkConfig config = config_in(dir, {"build/sort"});
  EXPECT_EQ(problems_of(config, ExitCode::kDataError),
            config.source.string() + ": command[0]: " + program.string() +
                " is not executable. Make it executable (chmod +x " + program.string() +
                ") or start it through its interpreter");
}

TEST(CommandCheck, RefusesAFolderNamedAsTheProgram) {
  TempDir dir;
  fs::create_directories(dir / "build");
  const BenchmarkConfig config = config_in(dir, {"./build"});
  EXPECT_EQ(problems_of(config, ExitCode::kDataError),
            config.source.string() + ": command[0]: " + (dir / "build").string() +
                " is a folder, not a program. Name the program file");
}

TEST(CommandCheck, RefusesAMissingCwdFolder) {
  TempDir dir;
  BenchmarkConfig config = config_in(dir, {"./sort"});
  config.cwd = dir / "benchmarks/work";
  EXPECT_EQ(problems_of(config, ExitCode::kNoInput),
            config.source.string() + ": cwd: folder " + (dir / "benchmarks/work").string() +
                " does not exist. Create it, or fix cwd (a relative cwd starts from the config's "
                "folder)");
}

TEST(CommandCheck, RefusesACwdThatIsAFile) {
  TempDir dir;
  BenchmarkConfig config = config_in(dir, {"./sort"});
  config.cwd = dir.write("notes.txt", "x");
  EXPECT_EQ(problems_of(config, ExitCode::kDataError),
            config.source.string() + ": cwd: " + (dir / "notes.txt").string() +
                " is not a folder. Point cwd at a folder");
}

TEST(CommandCheck, RefusesABareNameThatIsNotOnTheConfigsPath) {
  TempDir dir;
  BenchmarkConfig config = config_in(dir, {"sortx"});
  config.env["PATH"] = (dir / "bin").string();
  EXPECT_EQ(problems_of(config, ExitCode::kNoInput),
            config.source.string() + ": command[0]: 'sortx' is not found on the config's env " +
                "PATH (" + (dir / "bin").string() +
                "). Install it, fix the name, or give its path, e.g. ./sortx");
}

TEST(CommandCheck, FindsABareNameOnThePathTheConfigsEnvSets) {
  TempDir dir;
  write_program(dir, "tools/sortx");
  BenchmarkConfig config = config_in(dir, {"sortx"});
  config.env["PATH"] = "/nonexistent:" + (dir / "tools").string();
  EXPECT_EQ(problems_of(config, ExitCode::kOk), "");
}

TEST(CommandCheck, FindsABareNameOnPerfgatesOwnPath) {
  TempDir dir;
  EXPECT_EQ(problems_of(config_in(dir, {"sh", "-c", "true"}), ExitCode::kOk), "");
}

TEST(CommandCheck, LeavesTheTextOfAShellCommandToTheShell) {
  TempDir dir;
  BenchmarkConfig config = config_in(dir, {});
  config.command = CommandSpec{{}, "./not-built-yet && exit 3", true};
  EXPECT_EQ(problems_of(config, ExitCode::kOk), "");
}

TEST(CommandCheck, ChecksEveryHookAndReportsEveryProblemOnce) {
  TempDir dir;
  BenchmarkConfig config = config_in(dir, {"./bench", "{n}"});
  config.parameters = {{"n", {"1", "2"}}};
  config.setup = CommandSpec{{"./setup.sh"}, "", false};
  config.cleanup = CommandSpec{{}, "rm -rf out", true};
  const std::string file = config.source.string();
  EXPECT_EQ(problems_of(config, ExitCode::kNoInput),
            file + ": command[0]: " + (dir / "bench").string() +
                " does not exist. Build it or fix the path; a relative program path starts "
                "from the working folder " +
                dir.path().string() +
                " (the folder of perfgate.toml, else the one perfgate was started in; set cwd "
                "to change it)\n" +
                file + ": setup[0]: " + (dir / "setup.sh").string() +
                " does not exist. Build it or fix the path; a relative program path starts "
                "from the working folder " +
                dir.path().string() +
                " (the folder of perfgate.toml, else the one perfgate was started in; set cwd "
                "to change it)");
}

TEST(CommandCheck, NamesTheStateWhoseProgramComesFromAPlaceholder) {
  TempDir dir;
  write_program(dir, "build/fast");
  BenchmarkConfig config = config_in(dir, {"build/{variant}"});
  config.parameters = {{"variant", {"fast", "slow"}}};
  EXPECT_EQ(problems_of(config, ExitCode::kNoInput),
            config.source.string() + ": command[0]: for state sort[variant=slow], " +
                (dir / "build/slow").string() +
                " does not exist. Build it or fix the path; a relative program path starts "
                "from the working folder " +
                dir.path().string() +
                " (the folder of perfgate.toml, else the one perfgate was started in; set cwd "
                "to change it)");
}

TEST(ProgramLookup, SearchesAnEmptyPathEntryInTheWorkingFolder) {
  TempDir dir;
  const fs::path program = write_program(dir, "tool");
  EXPECT_EQ(find_program("tool", "/nonexistent::", dir.path()), program);
  EXPECT_EQ(find_program("tool", "/nonexistent", dir.path()), std::nullopt);
}

TEST(ProgramLookup, PrefersTheConfigsPathToPerfgatesOwn) {
  EXPECT_EQ(run_search_path({{"PATH", "/opt/tools/bin"}}), "/opt/tools/bin");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
