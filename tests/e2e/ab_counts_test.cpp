// End-to-end: `perfgate ab --measure instructions` (issue 36) on shell loops under the
// machine's counter (Valgrind here): one round and its confirmation decide, with the
// counts in results.json and report.md, and a refusal before anything runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

std::string loop(int iterations) {
  return "i=0; while [ $i -lt " + std::to_string(iterations) + " ]; do i=$((i+1)); done";
}

TEST(AbCounts, TwoPercentMoreWorkIsARegressionAfterOneRoundAndItsConfirmation) {
  const TempDir dir;
  const auto result = run_perfgate({"ab", "--measure", "instructions", "--base", loop(2000),
                                    "--head", loop(2040), "--out", "out"},
                                   dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("adhoc  REGRESSION"));
  EXPECT_THAT(result.out, HasSubstr("instructions: instructions +"));
  EXPECT_THAT(result.err, HasSubstr("perfgate ab: adhoc base count 1"));
  const Json results = Json::parse(read_text_file(dir / "out" / "results.json"));
  const Json& scenario = results["scenarios"][0];
  EXPECT_EQ(scenario["timed"], false);
  EXPECT_EQ(scenario["runs"].size(), 0u);  // no timed run at all
  const Json& counts = scenario["counts"];
  EXPECT_EQ(counts["runs"].size(), 4u);  // base and head, one round and its confirmation
  EXPECT_EQ(counts["verdict"]["kind"], "REGRESSION");
  EXPECT_EQ(counts["verdict"]["deterministic"], true);
  EXPECT_EQ(counts["verdict"]["rounds"], 2);
  EXPECT_EQ(counts["budget"]["relative"], 0.01);
  EXPECT_GT(counts["verdict"]["lower"].get<double>(), 0.015);
  EXPECT_LT(counts["verdict"]["upper"].get<double>(), 0.021);
  EXPECT_EQ(results["method"]["measure"], Json::array({"instructions"}));
  const std::string report = read_text_file(dir / "out" / "report.md");
  EXPECT_THAT(report, HasSubstr("counted in runs of their own, never timed"));
  EXPECT_THAT(report, HasSubstr("**REGRESSION** after 2 round(s), deterministic"));
  EXPECT_THAT(report, HasSubstr("latency stays the truth"));
}

TEST(AbCounts, TheSameProgramPassesAndAWiderBudgetLetsTwoPercentThrough) {
  const TempDir dir;
  const auto same = run_perfgate(
      {"ab", "--measure", "instructions", "--base", loop(2000), "--repeat-check", "--out", "aa"},
      dir.path());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_THAT(same.out, HasSubstr("adhoc  PASS"));
  const auto wider = run_perfgate({"ab", "--measure", "instructions", "--budget", "instructions=3%",
                                   "--base", loop(2000), "--head", loop(2040), "--out", "wide"},
                                  dir.path());
  EXPECT_EQ(wider.exit_code, 0) << wider.out << wider.err;
}

TEST(AbCounts, TimeAndInstructionsTogetherJudgeBothAndTheWorseWins) {
  const TempDir dir;
  const auto result = run_perfgate(
      {"ab", "--measure", "time,instructions", "--budget", "latency=500%,1s", "--budget",
       "cpu=500%,1s", "--base", loop(2000), "--head", loop(2100), "--out", "out"},
      dir.path());
  // Times within their wide budgets; 5% more instructions over the 1% budget.
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  const Json scenario = Json::parse(read_text_file(dir / "out" / "results.json"))["scenarios"][0];
  EXPECT_EQ(scenario["timed"], true);
  EXPECT_GE(scenario["runs"].size(), 8u);  // warmups and three pairs at least
  EXPECT_EQ(scenario["counts"]["verdict"]["kind"], "REGRESSION");
  EXPECT_EQ(scenario["status"], "REGRESSION");
}

TEST(AbCounts, RefusesBadFlagsAndAMachineThatCannotCountBeforeAnythingRuns) {
  const TempDir dir;
  const auto budget = run_perfgate(
      {"ab", "--budget", "instructions=2%", "--base", "true", "--repeat-check", "--out", "a"},
      dir.path());
  EXPECT_EQ(budget.exit_code, 64);
  EXPECT_THAT(budget.err, HasSubstr("instructions are measured with --measure instructions"));
  const auto malformed =
      run_perfgate({"ab", "--measure", "instructions", "--budget", "instructions=2", "--base",
                    "true", "--repeat-check", "--out", "b"},
                   dir.path());
  EXPECT_EQ(malformed.exit_code, 64);
  EXPECT_THAT(malformed.err, HasSubstr("e.g. instructions=1% or instructions=2%,1000"));
  const auto kinds = run_perfgate(
      {"ab", "--measure", "cycles", "--base", "true", "--repeat-check", "--out", "c"}, dir.path());
  EXPECT_EQ(kinds.exit_code, 64);
  EXPECT_THAT(kinds.err, HasSubstr("--measure cycles: give time, instructions, or both"));
  for (const char* out : {"a", "b", "c"}) EXPECT_FALSE(fs::exists(dir / out)) << out;
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
