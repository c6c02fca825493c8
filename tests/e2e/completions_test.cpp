// The bash and zsh completions: written from the command line's own definition, so every
// command and flag is there; bash's is exercised by calling the function as bash would.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;

/// What bash's completion function offers for the words typed so far (the last one being
/// completed), one candidate per line.
std::string bash_candidates(const TempDir& dir, const std::string& words) {
  const std::string command = "cd '" + dir.path().string() +
                              "' && bash -c 'source ./perfgate.bash; COMP_WORDS=(" + words +
                              "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _perfgate; printf "
                              "\"%s\\n\" \"${COMPREPLY[@]}\"' > candidates.txt";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return read_text_file(dir / "candidates.txt");
}

TEST(Completions, BashOffersCommandsThenSubcommandsThenTheCommandsOwnFlags) {
  TempDir dir;
  const auto script = run_perfgate({"completions", "bash"}, dir.path());
  ASSERT_EQ(script.exit_code, 0) << script.err;
  dir.write("perfgate.bash", script.out);
  EXPECT_EQ(bash_candidates(dir, "perfgate r"), "run\nreport\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate baseline ap"), "approve\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate baseline prepare --al"), "--allow-mixed-commits\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate run --dry"), "--dry-run\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate compare --results-dir out --up"), "--upload\n");
}

TEST(Completions, BashOffersTheValuesOfAFlagThatNamesThem) {
  TempDir dir;
  const auto script = run_perfgate({"completions", "bash"}, dir.path());
  dir.write("perfgate.bash", script.out);
  EXPECT_EQ(bash_candidates(dir, "perfgate ab --method \"\""), "pairs\nstat\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate ab --method = s"), "stat\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate report --format \"\""), "md\njson\ncsv\nhtml\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate diff --display e"), "explain\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate diff a.json b.json --format \"\""), "text\nmd\njson\n");
  EXPECT_EQ(bash_candidates(dir, "perfgate import --format-in h"), "hyperfine\n");
  // A flag's value is offered only after that flag: a file name elsewhere.
  dir.write("results-a.json", "{}");
  EXPECT_EQ(bash_candidates(dir, "perfgate diff --display simple results-"), "results-a.json\n");
}

TEST(Completions, BashCompletesFileNamesWhereACommandTakesFiles) {
  TempDir dir;
  const auto script = run_perfgate({"completions", "bash"}, dir.path());
  dir.write("perfgate.bash", script.out);
  dir.write("results-a.json", "{}");
  EXPECT_EQ(bash_candidates(dir, "perfgate diff results-"), "results-a.json\n");
}

TEST(Completions, ZshScriptNamesEveryCommandAndFlag) {
  TempDir dir;
  const auto script = run_perfgate({"completions", "zsh"}, dir.path());
  ASSERT_EQ(script.exit_code, 0) << script.err;
  EXPECT_EQ(script.out.rfind("#compdef perfgate\n", 0), 0u);
  EXPECT_THAT(script.out, HasSubstr("\"baseline prepare\") flags=("));
  EXPECT_THAT(script.out, HasSubstr("--allow-mixed-commits"));
  EXPECT_THAT(script.out, HasSubstr("commands=('run' 'compare' 'baseline'"));
  EXPECT_THAT(script.out, HasSubstr("\"ab|--method\") values=(pairs stat) ;;"));
  EXPECT_THAT(script.out, HasSubstr("\"profile|--format\") values=(md json) ;;"));
}

TEST(Completions, RefusesAShellItDoesNotKnow) {
  TempDir dir;
  const auto result = run_perfgate({"completions", "fish"}, dir.path());
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("'fish' is not one of bash, zsh"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
