// End-to-end: instruction counts (issue 36) through the real binary and Debian's valgrind:
// a deterministic shell loop counted the same in every counted run, compare catching 2%
// more work that no timing on a busy machine could, and the refusals before anything runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;
namespace fs = std::filesystem;

/// A project whose one benchmark runs `sh work.sh`, a loop of `iterations` steps; the
/// script is not an input of the config, so changing it keeps the cohort (as a code
/// change between two commits does).
struct CountedProject {
  TempDir dir;
  explicit CountedProject(const std::string& measure = R"(["instructions"])") {
    dir.write("perfgate.toml", "[baseline]\ntrusted_run_sources = [\"local\"]\n");
    dir.write("loop.toml", R"(benchmark_id = "loop"
config_schema_version = 2
workload_id = "loop"
variant_id = "sh"
benchmark_version = 1
command = ["/bin/sh", "work.sh"]
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
counter = "valgrind"
measure = )" + measure + "\n");
    loop(2000);
  }
  void loop(int iterations) {
    dir.write("work.sh",
              "i=0; while [ $i -lt " + std::to_string(iterations) + " ]; do i=$((i+1)); done\n");
  }
  testing::CliResult perfgate(const std::vector<std::string>& args) {
    return run_perfgate(args, dir.path(),
                        {{"PERFGATE_STORE", "sqlite:" + (dir / "s.db").string()}});
  }
  Json run_record(const std::string& folder) {
    const auto run = perfgate({"run", "loop.toml", "-r", folder, "--json", "--no-progress"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const Json records = Json::parse(run.out);
    return records.size() == 1 ? records[0] : Json();
  }
};

TEST(RunCounts, CountsADeterministicProgramTheSameInEveryCountedRunAndSaysHow) {
  CountedProject project(R"(["time", "instructions"])");
  const Json record = project.run_record("out");
  const Json& metrics = record["metrics"];
  for (const char* name : {"latency", "cpu_time", "memory", "instructions", "l1_misses",
                           "ll_misses", "estimated_cycles"}) {
    EXPECT_TRUE(metrics.contains(name)) << name;
  }
  const Json& instructions = metrics["instructions"]["samples"];
  ASSERT_EQ(instructions.size(), 2u);
  EXPECT_EQ(instructions[0], instructions[1]);  // deterministic: not one instruction apart
  EXPECT_GT(instructions[0].get<double>(), 1e6);
  EXPECT_EQ(metrics["instructions"]["unit"], "instructions");
  EXPECT_EQ(metrics["latency"]["samples"].size(), 2u);  // the timed runs, as before
  // Two timed runs, and the counted runs are not among them (never timed under valgrind).
  EXPECT_EQ(record["runs"].size(), 2u);
  const Json& measure = record["recipe"]["measure"];
  EXPECT_EQ(measure["mode"], "wall");
  EXPECT_EQ(measure["kinds"], Json::array({"time", "instructions"}));
  EXPECT_EQ(measure["counter"]["backend"], "valgrind");
  EXPECT_EQ(measure["counter"]["tool"], "callgrind");
  EXPECT_EQ(record["recipe"]["run_config"]["num_count_runs"], 2);
}

TEST(RunCounts, CompareCatchesTwoPercentMoreWorkAndPassesTheSameProgram) {
  CountedProject project;
  for (int i = 1; i <= 3; ++i) {
    const std::string folder = "seed/" + std::to_string(i);
    ASSERT_EQ(project.perfgate({"run", "loop.toml", "-r", folder, "--no-progress"}).exit_code, 0);
    const auto stored =
        project.perfgate({"compare", "--init", "--all", "-r", folder, "--upload", "pass"});
    ASSERT_EQ(stored.exit_code, 0) << stored.err;
  }
  ASSERT_EQ(
      project.perfgate({"baseline", "prepare", "--allow-mixed-commits", "-o", "b.json"}).exit_code,
      0);
  ASSERT_EQ(project.perfgate({"baseline", "approve", "b.json"}).exit_code, 0);

  ASSERT_EQ(project.perfgate({"run", "loop.toml", "-r", "same", "--no-progress"}).exit_code, 0);
  const auto same = project.perfgate({"compare", "-r", "same", "--json"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  const Json same_record = Json::parse(same.out)[0];
  EXPECT_EQ(same_record["comparison_status"], "PASS");

  project.loop(2040);  // 2% more iterations
  ASSERT_EQ(project.perfgate({"run", "loop.toml", "-r", "more", "--no-progress"}).exit_code, 0);
  const auto more = project.perfgate({"compare", "-r", "more", "--json"});
  EXPECT_EQ(more.exit_code, 1) << more.out << more.err;
  const Json record = Json::parse(more.out)[0];
  EXPECT_EQ(record["comparison_status"], "REGRESSION");
  bool judged = false;
  for (const Json& row : record["comparisons"]) {
    if (row["metric"] != "instructions") continue;
    judged = true;
    EXPECT_EQ(row["regressed"], true);
    EXPECT_EQ(row["policy"]["threshold_percent"], 0.01);
    EXPECT_EQ(row["policy"]["threshold_absolute"], 0);
    // The loop is 2% longer; the program's start-up is a few thousand instructions of it.
    EXPECT_GT(row["percent_delta"].get<double>(), 0.015) << row.dump();
    EXPECT_LT(row["percent_delta"].get<double>(), 0.021) << row.dump();
  }
  EXPECT_TRUE(judged) << record.dump();
}

TEST(RunCounts, CountsEachProbeRegionSoCompareSaysWhichStageGrew) {
  TempDir dir;
  dir.write("perfgate.toml", "[baseline]\ntrusted_run_sources = [\"local\"]\n");
  dir.write("stages.toml", std::string(R"(benchmark_id = "stages"
config_schema_version = 2
workload_id = "stages"
variant_id = "probe"
benchmark_version = 1
command = [")") + PERFGATE_PROBE_STAGES_PROGRAM +
                               R"(", "work.txt"]
[run_config]
counter = "valgrind"
measure = ["instructions"]
)");
  dir.write("work.txt", "20000 3000\n");
  const std::map<std::string, std::string> env = {
      {"PERFGATE_STORE", "sqlite:" + (dir / "s.db").string()}};
  const auto perfgate = [&](const std::vector<std::string>& args) {
    return run_perfgate(args, dir.path(), env);
  };
  const auto first = perfgate({"run", "stages.toml", "-r", "seed/1", "--json", "--no-progress"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const Json metrics = Json::parse(first.out)[0]["metrics"];
  for (const char* stage : {"parse.instructions", "sort.instructions"}) {
    ASSERT_TRUE(metrics.contains(stage)) << metrics.dump();
    const Json& samples = metrics[stage]["samples"];
    ASSERT_EQ(samples.size(), 2u);  // the two counted runs
    EXPECT_EQ(samples[0], samples[1]) << stage;
    EXPECT_GT(samples[0].get<double>(), 10000) << stage;
    EXPECT_EQ(metrics[stage]["unit"], "instructions");
  }
  // Each stage is part of the program's whole count.
  EXPECT_LT(metrics["parse.instructions"]["samples"][0].get<double>() +
                metrics["sort.instructions"]["samples"][0].get<double>(),
            metrics["instructions"]["samples"][0].get<double>());

  for (int i = 1; i <= 3; ++i) {
    const std::string folder = "seed/" + std::to_string(i);
    if (i > 1) {
      ASSERT_EQ(perfgate({"run", "stages.toml", "-r", folder, "--no-progress"}).exit_code, 0);
    }
    ASSERT_EQ(perfgate({"compare", "--init", "--all", "-r", folder, "--upload", "pass"}).exit_code,
              0);
  }
  ASSERT_EQ(perfgate({"baseline", "prepare", "--allow-mixed-commits", "-o", "b.json"}).exit_code,
            0);
  ASSERT_EQ(perfgate({"baseline", "approve", "b.json"}).exit_code, 0);

  dir.write("work.txt", "20000 3300\n");  // the sort stage sorts 10% more
  ASSERT_EQ(perfgate({"run", "stages.toml", "-r", "more", "--no-progress"}).exit_code, 0);
  const auto more = perfgate({"compare", "-r", "more", "--json"});
  EXPECT_EQ(more.exit_code, 1) << more.out << more.err;
  const Json record = Json::parse(more.out)[0];
  EXPECT_EQ(record["comparison_status"], "REGRESSION");
  std::map<std::string, Json> rows;
  for (const Json& row : record["comparisons"]) rows[row["metric"].get<std::string>()] = row;
  ASSERT_TRUE(rows.count("sort.instructions") && rows.count("parse.instructions")) << record.dump();
  EXPECT_EQ(rows["sort.instructions"]["regressed"], true);
  EXPECT_EQ(rows["sort.instructions"]["policy"]["threshold_percent"], 0.01);
  // 10% more elements to fill and sort: +8.5% here (the stage's fixed part does not grow).
  EXPECT_GT(rows["sort.instructions"]["percent_delta"].get<double>(), 0.05);
  EXPECT_LT(rows["sort.instructions"]["percent_delta"].get<double>(), 0.15);
  EXPECT_EQ(rows["parse.instructions"]["regressed"], false);
  EXPECT_EQ(rows["parse.instructions"]["percent_delta"], 0.0);  // not one instruction moved
}

TEST(RunCounts, DiffOfTwoRunFoldersDecidesTheInstructionsBesideTheLatency) {
  CountedProject project;
  ASSERT_EQ(project.perfgate({"run", "loop.toml", "-r", "base", "--no-progress"}).exit_code, 0);
  ASSERT_EQ(project.perfgate({"run", "loop.toml", "-r", "same", "--no-progress"}).exit_code, 0);
  project.loop(2040);  // 2% more iterations
  ASSERT_EQ(project.perfgate({"run", "loop.toml", "-r", "more", "--no-progress"}).exit_code, 0);

  // Each -r folder holds one run-<stamp> folder; two of them pair record by record.
  const auto run_folder = [&](const std::string& results) {
    for (const auto& entry : fs::directory_iterator(project.dir / results)) {
      if (entry.path().filename().string().rfind("run-", 0) == 0) return entry.path().string();
    }
    ADD_FAILURE() << "no run folder in " << results;
    return std::string();
  };
  const std::string base = run_folder("base");
  const auto more =
      project.perfgate({"diff", "--format", "md", "--fail-on", "slow", base, run_folder("more")});
  EXPECT_EQ(more.exit_code, 1) << more.out << more.err;
  EXPECT_THAT(more.out, HasSubstr("### Instructions (instructions)\n"));
  EXPECT_THAT(more.out, HasSubstr("- Instructions (instructions, beside latency): 1 matches; SAME "
                                  "0, FAST 0, SLOW 1, AMBG 0, ???? 0"));
  const auto same =
      project.perfgate({"diff", "--format", "json", "--fail-on", "slow", base, run_folder("same")});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  const Json document = Json::parse(same.out)["files"][0];
  EXPECT_EQ(document["summary"]["instructions"]["same"], 1) << document.dump();
  EXPECT_EQ(document["sections"][0]["rows"][0]["instructions"]["status"], "SAME");
  // Counts alone: no timed runs, so the latency cannot be compared, and says so.
  EXPECT_EQ(document["sections"][0]["rows"][0]["status"], "????");
}

TEST(RunCounts, MeasureInstructionsAloneMakesOnlyCountedRuns) {
  const TempDir dir;
  const auto run =
      run_perfgate({"run", "--measure", "instructions", "--json", "--no-progress", "--", "sh", "-c",
                    "i=0; while [ $i -lt 300 ]; do i=$((i+1)); done"},
                   dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json record = Json::parse(run.out)[0];
  EXPECT_TRUE(record["metrics"].contains("instructions"));
  EXPECT_FALSE(record["metrics"].contains("latency"));
  EXPECT_EQ(record["runs"].size(), 0u);
  EXPECT_EQ(record["recipe"]["measure"]["mode"], "counts");
  EXPECT_EQ(record["metrics"]["instructions"]["samples"].size(), 2u);
}

TEST(RunCounts, DryRunSaysWhichRunsAreCountedAndHow) {
  CountedProject project(R"(["time", "instructions"])");
  const auto plan = project.perfgate({"run", "loop.toml", "--dry-run"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("loop  0 warmup + 2 measured run(s) + 2 counted run(s) "
                                  "(valgrind), no timeout"));
  // A suite after --measure is the suite, not a second kind to measure.
  const auto flag_then_suite =
      project.perfgate({"run", "--measure", "instructions", "loop.toml", "--dry-run"});
  ASSERT_EQ(flag_then_suite.exit_code, 0) << flag_then_suite.err;
  EXPECT_THAT(flag_then_suite.out, HasSubstr("loop  2 counted run(s) (valgrind), no timeout"));
}

TEST(RunCounts, RefusesBeforeAnythingRunsWhenTheMachineCannotCount) {
  CountedProject project;
  // No valgrind on this PATH.
  const auto run = run_perfgate({"run", "loop.toml", "-r", "out"}, project.dir.path(),
                                {{"PATH", "/nonexistent"}});
  EXPECT_EQ(run.exit_code, 66) << run.err;
  EXPECT_THAT(run.err, HasSubstr("run_config.counter = \"valgrind\": valgrind is not installed "
                                 "(apt-get install valgrind)"));
  EXPECT_FALSE(fs::exists(project.dir / "out"));
  const auto flag = project.perfgate({"run", "loop.toml", "--measure", "time,cycles"});
  EXPECT_EQ(flag.exit_code, 64);
  EXPECT_THAT(flag.err, HasSubstr("--measure time,cycles: give time, instructions, or both"));
}

// perfgate's own hardware-counter wrapper: where the CPU has counters it runs the program
// and writes its counts; where not (virtual machines, as CI's), it says why and runs nothing.
TEST(RunCounts, TheHardwareWrapperCountsOrSaysWhyItCannot) {
  const TempDir dir;
  const auto counts = dir / "counts.json";
  const auto wrapped =
      run_perfgate({"__count-hardware", counts.string(), "--", "sh", "-c", "exit 4"}, dir.path());
  if (wrapped.exit_code == 70) {
    EXPECT_THAT(wrapped.err, HasSubstr("perfgate: hardware counters: perf_event_open("));
    EXPECT_FALSE(fs::exists(counts));
    return;
  }
  EXPECT_EQ(wrapped.exit_code, 4) << wrapped.err;
  const Json written = Json::parse(read_text_file(counts));
  EXPECT_GT(written["instructions"].get<double>(), 0);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
