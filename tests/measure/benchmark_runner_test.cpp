#include "measure/benchmark_runner.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "support/fake_executor.hpp"
#include "support/fake_host.hpp"
#include "support/probe_report_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

struct RunnerFixture {
  TempDir dir;
  BenchmarkConfig config;
  FakeExecutor executor;

  RunnerFixture() {
    config.source = dir / "bench.toml";
    config.default_cwd = dir.path();
    config.benchmark_id = "bench";
    config.command.argv = {"prog", "--fast"};
    config.run.num_warmup_runs = 1;
    config.run.num_measurement_runs = 2;
  }

  const HostProbe* host = nullptr;

  RawRecord run() {
    BenchmarkState state = expand_states(config).at(0);
    RunEnvironment environment;
    environment.provenance.device = "Test CPU";
    environment.file_stamp = "T";
    environment.host = host;
    BenchmarkRunner runner(executor, dir / "results", environment);
    return runner.run(state);
  }
};

ProcessResult exited(int code, double wall) {
  ProcessResult r;
  r.outcome = ProcessOutcome::kExited;
  r.exit_code = code;
  r.wall_s = wall;
  r.user_s = wall / 2;
  r.peak_rss_mb = 20;
  return r;
}

TEST(BenchmarkRunner, ExcludesWarmupsFromTheSamples) {
  RunnerFixture f;
  f.executor.script = {exited(0, 9.0), exited(0, 1.0), exited(0, 3.0)};
  const RawRecord record = f.run();
  EXPECT_TRUE(record.success);
  ASSERT_EQ(record.runs.size(), 3u);
  EXPECT_TRUE(record.runs[0].warmup);
  EXPECT_EQ(record.metrics.at("latency").samples, (std::vector<double>{1.0, 3.0}));
  EXPECT_EQ(record.metrics.at("cpu_time").summary.mean, 1.0);
}

TEST(BenchmarkRunner, RecordsTheMachineAroundTheRuns) {
  RunnerFixture f;
  testing::FakeHost host;
  host.cores = 2;
  host.files["/proc/loadavg"] = "5.50 4.00 3.00 7/300 99\n";
  f.host = &host;
  f.executor.script = {exited(0, 1.0), exited(0, 1.0), exited(0, 1.0)};
  const RawRecord record = f.run();
  EXPECT_EQ(record.machine_state["cores"], 2);
  EXPECT_EQ(record.machine_state["load_1m_start"], 5.5);
  EXPECT_EQ(record.machine_state["load_1m_end"], 5.5);
  EXPECT_EQ(to_json(record)["machine_state"], record.machine_state);
  // The load is data, not a warning: a record's warnings must not depend on what else
  // the machine was doing (run and ab say it on stderr before they measure).
  EXPECT_TRUE(record.warnings.empty());
  // Without a host (as in every other test here) the record has no machine_state key.
  RunnerFixture quiet;
  quiet.executor.script = {exited(0, 1.0), exited(0, 1.0), exited(0, 1.0)};
  EXPECT_FALSE(to_json(quiet.run()).contains("machine_state"));
}

TEST(BenchmarkRunner, RunsHooksInTheirOrderAroundEveryRun) {
  RunnerFixture f;
  f.config.setup = CommandSpec{{}, "echo setup", true};
  f.config.prepare = CommandSpec{{"prep"}, "", false};
  f.config.conclude = CommandSpec{{"done"}, "", false};
  f.config.cleanup = CommandSpec{{"clean"}, "", false};
  f.config.run.num_warmup_runs = 0;
  f.run();
  std::vector<std::string> programs;
  for (const auto& call : f.executor.calls)
    programs.push_back(call.argv.back() == "--fast" ? "prog" : call.argv[0]);
  EXPECT_EQ(programs, (std::vector<std::string>{"/bin/sh", "prep", "prog", "done", "prep", "prog",
                                                "done", "clean"}));
}

TEST(BenchmarkRunner, StopsAtTheFirstFailedRunAndStillCleansUp) {
  RunnerFixture f;
  f.config.cleanup = CommandSpec{{"clean"}, "", false};
  f.executor.script = {exited(0, 1.0), exited(3, 1.0)};
  const RawRecord record = f.run();
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.failure_reason, "measured run 1 of 2: exit status 3");
  EXPECT_EQ(record.runs.size(), 2u);
  EXPECT_EQ(f.executor.calls.back().argv, std::vector<std::string>{"clean"});
}

TEST(BenchmarkRunner, AnnouncesEachTimedRunBeforeTheOneBeforeItStarts) {
  RunnerFixture f;
  f.config.cleanup = CommandSpec{{"clean"}, "", false};
  f.run();
  // Calls: warmup, measured 1, measured 2, cleanup. Announced before the warmup: measured 1;
  // before measured 1: measured 2; nothing before the last run (the cleanup is a hook).
  ASSERT_EQ(f.executor.calls.size(), 4u);
  ASSERT_EQ(f.executor.announced.size(), 2u);
  EXPECT_EQ(f.executor.announced[0], f.executor.calls[1]);
  EXPECT_EQ(f.executor.announced[1], f.executor.calls[2]);
  EXPECT_EQ(f.executor.announced[1].env.at("PERFGATE_RUN_INDEX"), "2");
  EXPECT_EQ(f.executor.announced[1].log_header.rfind("==> perfgate: measured run 2 of 2: ", 0), 0u);
}

TEST(BenchmarkRunner, KeepsAsManyRunsAnnouncedAsTheExecutorAsksForAndNoneBeyondTheLast) {
  RunnerFixture f;
  f.config.run.num_warmup_runs = 1;
  f.config.run.num_measurement_runs = 5;
  f.executor.to_announce = 3;
  f.run();
  // Before the warmup: measured 1-3; before each measured run, the run 3 after it while
  // there is one.
  ASSERT_EQ(f.executor.calls.size(), 6u);
  ASSERT_EQ(f.executor.announced.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(f.executor.announced[i], f.executor.calls[i + 1]) << i;
  EXPECT_EQ(f.executor.announced[4].env.at("PERFGATE_RUN_INDEX"), "5");
}

TEST(BenchmarkRunner, AnnouncesNoRunWhenAHookRunsBetweenTwoRuns) {
  RunnerFixture f;
  f.config.prepare = CommandSpec{{"prep"}, "", false};
  f.run();
  EXPECT_TRUE(f.executor.announced.empty());
  RunnerFixture g;
  g.config.conclude = CommandSpec{{"done"}, "", false};
  g.run();
  EXPECT_TRUE(g.executor.announced.empty());
}

TEST(BenchmarkRunner, ReportsAFailedSetupWithoutRunningTheCommand) {
  RunnerFixture f;
  f.config.setup = CommandSpec{{"setup-db"}, "", false};
  f.executor.script = {exited(2, 0.1)};
  const RawRecord record = f.run();
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.failure_reason, "setup hook failed: exit status 2");
  EXPECT_TRUE(record.runs.empty());
  EXPECT_EQ(f.executor.calls.size(), 1u);
}

// A run's files are removed once read: the folder is empty again for the next run, and
// looking for a run's reports never lists those of the runs before it.
TEST(BenchmarkRunner, RemovesEachRunsFilesOnceReadAndStillReadsEveryRun) {
  RunnerFixture f;
  f.config.run.num_warmup_runs = 0;
  f.config.run.num_measurement_runs = 4;
  std::vector<std::size_t> files_before_run;
  int value = 0;
  f.executor.on_run = [&](const ProcessSpec& spec) {
    const auto it = spec.env.find("PERFGATE_METRICS_OUT");
    if (it == spec.env.end()) return;
    const std::filesystem::path folder = std::filesystem::path(it->second).parent_path();
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().filename() != ".perfgate-owner") ++files;
    }
    files_before_run.push_back(files);
    std::ofstream(it->second) << "{\"name\": \"stage\", \"value\": " << ++value << "}\n";
    // A forked child's report beside the program's (probe-N.<pid>.json).
    std::ofstream(folder / ("probe-" + spec.env.at("PERFGATE_RUN_INDEX") + ".4242.json"))
        << testing::kProbeReportText;
  };
  const RawRecord record = f.run();
  ASSERT_TRUE(record.success) << record.failure_reason;
  EXPECT_EQ(record.metrics.at("stage").samples, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(files_before_run, (std::vector<std::size_t>{0, 0, 0, 0}));
}

TEST(BenchmarkRunner, GivesEachRunItsOwnMetricsFileAndReadsItBack) {
  RunnerFixture f;
  f.config.run.num_warmup_runs = 0;
  int value = 0;
  f.executor.on_run = [&](const ProcessSpec& spec) {
    const auto it = spec.env.find("PERFGATE_METRICS_OUT");
    if (it == spec.env.end()) return;
    std::ofstream(it->second, std::ios::app)
        << "{\"name\": \"stage\", \"value\": " << ++value << "}\n";
  };
  const RawRecord record = f.run();
  ASSERT_TRUE(record.success) << record.failure_reason;
  EXPECT_EQ(record.metrics.at("stage").samples, (std::vector<double>{1, 2}));
  EXPECT_EQ(record.runs[1].reported.at("stage"), 2);
}

TEST(BenchmarkRunner, FailsARunWhoseMetricsFileIsMalformed) {
  RunnerFixture f;
  f.config.run.num_warmup_runs = 0;
  f.executor.on_run = [](const ProcessSpec& spec) {
    std::ofstream(spec.env.at("PERFGATE_METRICS_OUT")) << "not json\n";
  };
  const RawRecord record = f.run();
  EXPECT_FALSE(record.success);
  EXPECT_NE(record.failure_reason.find("invalid metrics file: "), std::string::npos);
  const auto kept = f.dir / "results" / "worker_logs" / "metrics_bench_T_measured_run_1_of_2.jsonl";
  EXPECT_NE(record.failure_reason.find(kept.string() + ":1: "), std::string::npos)
      << record.failure_reason;
  EXPECT_EQ(read_text_file(kept), "not json\n");
}

TEST(BenchmarkRunner, TurnsTheTopLevelRegionsOfEachRunsProbeReportIntoComponentMetrics) {
  RunnerFixture f;
  f.config.run.num_warmup_runs = 0;
  std::vector<std::string> probe_paths;
  f.executor.on_run = [&](const ProcessSpec& spec) {
    probe_paths.push_back(spec.env.at("PERFGATE_PROBE_OUT"));
    Json report = testing::probe_report_json();
    // The second process spends twice as long in every region.
    if (probe_paths.size() == 2) {
      for (auto& run : report["runs"]) {
        for (auto& region : run["regions"])
          region["wall_time_us"] = region["wall_time_us"].get<double>() * 2;
      }
    }
    std::ofstream(probe_paths.back()) << report.dump();
  };
  const RawRecord record = f.run();
  ASSERT_TRUE(record.success) << record.failure_reason;
  ASSERT_EQ(probe_paths.size(), 2u);
  EXPECT_NE(probe_paths[0], probe_paths[1]);
  EXPECT_EQ(record.metrics.at("frame").samples, (std::vector<double>{0.075, 0.15}));
  EXPECT_EQ(record.metrics.at("render").samples, (std::vector<double>{0.055, 0.11}));
  EXPECT_EQ(record.metrics.at("frame").metric.unit, "s");
  EXPECT_EQ(record.metrics.count("frame/decode"), 0u);
  EXPECT_EQ(record.runs[1].reported.at("render"), 0.11);
}

TEST(BenchmarkRunner, FailsARunWhoseProbeReportIsMalformedAndKeepsTheFile) {
  RunnerFixture f;
  f.config.run.num_warmup_runs = 0;
  f.executor.on_run = [](const ProcessSpec& spec) {
    Json report = testing::probe_report_json();
    report["runs"][0]["timing"].erase("cpu_time_us");
    std::ofstream(spec.env.at("PERFGATE_PROBE_OUT")) << report.dump();
  };
  const RawRecord record = f.run();
  EXPECT_FALSE(record.success);
  const auto kept = f.dir / "results" / "worker_logs" / "probe_bench_T_measured_run_1_of_2.json";
  EXPECT_EQ(record.failure_reason,
            "measured run 1 of 2: invalid probe report: " + kept.string() +
                ": runs[0].timing.cpu_time_us: missing. Add the field; every file "
                "perfgate writes in this layout carries it");
  EXPECT_EQ(Json::parse(read_text_file(kept))["target"]["pid"], 4242);
}

TEST(BenchmarkRunner, RunsInTheWorkingFolderWithThePlaceholdersFilledIn) {
  RunnerFixture f;
  f.config.command.argv = {"prog", "{n}"};
  f.config.parameters = {{"n", {"7"}}};
  f.config.run.num_warmup_runs = 0;
  f.config.run.num_measurement_runs = 1;
  const RawRecord record = f.run();
  ASSERT_EQ(f.executor.calls.size(), 1u);
  EXPECT_EQ(f.executor.calls[0].argv, (std::vector<std::string>{"prog", "7"}));
  EXPECT_EQ(f.executor.calls[0].cwd, f.dir.path());
  EXPECT_EQ(record.identity.benchmark_id, "bench[n=7]");
  EXPECT_EQ(record.recipe["parameters"]["n"], "7");
}

TEST(BenchmarkRunner, StartsABareProgramNameFromThePathTheConfigsEnvSets) {
  RunnerFixture f;
  const auto tool = f.dir.write("tools/prog", "#!/bin/sh\n");
  std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
  f.config.env["PATH"] = (f.dir / "tools").string();
  f.config.run.num_warmup_runs = 0;
  f.config.run.num_measurement_runs = 1;
  f.run();
  ASSERT_EQ(f.executor.calls.size(), 1u);
  EXPECT_EQ(f.executor.calls[0].argv, (std::vector<std::string>{tool.string(), "--fast"}));
  EXPECT_EQ(f.executor.calls[0].env.at("PATH"), (f.dir / "tools").string());
}

TEST(BenchmarkRunner, KeepsBenchmarkIdOutOfTheRecipeOfAV2Config) {
  RunnerFixture f;
  f.config.config_schema_version = 2;
  f.config.workload_id = "w";
  f.config.variant_id = "v";
  f.config.benchmark_version = 3;
  const RawRecord a = f.run();
  f.config.benchmark_id = "renamed";
  const RawRecord b = f.run();
  EXPECT_EQ(a.recipe_fingerprint, b.recipe_fingerprint);
  EXPECT_EQ(a.recipe["benchmark"],
            (Json{{"workload_id", "w"}, {"variant_id", "v"}, {"benchmark_version", 3}}));
}

TEST(BenchmarkRunner, GatesDevicesBySubstringOfTheDeviceName) {
  BenchmarkConfig config;
  EXPECT_FALSE(device_skip_reason(config, "anything", 0));
  config.run.device_types = {"L40S", "H100"};
  EXPECT_FALSE(device_skip_reason(config, "NVIDIA H100 80GB HBM3", 1));
  EXPECT_EQ(device_skip_reason(config, "NVIDIA A100", 1),
            "device 'NVIDIA A100' matches none of run_config.device_types");
}

TEST(BenchmarkRunner, SkipsAConfigThatNeedsMoreGpusThanTheMachineHas) {
  BenchmarkConfig config;
  config.run.required_gpus = 2;
  EXPECT_EQ(device_skip_reason(config, "NVIDIA L40S", 1),
            "needs 2 GPU(s) (run_config.required_gpus), this machine has 1");
  EXPECT_FALSE(device_skip_reason(config, "NVIDIA L40S", 2));
}

TEST(BenchmarkRunner, MakesFileNameSafeSlugs) {
  EXPECT_EQ(file_slug("sort[n=1e6,t=a/b]"), "sort_n_1e6_t_a_b_");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
