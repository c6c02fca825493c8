#pragma once
// Catalogue of malformed benchmark configs and the errors they must produce. Shared by the
// loader's unit test and the end-to-end test that runs the real binary, so it depends only
// on the standard library and the exit code table.
//
// How to use a case: write `content` to a fresh, empty temp folder `dir` as `file_name`,
// then
//   - normally:                      load_suite({dir / file_name})
//   - file_name == "perfgate.toml":  also write a minimal valid config "ok.toml" (see
//                                    kMinimalValidToml) and load_suite({dir})
//   - code == kNoInput and content empty with file_name "absent.json": do NOT write the
//     file; the error is that it is missing.
// The error must carry `code`, its message must start with the path of the written file
// (dir / file_name), and it must contain every fragment in `message_fragments`.
#include <string>
#include <vector>

#include "model/error.hpp"

namespace perfgate {

struct BadConfigCase {
  std::string name;
  std::string file_name;
  std::string content;
  ExitCode code;
  std::vector<std::string> message_fragments;
};

inline const std::string kMinimalValidToml = "benchmark_id = \"ok\"\ncommand = [\"true\"]\n";

inline const std::vector<BadConfigCase>& bad_config_catalogue() {
  static const std::vector<BadConfigCase> cases = {
      // --- syntax ---
      {"JsonSyntaxError",
       "bad.json",
       "{\n  \"benchmark_id\": \"demo\",\n  \"command\": [\"./bench\"\n}\n",
       ExitCode::kDataError,
       {"bad.json:4:1: ", "Fix the JSON syntax at that position"}},
      {"TomlSyntaxError",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = = [\"./bench\"]\n",
       ExitCode::kDataError,
       {"bad.toml:2:", "Fix the TOML syntax at that position"}},
      {"JsonDuplicateTopLevelKey",
       "dup.json",
       R"({"benchmark_id": "a", "command": ["x"], "benchmark_id": "b"})",
       ExitCode::kDataError,
       {"dup.json: benchmark_id: duplicate key 'benchmark_id'. Keep only one of the two entries"}},
      {"JsonDuplicateNestedKey",
       "dup.json",
       R"({"benchmark_id": "a", "command": ["x"],
           "run_config": {"num_warmup_runs": 1, "num_warmup_runs": 2}})",
       ExitCode::kDataError,
       {"run_config.num_warmup_runs: duplicate key 'num_warmup_runs'"}},
      {"TomlDuplicateKey",
       "dup.toml",
       "benchmark_id = \"a\"\ncommand = [\"x\"]\nbenchmark_id = \"b\"\n",
       ExitCode::kDataError,
       {"dup.toml:3:", "Fix the TOML syntax"}},
      {"JsonTopLevelArray",
       "list.json",
       R"([{"benchmark_id": "a"}])",
       ExitCode::kDataError,
       {"list.json: the top level must be an object, found an array. Put the benchmark's settings "
        "in one { ... } object"}},

      // --- wrong types ---
      {"CommandAsNumber",
       "bad.json",
       R"({"benchmark_id": "demo", "command": 5})",
       ExitCode::kDataError,
       {"command: expected an array of strings (argv) or a string (shell command), found an "
        "integer"}},
      {"EnvValueNumber",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[env]\nTHREADS = 4\n",
       ExitCode::kDataError,
       {"env.THREADS: expected a string, found an integer. Quote it"}},
      {"NumMeasurementRunsAsString",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "run_config": {"num_measurement_runs": "5"}})",
       ExitCode::kDataError,
       {"run_config.num_measurement_runs: expected an integer, found a string. Write the number "
        "without quotes"}},
      {"TimeoutAsBoolean",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[run_config]\ntimeout_s = true\n",
       ExitCode::kDataError,
       {"run_config.timeout_s: expected a number, found a boolean"}},
      {"WarmupRunsAsFloat",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "run_config": {"num_warmup_runs": 1.5}})",
       ExitCode::kDataError,
       {"run_config.num_warmup_runs: expected an integer, found a floating-point number. Write a "
        "whole number"}},

      // --- unknown keys ---
      {"UnknownTopLevelKeyWithSuggestion",
       "bad.json",
       R"({"benchmark_id": "demo", "comand": ["./bench"]})",
       ExitCode::kDataError,
       {"comand: unknown key 'comand'. Did you mean 'command'?", "command: missing required key"}},
      {"UnknownTopLevelKeyListsKnownKeys",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\nmodel_path = \"x\"\n",
       ExitCode::kDataError,
       {"model_path: unknown key 'model_path'. Known keys: benchmark_id, config_schema_version"}},
      {"UnknownRunConfigKey",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[run_config]\nnum_measurment_runs = 3\n",
       ExitCode::kDataError,
       {"run_config.num_measurment_runs: unknown key 'num_measurment_runs'. Did you mean "
        "'num_measurement_runs'?"}},
      {"UnknownThresholdBlockKey",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "thresholds": {"default": {"maxlatency_s": 5, "max_memory_mb": 100}}})",
       ExitCode::kDataError,
       {"thresholds.default.maxlatency_s: unknown key 'maxlatency_s'. Did you mean "
        "'max_latency_s'?"}},
      {"ThresholdLimitOnAStandardMetricNeedsItsFixedSpelling",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "thresholds": {"default": {"max_latency_s": 5, "max_memory_mb": 100,
                                      "max_throughput": 3}}})",
       ExitCode::kDataError,
       {"thresholds.default.max_throughput: unknown key 'max_throughput'. Did you mean "
        "'min_throughput'?"}},
      {"UnknownThroughputKey",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[throughput]\nunits_per_run = 10\n"
       "unit = \"frames\"\nunits = 4\n",
       ExitCode::kDataError,
       {"throughput.units: unknown key 'units'. Did you mean 'unit'?"}},

      // --- schema versions and identity ---
      {"WorkloadIdInV1",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "workload_id": "w"})",
       ExitCode::kDataError,
       {"workload_id: only allowed with config_schema_version 2", "Add config_schema_version = 2"}},
      {"VariantIdInV1",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\nvariant_id = \"v\"\n",
       ExitCode::kDataError,
       {"variant_id: only allowed with config_schema_version 2", "Add config_schema_version = 2"}},
      {"BenchmarkVersionInV1",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "config_schema_version": 1,
           "benchmark_version": 3})",
       ExitCode::kDataError,
       {"benchmark_version: only allowed with config_schema_version 2",
        "Add config_schema_version = 2"}},
      {"QualityMetadataInV1",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[quality_metadata]\nscore = 1\n",
       ExitCode::kDataError,
       {"quality_metadata: only allowed with config_schema_version 2",
        "Add config_schema_version = 2"}},
      {"V2WithoutWorkloadId",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "config_schema_version": 2,
           "variant_id": "v", "benchmark_version": 1})",
       ExitCode::kDataError,
       {"workload_id: missing required key for config_schema_version 2", "Add workload_id"}},
      {"V2WithoutVariantId",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\nconfig_schema_version = 2\n"
       "workload_id = \"w\"\nbenchmark_version = 1\n",
       ExitCode::kDataError,
       {"variant_id: missing required key for config_schema_version 2", "Add variant_id"}},
      {"V2WithoutBenchmarkVersion",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "config_schema_version": 2,
           "workload_id": "w", "variant_id": "v"})",
       ExitCode::kDataError,
       {"benchmark_version: missing required key for config_schema_version 2",
        "Add benchmark_version"}},
      {"SchemaVersion3",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\nconfig_schema_version = 3\n",
       ExitCode::kDataError,
       {"config_schema_version: unsupported version 3. Use 1 (legacy) or 2"}},
      {"QualityMetadataNotAnObject",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "config_schema_version": 2,
           "workload_id": "w", "variant_id": "v", "benchmark_version": 1,
           "quality_metadata": [1, 2]})",
       ExitCode::kDataError,
       {"quality_metadata: expected an object, found an array"}},
      {"BenchmarkIdMissing",
       "bad.toml",
       "command = [\"./bench\"]\n",
       ExitCode::kDataError,
       {"benchmark_id: missing required key. Add a benchmark_id"}},
      {"BenchmarkIdWithSlash",
       "bad.json",
       R"({"benchmark_id": "a/b", "command": ["./bench"]})",
       ExitCode::kDataError,
       {"benchmark_id: contains '/', which is not allowed", "becomes part of file names"}},
      {"BenchmarkIdEmpty",
       "bad.toml",
       "benchmark_id = \"\"\ncommand = [\"./bench\"]\n",
       ExitCode::kDataError,
       {"benchmark_id: must not be empty. Use letters, digits"}},

      // --- thresholds ---
      {"ThresholdsWithoutDefault",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "thresholds": {"L40S": {"max_latency_s": 5, "max_memory_mb": 100}}})",
       ExitCode::kDataError,
       {"thresholds.default: missing required block. Add a thresholds.default block"}},
      {"ThresholdBlockWithoutLatency",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[thresholds.default]\n"
       "max_memory_mb = 100\n",
       ExitCode::kDataError,
       {"thresholds.default.max_latency_s: missing required key. Add a latency limit"}},
      {"ThresholdBlockWithoutMemory",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "thresholds": {"default": {"max_latency_s": 5, "max_memory_mb": 100},
                          "L40S": {"max_generation_time_s": 5}}})",
       ExitCode::kDataError,
       {"thresholds.L40S.max_memory_mb: missing required key. Add a peak-memory limit"}},
      {"ThresholdAliasAndCanonicalInOneBlock",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[thresholds.default]\n"
       "max_latency_s = 5\nmax_memory_mb = 100\nmax_generation_time_s = 6\n",
       ExitCode::kDataError,
       {"thresholds.default.max_generation_time_s: 'max_generation_time_s' and 'max_latency_s' "
        "both set the latency limit. Keep only 'max_latency_s'"}},
      {"DeviceTypeAliasAndCanonical",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "run_config": {"device_types": ["A"], "gpu_types": ["A"]}})",
       ExitCode::kDataError,
       {"run_config.gpu_types: 'gpu_types' is an alias of 'device_types', which is also set. "
        "Keep only 'device_types'"}},
      {"DeviceTypesWithoutThresholds",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[run_config]\n"
       "device_types = [\"H100\"]\n",
       ExitCode::kDataError,
       {"thresholds: missing; required because run_config sets device types",
        "one block per device type"}},
      {"DeviceTypeWithoutMatchingThresholdsKey",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "run_config": {"gpu_types": ["L40S", "H100"]},
           "thresholds": {"default": {"max_latency_s": 9, "max_memory_mb": 900},
                          "L40S": {"max_latency_s": 5, "max_memory_mb": 100}}})",
       ExitCode::kDataError,
       {"run_config.gpu_types[1]: no thresholds block matches device type 'H100'. Add a "
        "thresholds.H100 block"}},
      {"ThresholdNotPositive",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[thresholds.default]\n"
       "max_latency_s = 0\nmax_memory_mb = 100\n",
       ExitCode::kDataError,
       {"thresholds.default.max_latency_s: must be greater than 0. Set a positive value"}},

      // --- run settings ---
      {"ZeroMeasurementRuns",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "run_config": {"num_measurement_runs": 0}})",
       ExitCode::kDataError,
       {"run_config.num_measurement_runs: must be at least 1, found 0. Set it to 1 or more"}},
      {"NegativeMeasurementRuns",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[run_config]\n"
       "num_measurement_runs = -2\n",
       ExitCode::kDataError,
       {"run_config.num_measurement_runs: must be at least 1, found -2"}},
      {"NegativeWarmupRuns",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "run_config": {"num_warmup_runs": -1}})",
       ExitCode::kDataError,
       {"run_config.num_warmup_runs: must be at least 0, found -1. Set it to 0 or more"}},
      {"TimeoutZero",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[run_config]\ntimeout_s = 0\n",
       ExitCode::kDataError,
       {"run_config.timeout_s: must be greater than 0. Set a positive value"}},
      {"TimeoutNan",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[run_config]\ntimeout_s = nan\n",
       ExitCode::kDataError,
       {"run_config.timeout_s: must be a finite number, found nan. Write an ordinary number"}},
      {"ThresholdInf",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[thresholds.default]\n"
       "max_latency_s = inf\nmax_memory_mb = 100\n",
       ExitCode::kDataError,
       {"thresholds.default.max_latency_s: must be a finite number, found inf"}},

      // --- commands ---
      {"EmptyCommandArray",
       "bad.json",
       R"({"benchmark_id": "demo", "command": []})",
       ExitCode::kDataError,
       {"command: must not be an empty array. List the program and its arguments"}},
      {"EmptyCommandString",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = \"  \"\n",
       ExitCode::kDataError,
       {"command: must not be an empty string. Write the shell command to run"}},
      {"CommandArrayWithNonString",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench", 10]})",
       ExitCode::kDataError,
       {"command[1]: expected a string, found an integer. Quote it"}},
      {"EmptySetupArray",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\nsetup = []\n",
       ExitCode::kDataError,
       {"setup: must not be an empty array"}},

      // --- policies, parameters, throughput, inputs ---
      {"RegressionThresholdWithoutAbsolute",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "regression_thresholds": {"latency": {"threshold_percent": 0.1}}})",
       ExitCode::kDataError,
       {"regression_thresholds.latency.threshold_absolute: missing required key. Add "
        "threshold_absolute"}},
      {"RegressionThresholdPercentWrittenAsPercentage",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[regression_thresholds.latency]\n"
       "threshold_percent = 15\nthreshold_absolute = 0.5\n",
       ExitCode::kDataError,
       {"regression_thresholds.latency.threshold_percent: is 15, which means 1500%; "
        "threshold_percent is a fraction (0.08 means 8%) and may not exceed 1. Did you mean "
        "0.15?"}},
      {"RegressionThresholdPercentFiveMeansFiveHundredPercent",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "regression_thresholds": {"memory": {"threshold_percent": 5,
                                                "threshold_absolute": 256}}})",
       ExitCode::kDataError,
       {"regression_thresholds.memory.threshold_percent: is 5, which means 500%",
        "Did you mean 0.05?"}},
      {"RegressionThresholdNegativeAbsolute",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[regression_thresholds.latency]\n"
       "threshold_percent = 0.05\nthreshold_absolute = -0.5\n",
       ExitCode::kDataError,
       {"regression_thresholds.latency.threshold_absolute: must not be negative. Set 0 or a "
        "positive value in the metric's unit"}},
      {"RegressionThresholdForAMisspelledMetric",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[regression_thresholds.latancy]\n"
       "threshold_percent = 0.05\nthreshold_absolute = 0.5\n",
       ExitCode::kDataError,
       {"regression_thresholds.latancy: no record has a metric named 'latancy'. Did you mean "
        "'latency'?"}},
      {"RegressionThresholdForThroughputTheConfigDoesNotDeclare",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"],
           "regression_thresholds": {"throughput": {"threshold_percent": 0.08,
                                                    "threshold_absolute": 0.05}}})",
       ExitCode::kDataError,
       {"regression_thresholds.throughput: no record has a throughput metric: the config "
        "declares no throughput. Add a [throughput] table"}},
      {"ParametersAxisEmpty",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "parameters": {"size": []}})",
       ExitCode::kDataError,
       {"parameters.size: must not be an empty array. List at least one value"}},
      {"ParametersBadAxisName",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[parameters]\n\"2d\" = [1, 2]\n",
       ExitCode::kDataError,
       {"parameters.2d: invalid axis name '2d'. Use letters, digits and '_'"}},
      {"ParametersExpandToTooManyStates",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[parameters]\n"
       "a = [1,2,3,4,5,6,7,8,9,10]\nb = [1,2,3,4,5,6,7,8,9,10]\nc = [1,2,3,4,5,6,7,8,9,10]\n"
       "d = [1,2,3,4,5,6,7,8,9,10]\ne = [1,2]\n",
       ExitCode::kDataError,
       {"parameters: the axes expand to more than 10000 states. Use fewer values"}},
      {"MeasurementRunsBeyondTheLimit",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "run_config": {"num_measurement_runs": 5000000}})",
       ExitCode::kDataError,
       {"run_config.num_measurement_runs: must be at most 1000000, found 5000000. Set a smaller "
        "value"}},
      {"ThroughputWithoutUnit",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "throughput": {"units_per_run": 4}})",
       ExitCode::kDataError,
       {"throughput.unit: missing required key. Add unit"}},
      {"ComponentMetricNamedLikeAStandardMetric",
       "bad.toml",
       "benchmark_id = \"demo\"\ncommand = [\"./bench\"]\n[component_metrics]\n"
       "latency = \"decode\"\n",
       ExitCode::kDataError,
       {"component_metrics.latency: 'latency' cannot name a component metric"}},
      {"InputFileMissing",
       "bad.json",
       R"({"benchmark_id": "demo", "command": ["./bench"], "inputs": ["data/prompts.txt"]})",
       ExitCode::kNoInput,
       {"inputs[0]: input file '", "data/prompts.txt' not found. Create it or fix the path"}},
      {"ConfigFileMissing",
       "absent.json",
       "",
       ExitCode::kNoInput,
       {"absent.json: no such file or folder. Check the path"}},

      // --- perfgate.toml ---
      {"UnknownKeyInProjectFile",
       "perfgate.toml",
       "[run]\nnum_warmup_run = 2\n",
       ExitCode::kDataError,
       {"perfgate.toml: run.num_warmup_run: unknown key 'num_warmup_run'. Did you mean "
        "'num_warmup_runs'?"}},
      {"PolicyForAMisspelledMetricInProjectFile",
       "perfgate.toml",
       "[policies.latancy]\nthreshold_percent = 0.05\nthreshold_absolute = 0.1\n",
       ExitCode::kDataError,
       {"perfgate.toml: policies.latancy: no record has a metric named 'latancy'. Did you mean "
        "'latency'?"}},
      {"PolicyPercentAboveOneInProjectFile",
       "perfgate.toml",
       "[policies.latency]\nthreshold_percent = 5\nthreshold_absolute = 0.1\n",
       ExitCode::kDataError,
       {"perfgate.toml: policies.latency.threshold_percent: is 5, which means 500%",
        "Did you mean 0.05?"}},
      {"UnknownRunSourceInProjectFile",
       "perfgate.toml",
       "[baseline]\ntrusted_run_sources = [\"main\"]\n",
       ExitCode::kDataError,
       {"perfgate.toml: baseline.trusted_run_sources[0]: unknown run source 'main'. Use pr, "
        "local, scheduled_main or unknown"}},
  };
  return cases;
}

}  // namespace perfgate
