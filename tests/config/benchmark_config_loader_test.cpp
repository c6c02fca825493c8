#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/project_config.hpp"
#include "config/suite_loader.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

const char* const kFullJson = R"({
  "benchmark_id": "wan-t2v-1.3b",
  "config_schema_version": 2,
  "workload_id": "wan-t2v",
  "variant_id": "1.3b-sp2",
  "benchmark_version": 3,
  "description": "text to video",
  "command": ["./bench", "--frames", "{frames}"],
  "cwd": "work",
  "env": {"THREADS": "{threads}", "MODE": "fast"},
  "setup": "make -j4",
  "prepare": ["./drop-caches"],
  "conclude": "sync",
  "cleanup": ["rm", "-rf", "out"],
  "inputs": ["data/prompts.txt"],
  "parameters": {"threads": [1, 8], "frames": [45, 0.5], "precision": ["bf16"]},
  "run_config": {"num_warmup_runs": 2, "num_measurement_runs": 5, "timeout_s": 600,
                 "device_types": ["L40S"], "required_gpus": 1},
  "throughput": {"units_per_run": 45, "unit": "frames"},
  "component_metrics": {"dit_time_s": "dit"},
  "thresholds": {
    "L40S": {"max_latency_s": 34.5, "max_memory_mb": 11000, "max_dit_time_s": 10,
             "min_throughput": 1.5},
    "default": {"max_latency_s": 120, "max_memory_mb": 30000, "max_cpu_time_s": 500,
                "max_gpu_memory_mb": 20000}
  },
  "regression_thresholds": {
    "latency": {"threshold_percent": 0.1, "threshold_absolute": 1.0, "gated": false}
  },
  "quality_metadata": {"metric": "clip", "min": 0.3}
})";

const char* const kFullToml = R"(
benchmark_id = "wan-t2v-1.3b"
config_schema_version = 2
workload_id = "wan-t2v"
variant_id = "1.3b-sp2"
benchmark_version = 3
description = "text to video"
command = ["./bench", "--frames", "{frames}"]
cwd = "work/"
env = { THREADS = "{threads}", MODE = "fast" }
setup = "make -j4"
prepare = ["./drop-caches"]
conclude = "sync"
cleanup = ["rm", "-rf", "out"]
inputs = ["data/prompts.txt"]

[parameters]
threads = [1, 8]
frames = [45, 0.5]
precision = ["bf16"]

[run_config]
num_warmup_runs = 2
num_measurement_runs = 5
timeout_s = 600
device_types = ["L40S"]
required_gpus = 1

[throughput]
units_per_run = 45
unit = "frames"

[component_metrics]
dit_time_s = "dit"

[thresholds.L40S]
max_latency_s = 34.5
max_memory_mb = 11000
max_dit_time_s = 10
min_throughput = 1.5

[thresholds.default]
max_latency_s = 120
max_memory_mb = 30000
max_cpu_time_s = 500
max_gpu_memory_mb = 20000

[regression_thresholds.latency]
threshold_percent = 0.1
threshold_absolute = 1.0
gated = false

[quality_metadata]
metric = "clip"
min = 0.3
)";

TEST(BenchmarkConfigLoader, LoadsTheSameConfigFromJsonAndTomlToEqualValues) {
  TempDir dir;
  dir.write("data/prompts.txt", "a cat\n");
  BenchmarkConfig from_json = load_benchmark_config(dir.write("a.json", kFullJson));
  BenchmarkConfig from_toml = load_benchmark_config(dir.write("a.toml", kFullToml));
  EXPECT_EQ(from_json.source, dir.path() / "a.json");
  from_json.source = from_toml.source;
  EXPECT_EQ(from_json, from_toml);
}

TEST(BenchmarkConfigLoader, ReadsEveryFieldOfAFullConfig) {
  TempDir dir;
  dir.write("data/prompts.txt", "a cat\n");
  const BenchmarkConfig config = load_benchmark_config(dir.write("a.toml", kFullToml));
  EXPECT_EQ(config.benchmark_id, "wan-t2v-1.3b");
  EXPECT_TRUE(config.is_v2());
  EXPECT_EQ(config.workload_id, "wan-t2v");
  EXPECT_EQ(config.variant_id, "1.3b-sp2");
  EXPECT_EQ(config.benchmark_version, 3);
  EXPECT_EQ(config.description, "text to video");
  EXPECT_EQ(config.command.argv, (std::vector<std::string>{"./bench", "--frames", "{frames}"}));
  EXPECT_FALSE(config.command.shell);
  EXPECT_EQ(config.cwd, dir.path() / "work");
  EXPECT_EQ(config.env,
            (std::map<std::string, std::string>{{"MODE", "fast"}, {"THREADS", "{threads}"}}));
  EXPECT_EQ(config.setup->script, "make -j4");
  EXPECT_TRUE(config.setup->shell);
  EXPECT_EQ(config.prepare->argv, std::vector<std::string>{"./drop-caches"});
  EXPECT_EQ(config.conclude->script, "sync");
  EXPECT_EQ(config.cleanup->argv, (std::vector<std::string>{"rm", "-rf", "out"}));
  EXPECT_EQ(config.inputs, std::vector<std::filesystem::path>{dir.path() / "data/prompts.txt"});
  using Axes = std::vector<std::pair<std::string, std::vector<std::string>>>;
  EXPECT_EQ(config.parameters,
            (Axes{{"threads", {"1", "8"}}, {"frames", {"45", "0.5"}}, {"precision", {"bf16"}}}));
  EXPECT_EQ(config.run.num_warmup_runs, 2);
  EXPECT_EQ(config.run.num_measurement_runs, 5);
  EXPECT_EQ(config.run.timeout_s, 600.0);
  EXPECT_EQ(config.run.device_types, std::vector<std::string>{"L40S"});
  EXPECT_EQ(config.run.required_gpus, 1);
  EXPECT_EQ(config.throughput, (ThroughputSpec{45.0, "frames"}));
  EXPECT_EQ(config.component_metrics.at("dit_time_s"), "dit");
  EXPECT_EQ(
      config.thresholds.at("L40S").limits,
      (std::map<std::string, double>{
          {"latency", 34.5}, {"memory", 11000.0}, {"dit_time_s", 10.0}, {"throughput", 1.5}}));
  EXPECT_EQ(
      config.thresholds.at("default").limits,
      (std::map<std::string, double>{
          {"latency", 120.0}, {"memory", 30000.0}, {"cpu_time", 500.0}, {"gpu_memory", 20000.0}}));
  EXPECT_EQ(config.regression_thresholds.at("latency"), (MetricPolicy{0.1, 1.0, false}));
  EXPECT_EQ(config.quality_metadata, (Json{{"metric", "clip"}, {"min", 0.3}}));
}

TEST(BenchmarkConfigLoader, KeepsTomlParameterAxesInFileOrderNotAlphabetical) {
  TempDir dir;
  const BenchmarkConfig config = load_benchmark_config(
      dir.write("a.toml",
                "benchmark_id = \"p\"\ncommand = \"true\"\n"
                "parameters = { zeta = [\"z\"], alpha = [\"a\"], mid = [2.50, 1e-7] }\n"));
  ASSERT_EQ(config.parameters.size(), 3u);
  EXPECT_EQ(config.parameters[0].first, "zeta");
  EXPECT_EQ(config.parameters[1].first, "alpha");
  EXPECT_EQ(config.parameters[2].first, "mid");
  EXPECT_EQ(config.parameters[2].second, (std::vector<std::string>{"2.5", "1e-07"}));
}

TEST(BenchmarkConfigLoader, MapsTheSeedAliasesToCanonicalNames) {
  TempDir dir;
  const BenchmarkConfig config = load_benchmark_config(dir.write("a.json", R"({
    "benchmark_id": "seed", "command": ["./bench"],
    "run_config": {"gpu_types": ["GB10"]},
    "thresholds": {
      "GB10": {"max_generation_time_s": 34, "max_peak_memory_mb": 11000},
      "default": {"max_generation_time_s": 120, "max_peak_memory_mb": 30000}}})"));
  EXPECT_EQ(config.run.device_types, std::vector<std::string>{"GB10"});
  EXPECT_EQ(config.thresholds.at("GB10").limits,
            (std::map<std::string, double>{{"latency", 34.0}, {"memory", 11000.0}}));
}

TEST(BenchmarkConfigLoader, MatchesDeviceTypesToThresholdKeysBySubstringEitherWay) {
  TempDir dir;
  const BenchmarkConfig config = load_benchmark_config(dir.write("a.json", R"({
    "benchmark_id": "d", "command": ["./bench"],
    "run_config": {"device_types": ["NVIDIA L40S", "H100"]},
    "thresholds": {
      "L40S": {"max_latency_s": 1, "max_memory_mb": 1},
      "NVIDIA H100 80GB": {"max_latency_s": 1, "max_memory_mb": 1},
      "default": {"max_latency_s": 2, "max_memory_mb": 2}}})"));
  EXPECT_EQ(config.thresholds.size(), 3u);
}

TEST(BenchmarkConfigLoader, AppliesProjectRunDefaultsThatTheConfigDoesNotSet) {
  TempDir dir;
  ProjectConfig project;
  project.num_warmup_runs = 0;
  project.num_measurement_runs = 10;
  project.timeout_s = 30.0;
  const BenchmarkConfig config = load_benchmark_config(
      dir.write("a.toml", "benchmark_id = \"a\"\ncommand = \"true\"\n"), project);
  EXPECT_EQ(config.run.num_warmup_runs, 0);
  EXPECT_EQ(config.run.num_measurement_runs, 10);
  EXPECT_EQ(config.run.timeout_s, 30.0);
}

TEST(BenchmarkConfigLoader, LetsConfigRunSettingsWinOverProjectDefaults) {
  TempDir dir;
  ProjectConfig project;
  project.num_warmup_runs = 0;
  project.num_measurement_runs = 10;
  project.timeout_s = 30.0;
  const BenchmarkConfig config = load_benchmark_config(
      dir.write("a.toml",
                "benchmark_id = \"a\"\ncommand = \"true\"\n[run_config]\nnum_warmup_runs = 4\n"
                "timeout_s = 2.5\n"),
      project);
  EXPECT_EQ(config.run.num_warmup_runs, 4);
  EXPECT_EQ(config.run.num_measurement_runs, 10);
  EXPECT_EQ(config.run.timeout_s, 2.5);
}

TEST(BenchmarkConfigLoader, UsesBuiltInRunDefaultsWithoutAProject) {
  TempDir dir;
  const BenchmarkConfig config =
      load_benchmark_config(dir.write("a.json", R"({"benchmark_id": "a", "command": "true"})"));
  EXPECT_EQ(config.run, (RunSettings{1, 3, std::nullopt, {}, 0}));
  EXPECT_EQ(config.config_schema_version, 1);
  EXPECT_TRUE(config.thresholds.empty());
  EXPECT_EQ(config.quality_metadata, Json::object());
}

TEST(BenchmarkConfigLoader, AnUnknownKeyInRunConfigDoesNotHideItsOtherErrors) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = "true"
[run_config]
num_warmup_run = 1
num_measurement_runs = 0
[thresholds.default]
min_latency_s = 1
max_latency_s = 1
max_memory_mb = -5
)");
  try {
    load_benchmark_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    const std::string f = file.string();
    const std::string message = error.what();
    EXPECT_THAT(message,
                ::testing::HasSubstr(f +
                                     ": run_config.num_warmup_run: unknown key 'num_warmup_run'. "
                                     "Did you mean 'num_warmup_runs'?\n" +
                                     f +
                                     ": run_config.num_measurement_runs: must be at least 1, found "
                                     "0. Set it to 1 or more"));
    EXPECT_THAT(message,
                ::testing::HasSubstr(f + ": thresholds.default.min_latency_s: unknown key"));
    EXPECT_THAT(message, ::testing::HasSubstr(
                             f + ": thresholds.default.max_memory_mb: must be greater than 0"));
  }
}

TEST(BenchmarkConfigLoader, ReportsEveryProblemOfOneFileTogether) {
  TempDir dir;
  const auto file = dir.write("a.json", R"({"benchmark_id": "a b", "comand": "x",
      "run_config": {"num_measurement_runs": 0}})");
  try {
    load_benchmark_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    const std::string f = file.string();
    EXPECT_EQ(std::string(error.what()),
              f +
                  ": benchmark_id: contains ' ', which is not allowed. Use letters, digits, "
                  "'.', '_' and '-', starting with a letter or digit; the id becomes part of "
                  "file names\n" +
                  f + ": comand: unknown key 'comand'. Did you mean 'command'?\n" + f +
                  ": run_config.num_measurement_runs: must be at least 1, found 0. Set it to 1 "
                  "or more\n" +
                  f +
                  ": command: missing required key. Add the command to measure, as an argv "
                  "array or a shell string");
    EXPECT_EQ(error.code(), ExitCode::kDataError);
  }
}

TEST(BenchmarkConfigLoader, RejectsAFileWithAnUnsupportedExtension) {
  TempDir dir;
  const auto file = dir.write("a.yaml", "benchmark_id: a\n");
  try {
    load_benchmark_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what()),
              file.string() + ": unsupported config format '.yaml'. Use a .json or .toml file");
  }
}

std::string load_error(const std::filesystem::path& file) {
  try {
    load_benchmark_config(file);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(BenchmarkConfigLoader, RefusesAPolicyForAMisspelledMetricWithASuggestion) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
[regression_thresholds.latancy]
threshold_percent = 0.05
threshold_absolute = 0.1
)");
  EXPECT_EQ(load_error(file),
            file.string() +
                ": regression_thresholds.latancy: no record has a metric named 'latancy'. Did "
                "you mean 'latency'? The metrics this config's records can carry are "
                "'latency', 'cpu_time', 'memory', 'gpu_memory' and any name the program "
                "reports");
}

TEST(BenchmarkConfigLoader, RefusesAThresholdPercentAboveOneAsAPercentageWrittenForAFraction) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
[regression_thresholds.latency]
threshold_percent = 5
threshold_absolute = 0.1
)");
  EXPECT_EQ(load_error(file),
            file.string() +
                ": regression_thresholds.latency.threshold_percent: is 5, which means 500%; "
                "threshold_percent is a fraction (0.08 means 8%) and may not exceed 1. Did you "
                "mean 0.05?");
}

TEST(BenchmarkConfigLoader, AcceptsAThresholdPercentOfExactlyOne) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
[regression_thresholds.latency]
threshold_percent = 1
threshold_absolute = 0
)");
  EXPECT_EQ(load_benchmark_config(file).regression_thresholds.at("latency").threshold_percent, 1.0);
}

TEST(BenchmarkConfigLoader, ReportsEveryBadPolicyOfOneFileTogether) {
  TempDir dir;
  const auto file = dir.write("a.json", R"({"benchmark_id": "a", "command": ["./bench"],
      "regression_thresholds": {
        "latency": {"threshold_percent": -0.1, "threshold_absolute": -1},
        "memry": {"threshold_percent": 12.5, "threshold_absolute": 0}}})");
  const std::string f = file.string();
  EXPECT_EQ(load_error(file),
            f +
                ": regression_thresholds.latency.threshold_percent: must not be negative; it "
                "is a fraction (0.08 means 8%). Set 0 or a positive fraction, e.g. 0.08 for 8%\n" +
                f +
                ": regression_thresholds.latency.threshold_absolute: must not be negative. Set "
                "0 or a positive value in the metric's unit\n" +
                f +
                ": regression_thresholds.memry.threshold_percent: is 12.5, which means 1250%; "
                "threshold_percent is a fraction (0.08 means 8%) and may not exceed 1. Did you "
                "mean 0.125?\n" +
                f +
                ": regression_thresholds.memry: no record has a metric named 'memry'. Did you "
                "mean 'memory'? The metrics this config's records can carry are 'latency', "
                "'cpu_time', 'memory', 'gpu_memory' and any name the program reports");
}

TEST(BenchmarkConfigLoader, RefusesAThroughputPolicyWhenTheConfigDeclaresNoThroughput) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
[regression_thresholds.throughput]
threshold_percent = 0.08
threshold_absolute = 0.05
)");
  EXPECT_EQ(load_error(file),
            file.string() +
                ": regression_thresholds.throughput: no record has a throughput metric: the "
                "config declares no throughput. Add a [throughput] table with units_per_run and "
                "unit, or remove this policy");
}

TEST(BenchmarkConfigLoader, AcceptsPoliciesForThroughputAndComponentMetricsItDeclares) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
regression_thresholds.throughput = { threshold_percent = 0.08, threshold_absolute = 0.05 }
regression_thresholds.decode_s = { threshold_percent = 0.1, threshold_absolute = 0.01 }
[throughput]
units_per_run = 45
unit = "frames"
[component_metrics]
decode_s = "decode"
)");
  EXPECT_EQ(load_benchmark_config(file).regression_thresholds.size(), 2u);
}

TEST(BenchmarkConfigLoader, AcceptsAPolicyForAMappedRegionsCountOnlyWhenItIsCounted) {
  TempDir dir;
  const std::string policy = R"(benchmark_id = "a"
command = ["./bench"]
[component_metrics]
decode_s = "decode"
[regression_thresholds."decode_s.instructions"]
threshold_percent = 0.002
threshold_absolute = 0
)";
  const auto counted =
      dir.write("counted.toml", policy + "[run_config]\nmeasure = [\"time\", \"instructions\"]\n");
  EXPECT_EQ(load_benchmark_config(counted).regression_thresholds.at("decode_s.instructions"),
            (MetricPolicy{0.002, 0, true}));
  const auto timed = dir.write("timed.toml", policy);
  EXPECT_THAT(load_error(timed),
              ::testing::HasSubstr(": regression_thresholds.decode_s.instructions: "
                                   "no record has a metric named "
                                   "'decode_s.instructions'"));
}

TEST(BenchmarkConfigLoader, AcceptsAPolicyForAMetricTheProgramReportsWithoutAMapping) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
[regression_thresholds.frames_dropped]
threshold_percent = 0.1
threshold_absolute = 1
)");
  EXPECT_EQ(load_benchmark_config(file).regression_thresholds.count("frames_dropped"), 1u);
}

TEST(BenchmarkConfigLoader, RefusesAPolicyForAMetricOutsideTheComponentMapping) {
  TempDir dir;
  const auto file = dir.write("a.toml", R"(benchmark_id = "a"
command = ["./bench"]
[component_metrics]
decode_s = "decode"
[regression_thresholds.parse_s]
threshold_percent = 0.1
threshold_absolute = 0.01
[regression_thresholds.decode_z]
threshold_percent = 0.1
threshold_absolute = 0.01
)");
  const std::string known =
      "The metrics this config's records can carry are 'latency', 'cpu_time', 'memory', "
      "'gpu_memory', 'decode_s'";
  EXPECT_EQ(load_error(file),
            file.string() +
                ": regression_thresholds.parse_s: no record has a metric named "
                "'parse_s'. " +
                known + "; add it to component_metrics or remove this policy\n" + file.string() +
                ": regression_thresholds.decode_z: no record has a metric named 'decode_z'. Did "
                "you mean 'decode_s'? " +
                known);
}

TEST(BenchmarkConfigLoader, RunsCommandsInTheFolderOfPerfgateTomlByDefault) {
  TempDir dir;
  ProjectConfig project;
  project.source = dir / "perfgate.toml";
  const auto file = dir.write("benchmarks/a.toml", "benchmark_id = \"a\"\ncommand = [\"x\"]\n");
  const BenchmarkConfig config = load_benchmark_config(file, project);
  EXPECT_EQ(config.cwd, std::nullopt);
  EXPECT_EQ(config.working_folder(), dir.path());
}

TEST(BenchmarkConfigLoader, RunsCommandsInTheFolderPerfgateWasStartedInWithoutAProject) {
  TempDir dir;
  const auto file = dir.write("benchmarks/a.toml", "benchmark_id = \"a\"\ncommand = [\"x\"]\n");
  EXPECT_EQ(load_benchmark_config(file).working_folder(), std::filesystem::current_path());
}

TEST(BenchmarkConfigLoader, ResolvesARelativeCwdAgainstTheConfigsFolder) {
  TempDir dir;
  ProjectConfig project;
  project.source = dir / "perfgate.toml";
  const auto file = dir.write("benchmarks/a.toml",
                              "benchmark_id = \"a\"\ncommand = [\"x\"]\ncwd = \"../data\"\n");
  EXPECT_EQ(load_benchmark_config(file, project).working_folder(), dir / "data");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
