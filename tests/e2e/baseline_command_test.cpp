// End-to-end: re-seed a cohort whose baseline legitimately moved, through compare,
// baseline prepare --reseed and approve, then compare again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

constexpr const char* kOldCommit = "1111111111111111111111111111111111111111";
constexpr const char* kNewCommit = "2222222222222222222222222222222222222222";

/// A scheduled-main history of one v2 cohort, fed to compare as the seed's raw records
/// so that each measurement is exact. The store is the default one in the folder.
struct History {
  TempDir dir;
  int runs = 0;
  std::string run_source = "scheduled_main";
  int step_s = 60;                  ///< between one record's timestamp and the next's
  std::string benchmark = "video";  ///< its benchmark_id and workload_id

  // Seed 000's rule: these single-value records are the seed's flow of re-seeding;
  // compare_stat_test.cpp tests --method stat.
  History() { dir.write("perfgate.toml", "[policy]\nmethod = \"seed\"\n"); }

  /// Compares one record of `latency_s` seconds measured at `commit` (each step_s after
  /// the one before) and returns compare's JSON output.
  testing::CliResult compare(double latency_s, const std::string& commit,
                             const std::string& upload) {
    const std::string folder = "runs/" + std::to_string(++runs);
    Json raw = {{"benchmark_id", benchmark},
                {"workload_id", benchmark},
                {"variant_id", "1.3b"},
                {"benchmark_version", 3},
                {"recipe_fingerprint", std::string(64, 'e')},
                {"hardware_profile_id", "hw-0123456789abcdef"},
                {"software_profile_id", "sw-0123456789abcdef"},
                {"device", "NVIDIA L40S"},
                {"run_source", run_source},
                {"commit", commit},
                {"build_id", "build-" + std::to_string(runs)},
                {"timestamp", "2026-11-30T10:" + two_digits(runs * step_s / 60) + ":" +
                                  two_digits(runs * step_s % 60) + "+00:00"},
                {"avg_generation_time_s", latency_s},
                // 8% and 0.25 s: 1.0 s -> 1.5 s regresses.
                {"regression_thresholds",
                 {{"latency",
                   {{"threshold_percent", 0.08}, {"threshold_absolute", 0.25}, {"gated", true}}}}}};
    dir.write(folder + "/perf_video_" + std::to_string(runs) + ".json", raw.dump());
    return perfgate({"compare", "-r", folder, "--upload", upload, "--json"});
  }
  std::string status_of(const testing::CliResult& result) {
    const Json records = Json::parse(result.out);
    return records.size() == 1 ? records[0]["comparison_status"].get<std::string>() : "?";
  }
  testing::CliResult perfgate(const std::vector<std::string>& args) {
    return run_perfgate(args, dir.path());
  }
  static std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

  /// Five eligible records at about 1.0 s: one calibration, approved, then four passes.
  void establish_baseline() {
    ASSERT_EQ(status_of(compare(1.0, kOldCommit, "pass")), "CALIBRATION_NEEDED");
    ASSERT_EQ(perfgate({"baseline", "prepare", "-o", "calibration.json"}).exit_code, 0);
    ASSERT_EQ(perfgate({"baseline", "approve", "calibration.json"}).exit_code, 0);
    for (double latency : {0.98, 1.02, 1.0, 0.99})
      ASSERT_EQ(status_of(compare(latency, kOldCommit, "pass")), "PASS");
  }
  /// Three regressions at about 1.5 s after the upgrade, stored.
  void regress_after_upgrade() {
    for (double latency : {1.5, 1.52, 1.49}) {
      const auto result = compare(latency, kNewCommit, "always");
      ASSERT_EQ(result.exit_code, 1) << result.err;
      ASSERT_EQ(status_of(result), "REGRESSION");
    }
  }
};

TEST(BaselineCommand, PrepareNotesACohortSeededWithinAMinute) {
  // Three calibration records `step_s` apart, in a project whose compare decides by
  // `method`; what prepare says on stderr.
  const auto prepare_after = [](int step_s, const char* method) {
    History h;
    h.dir.write("perfgate.toml", std::string("[policy]\nmethod = \"") + method + "\"\n");
    h.step_s = step_s;
    for (double latency : {1.0, 1.01, 0.99}) {
      EXPECT_EQ(h.status_of(h.compare(latency, kOldCommit, "pass")), "CALIBRATION_NEEDED");
    }
    const auto prepared = h.perfgate({"baseline", "prepare", "-o", "calibration.json"});
    EXPECT_EQ(prepared.exit_code, 0) << prepared.err;
    return prepared.err;
  };
  // 2 s apart, as `perfgate run` back to back makes them.
  const std::string back_to_back = prepare_after(2, "stat");
  EXPECT_THAT(back_to_back, HasSubstr("perfgate: note: cohort video/1.3b/v3/"));
  EXPECT_THAT(back_to_back,
              HasSubstr(": its 3 record(s) were measured within 4 s of one another, one moment "
                        "of this machine. --method stat takes their scatter for all the noise "
                        "between records"));
  EXPECT_THAT(prepare_after(60, "stat"), Not(HasSubstr("one moment"))) << "a minute apart";
  EXPECT_THAT(prepare_after(2, "seed"), Not(HasSubstr("one moment")))
      << "the seed's rule does not read the scatter between records";
}

TEST(BaselineCommand, PrepareShowsControlCharactersOfRecordNamesEscaped) {
  // A benchmark named with ESC sequences (a record from anyone's CI): the manifest keeps the
  // name, the terminal never receives it.
  History h;
  h.dir.write("perfgate.toml", "");  // --method stat, whose note names the cohort too
  h.step_s = 2;
  h.benchmark = "b\x1b[31m<script>'\"";
  for (double latency : {1.0, 1.01}) {
    ASSERT_EQ(h.status_of(h.compare(latency, kOldCommit, "pass")), "CALIBRATION_NEEDED");
  }
  const auto prepared = h.perfgate({"baseline", "prepare", "-o", "m.json"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.err;
  EXPECT_THAT(prepared.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(prepared.err, Not(HasSubstr("\x1b")));
  EXPECT_THAT(prepared.out, HasSubstr("  cohort b\\x1b[31m<script>'\"/1.3b/v3/"));
  EXPECT_THAT(prepared.out, HasSubstr("    b\\x1b[31m<script>'\"  2026-11-30T10:00:0"));
  EXPECT_THAT(prepared.err, HasSubstr("perfgate: note: cohort b\\x1b[31m<script>'\"/1.3b/v3/"));
  const Json manifest = Json::parse(read_text_file(h.dir / "m.json"));
  EXPECT_EQ(manifest["records"][0]["benchmark_id"], "b\x1b[31m<script>'\"");
}

TEST(BaselineCommand, ReseedsACohortWhoseBaselineMovedSoTheNewLevelPasses) {
  History h;
  h.establish_baseline();
  h.regress_after_upgrade();
  // Without a re-seed the cohort fails for ever.
  EXPECT_EQ(h.status_of(h.compare(1.5, kNewCommit, "never")), "REGRESSION");

  const auto prepared =
      h.perfgate({"baseline", "prepare", "--reseed", "--benchmark", "video", "-o", "reseed.json"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.err;
  EXPECT_THAT(prepared.out, HasSubstr("wrote reseed.json (reseed): 3 record(s)"));
  EXPECT_THAT(prepared.out, HasSubstr("REGRESSION  commit 222222222222  latency 1.5 s"));
  const Json manifest = Json::parse(read_text_file(h.dir / "reseed.json"));
  EXPECT_EQ(manifest["mode"], "reseed");
  ASSERT_EQ(manifest["records"].size(), 3u);
  for (const auto& entry : manifest["records"]) {
    EXPECT_EQ(entry["commit_sha"], kNewCommit);
    EXPECT_EQ(entry["run_source"], "scheduled_main");
    EXPECT_EQ(entry["comparison_status"], "REGRESSION");
    EXPECT_EQ(entry["metrics"]["latency"]["unit"], "s");
  }

  const auto approved = h.perfgate({"baseline", "approve", "reseed.json"});
  ASSERT_EQ(approved.exit_code, 0) << approved.err;
  EXPECT_THAT(approved.out, HasSubstr("approved 3 record(s)"));

  const auto next = h.compare(1.5, kNewCommit, "never");
  EXPECT_EQ(next.exit_code, 0) << next.err;
  EXPECT_EQ(h.status_of(next), "PASS");
}

TEST(BaselineCommand, ApprovingTheSameManifestAgainChangesNothingAndSucceeds) {
  History h;
  h.establish_baseline();  // the store has changed since calibration.json was approved
  const auto again = h.perfgate({"baseline", "approve", "calibration.json"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("calibration.json is already approved in"));
  EXPECT_THAT(again.out, HasSubstr("; nothing changed"));
  EXPECT_THAT(again.err, Not(HasSubstr("changed since prepare")));
}

TEST(BaselineCommand, CalibrationDoesNotTakeRegressedRecordsAndPointsToReseed) {
  History h;
  h.establish_baseline();
  h.regress_after_upgrade();
  const auto prepared = h.perfgate({"baseline", "prepare", "-o", "m.json"});
  EXPECT_EQ(prepared.exit_code, 1);
  EXPECT_THAT(prepared.err, HasSubstr("to move an existing baseline, use --reseed"));
}

// The README's loop on a laptop: the records are "local", which perfgate.toml does not trust
// by default. prepare says so, and how to trust it; then the same loop works.
TEST(BaselineCommand, NamesTheUntrustedRunSourceWhenNothingQualifiesAndHowToTrustIt) {
  History h;
  h.run_source = "local";
  ASSERT_EQ(h.status_of(h.compare(1.0, kOldCommit, "pass")), "CALIBRATION_NEEDED");
  const auto prepared = h.perfgate({"baseline", "prepare", "-o", "m.json"});
  EXPECT_EQ(prepared.exit_code, 1);
  EXPECT_THAT(prepared.err,
              HasSubstr("perfgate: no record qualifies: 1 record(s) would, but their run source "
                        "('local') is not trusted to seed a baseline; perfgate.toml trusts "
                        "[\"scheduled_main\"] (trusted_run_sources in [baseline]). A run on your "
                        "own machine is 'local'. To seed from them, add it to perfgate.toml:\n"
                        "  [baseline]\n  trusted_run_sources = [\"scheduled_main\", \"local\"]\n"));
  h.dir.write("perfgate.toml",
              "[baseline]\ntrusted_run_sources = [\"scheduled_main\", \"local\"]\n");
  const auto again = h.perfgate({"baseline", "prepare", "-o", "m.json"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(h.perfgate({"baseline", "approve", "m.json"}).exit_code, 0);
}

TEST(BaselineCommand, ReseedNeedsTheBenchmarksOrCohortItIsFor) {
  History h;
  const auto prepared = h.perfgate({"baseline", "prepare", "--reseed", "-o", "m.json"});
  EXPECT_EQ(prepared.exit_code, 64);
  EXPECT_THAT(prepared.err, HasSubstr("--reseed: needs --benchmark or --cohort"));
}

TEST(BaselineCommand, ReseedKeepsTheNewestCommitOfACohortAndSaysWhichItLeftOut) {
  History h;
  h.establish_baseline();
  ASSERT_EQ(h.compare(1.55, "3333333333333333333333333333333333333333", "always").exit_code, 1);
  h.regress_after_upgrade();
  const auto prepared =
      h.perfgate({"baseline", "prepare", "--reseed", "--benchmark", "video", "-o", "m.json"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.err;
  EXPECT_THAT(prepared.out, HasSubstr("3 record(s)"));
  EXPECT_THAT(prepared.err, HasSubstr("kept the 3 record(s) of the newest batch, commit "
                                      "222222222222; left out commit 333333333333 (1)"));

  const auto mixed = h.perfgate({"baseline", "prepare", "--reseed", "--cohort",
                                 "video/1.3b/v3/eeeeeeeeeeee/hw-0123456789abcdef/"
                                 "sw-0123456789abcdef",
                                 "--allow-mixed-commits", "-o", "mixed.json"});
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_THAT(mixed.out, HasSubstr("4 record(s)"));
  EXPECT_EQ(Json::parse(read_text_file(h.dir / "mixed.json"))["mixed_batches_allowed"], true);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
