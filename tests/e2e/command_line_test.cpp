// The command line as people meet it: mistyped commands, flags and values get one kind
// of message, with a suggestion; --no-color works on every command; every --help ends with
// the command's exit statuses and an example.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::testing {
namespace PERFGATE_TEST_FILE {

TEST(CommandLine, SuggestsTheNearestCommandForAMistypedOne) {
  TempDir dir;
  const CliResult result = run_perfgate({"rn"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_EQ(result.err,
            "perfgate: error: unknown command 'rn'; did you mean 'run'?\n"
            "Run 'perfgate --help' for the commands.\n");
}

TEST(CommandLine, SuggestsASubcommandThatStartsWithWhatWasTyped) {
  TempDir dir;
  const CliResult result = run_perfgate({"baseline", "prep"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_EQ(result.err,
            "perfgate: error: unknown command 'prep' for 'perfgate baseline'; did you mean "
            "'prepare'?\nRun 'perfgate baseline --help' for its flags and examples.\n");
}

TEST(CommandLine, ListsTheCommandsWhenNothingIsNearTheWordTyped) {
  TempDir dir;
  const CliResult result = run_perfgate({"xyzzy"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_EQ(result.err,
            "perfgate: error: unknown command 'xyzzy'; the commands are run, compare, baseline, "
            "report, ab, diff, import, profile, history, bisect, serve, store, worker, comment, "
            "completions\nRun "
            "'perfgate --help' "
            "for the "
            "commands.\n");
}

TEST(CommandLine, SuggestsTheNearestFlagOfTheCommandForAMistypedFlag) {
  TempDir dir;
  const CliResult result = run_perfgate({"compare", "--uplaod", "never"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
            "perfgate: error: unknown flag '--uplaod' for 'perfgate compare'; did you mean "
            "'--upload'?");
  EXPECT_NE(result.err.find("Run 'perfgate compare --help' for its flags and examples.\n"),
            std::string::npos);
}

// Typos edit distance does not catch: words in another order, a word added, and -o, which
// is one edit from every one-letter flag.
TEST(CommandLine, SuggestsAFlagOfTheSameWordsAndWhereACommandWritesForDashO) {
  TempDir dir;
  const auto first_line = [&](const std::vector<std::string>& args) {
    const CliResult result = run_perfgate(args, dir.path());
    EXPECT_EQ(result.exit_code, 64);
    return result.err.substr(0, result.err.find('\n'));
  };
  EXPECT_EQ(first_line({"run", "--dir-results", "out"}),
            "perfgate: error: unknown flag '--dir-results' for 'perfgate run'; did you mean "
            "'--results-dir'?");
  EXPECT_EQ(first_line({"compare", "--upload-policy", "pass"}),
            "perfgate: error: unknown flag '--upload-policy' for 'perfgate compare'; did you mean "
            "'--upload'?");
  EXPECT_EQ(first_line({"run", "-o", "out"}),
            "perfgate: error: unknown flag '-o' for 'perfgate run'; did you mean "
            "'--results-dir'?");
  EXPECT_EQ(first_line({"report", "--out", "r.md"}),
            "perfgate: error: unknown flag '--out' for 'perfgate report'; did you mean "
            "'--output'?");
}

TEST(CommandLine, NamesTheFlagFirstWhenItsValueIsNotAllowed) {
  TempDir dir;
  const CliResult result = run_perfgate({"compare", "--upload", "nevr"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
            "perfgate: error: --upload: 'nevr' is not one of never, pass, always; did you mean "
            "'never'?");
}

TEST(CommandLine, SaysWhatKindOfValueAFlagNeeds) {
  TempDir dir;
  const CliResult wrong = run_perfgate({"compare", "--run-rc", "abc"}, dir.path());
  EXPECT_EQ(wrong.exit_code, 64);
  EXPECT_EQ(wrong.err.substr(0, wrong.err.find('\n')),
            "perfgate: error: --run-rc: 'abc' is not a whole number");
  const CliResult missing = run_perfgate({"run", "--filter"}, dir.path());
  EXPECT_EQ(missing.exit_code, 64);
  EXPECT_EQ(missing.err.substr(0, missing.err.find('\n')),
            "perfgate: error: --filter needs a value (TEXT)");
}

TEST(CommandLine, AsksForACommandWhenNoneIsGiven) {
  TempDir dir;
  const CliResult result = run_perfgate({}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_EQ(result.err.substr(0, result.err.find('\n')),
            "perfgate: error: 'perfgate' needs a command: run, compare, baseline, report, ab, "
            "diff, import, profile, history, bisect, serve, store, worker, comment, completions");
}

std::vector<std::vector<std::string>> every_command() {
  return {{"run"},
          {"compare"},
          {"baseline"},
          {"baseline", "prepare"},
          {"baseline", "approve"},
          {"report"},
          {"ab"},
          {"diff"},
          {"import"},
          {"profile"},
          {"history"},
          {"history", "plan"},
          {"history", "measure"},
          {"history", "validate"},
          {"history", "publish"},
          {"history", "export"},
          {"history", "bisect"},
          {"bisect"},
          {"serve"},
          {"comment"},
          {"completions"}};
}

TEST(CommandLine, EveryCommandTakesNoColor) {
  TempDir dir;
  for (auto args : every_command()) {
    args.push_back("--no-color");
    args.push_back("--help");
    const CliResult result = run_perfgate(args, dir.path());
    EXPECT_EQ(result.exit_code, 0) << args[0] << ": " << result.err;
    EXPECT_NE(result.out.find("--no-color"), std::string::npos) << args[0];
  }
}

TEST(CommandLine, EveryHelpEndsWithTheExitStatusesAndHasAnExample) {
  TempDir dir;
  for (auto args : every_command()) {
    args.push_back("--help");
    const CliResult result = run_perfgate(args, dir.path());
    ASSERT_EQ(result.exit_code, 0) << args[0];
    const std::string& help = result.out;
    const std::size_t statuses = help.rfind("\nExit status:");
    ASSERT_NE(statuses, std::string::npos) << help;
    // The statuses are the last paragraph: nothing after them but their own lines.
    EXPECT_EQ(help.find("\n\n", statuses + 1), std::string::npos) << help;
    EXPECT_NE(help.find("\nExamples:\n  perfgate "), std::string::npos) << help;
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::testing
