#include "ingest/import_records.hpp"

#include <gtest/gtest.h>

#include "model/fingerprint.hpp"
#include "model/normalize.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

Provenance host() {
  Provenance p;
  p.timestamp = "2026-11-30T11:37:04Z";
  p.device = "Intel(R) Xeon(R) Gold 6338";
  p.hardware_profile_id = "hw-0123456789abcdef";
  p.software_profile_id = "sw-0123456789abcdef";
  p.environment_fingerprint = "env-0123456789abcdef";
  p.ci = {{"commit", nullptr}};
  p.run_source = "scheduled_main";
  return p;
}

ResultState gbench_state(const std::string& benchmark, const std::string& key,
                         std::vector<double> samples) {
  ResultState state;
  state.benchmark = benchmark;
  state.state_key = key;
  state.timing_name = "real_time";
  state.samples = std::move(samples);
  return state;
}

ResultFile gbench_file(std::vector<ResultState> states) {
  ResultFile file;
  file.format = ResultFormat::kGoogleBenchmark;
  file.path = "results/gbench.json";
  file.states = std::move(states);
  return file;
}

ResultFile nvbench_file(std::size_t devices) {
  ResultFile file;
  file.format = ResultFormat::kNvbench;
  file.path = "results/nvbench.json";
  for (std::size_t i = 0; i < devices; ++i)
    file.devices.push_back({static_cast<long long>(i), "NVIDIA H100 80GB HBM3"});
  for (std::size_t i = 0; i < devices; ++i) {
    ResultState state;
    state.benchmark = "copy";
    state.device = static_cast<long long>(i);
    state.state_key = "T=I32 Elements=2^20";
    state.axis_values = {{"T", "I32"}, {"Elements", "2^20"}};
    state.timing_name = "gpu_time";
    state.summary.median = 2.5e-5;
    state.summary.mean = 2.6e-5;
    state.summary.sample_size = 1000;
    file.states.push_back(state);
  }
  return file;
}

ImportOptions prefixed(const std::string& prefix) {
  ImportOptions options;
  options.benchmark_prefix = prefix;
  return options;
}

ImportMapping mapping_of(std::vector<MappingEntry> entries) {
  ImportMapping mapping;
  mapping.entries = std::move(entries);
  return mapping;
}

/// A copy: callers pass the temporary that import_states returns.
RawRecord only_record(const ImportedStates& imported) {
  EXPECT_EQ(imported.records.size(), 1u);
  return imported.records.at(0);
}

TEST(ImportRecords, NamesRecordsByPrefixBenchmarkAndStateKey) {
  const ImportedStates imported = import_states(
      gbench_file({gbench_state("BM_memcpy", "8", {1e-6}), gbench_state("BM_empty", "", {2e-9})}),
      prefixed("cpu/"), host());
  ASSERT_EQ(imported.records.size(), 2u);
  EXPECT_EQ(imported.records[0].identity.benchmark_id, "cpu/BM_memcpy[8]");
  EXPECT_EQ(imported.records[0].identity.config_benchmark_id, "cpu/BM_memcpy");
  EXPECT_EQ(imported.records[1].identity.benchmark_id, "cpu/BM_empty");
}

TEST(ImportRecords, AddsTheDeviceToTheNameOnlyWhenTheFileListsSeveralDevices) {
  const ImportedStates one = import_states(nvbench_file(1), prefixed(""), host());
  EXPECT_EQ(only_record(one).identity.benchmark_id, "copy[T=I32 Elements=2^20]");
  const ImportedStates two = import_states(nvbench_file(2), prefixed(""), host());
  ASSERT_EQ(two.records.size(), 2u);
  EXPECT_EQ(two.records[0].identity.benchmark_id, "copy[T=I32 Elements=2^20]@dev0");
  EXPECT_EQ(two.records[1].identity.benchmark_id, "copy[T=I32 Elements=2^20]@dev1");
  EXPECT_NE(two.records[0].recipe_fingerprint, two.records[1].recipe_fingerprint);
}

TEST(ImportRecords, RecordsTheStatesSamplesAsLatencyInSeconds) {
  const RawRecord record = only_record(
      import_states(gbench_file({gbench_state("BM_x", "", {1e-6, 2e-6, 3e-6})}), {}, host()));
  const MetricSeries& latency = record.metrics.at("latency");
  EXPECT_EQ(latency.metric.unit, "s");
  EXPECT_EQ(latency.metric.direction, Direction::kLowerIsBetter);
  EXPECT_EQ(latency.samples, (std::vector<double>{1e-6, 2e-6, 3e-6}));
  EXPECT_EQ(latency.summary.count, 3u);
  EXPECT_DOUBLE_EQ(latency.summary.mean, 2e-6);
  EXPECT_EQ(record.num_measurement_runs, 3);
  EXPECT_EQ(record.num_warmup_runs, 0);
  EXPECT_TRUE(record.warnings.empty());
  EXPECT_TRUE(record.success);
}

TEST(ImportRecords, RecordsTheMedianAsTheOnlySampleWhenTheFileHoldsSummariesOnly) {
  const RawRecord record = only_record(import_states(nvbench_file(1), {}, host()));
  EXPECT_EQ(record.metrics.at("latency").samples, (std::vector<double>{2.5e-5}));
  EXPECT_EQ(record.num_measurement_runs, 1000);
  EXPECT_EQ(record.warnings, (std::vector<std::string>{kLatencyFromMedianWarning}));
}

TEST(ImportRecords, RecordsTheMeanWhenTheFileGivesNoMedian) {
  ResultFile file = nvbench_file(1);
  file.states[0].summary.median.reset();
  const RawRecord record = only_record(import_states(file, {}, host()));
  EXPECT_EQ(record.metrics.at("latency").samples, (std::vector<double>{2.6e-5}));
  EXPECT_EQ(record.warnings, (std::vector<std::string>{kLatencyFromMeanWarning}));
}

TEST(ImportRecords, LeavesOutSkippedStatesAndStatesWithoutATiming) {
  ResultState skipped = gbench_state("BM_skip", "", {});
  skipped.skipped = true;
  skipped.skip_reason = "not enough memory";
  const ImportedStates imported = import_states(
      gbench_file({skipped, gbench_state("BM_none", "4", {}), gbench_state("BM_ok", "", {1.0})}),
      prefixed("cpu/"), host());
  EXPECT_EQ(only_record(imported).identity.benchmark_id, "cpu/BM_ok");
  EXPECT_EQ(imported.left_out,
            (std::vector<std::string>{
                "cpu/BM_skip: skipped by the benchmark (not enough memory)",
                "cpu/BM_none[4]: no samples, median or mean of its real_time; not imported"}));
}

TEST(ImportRecords, GivesEveryStateOfAFamilyTheFamilyAsWorkloadAndItsStateAsVariant) {
  ResultState state = gbench_state("BM_memcpy", "8", {1e-6});
  state.axis_values = {{"size", "8"}};
  const ImportedStates imported = import_states(
      gbench_file({state, gbench_state("BM_empty", "", {1e-9})}), prefixed("cpu/"), host());
  ASSERT_EQ(imported.records.size(), 2u);
  const BenchmarkIdentity& memcpy = imported.records[0].identity;
  EXPECT_EQ(memcpy.config_schema_version, 2);
  EXPECT_EQ(memcpy.workload_id, "cpu/BM_memcpy");
  EXPECT_EQ(memcpy.variant_id, "8");
  EXPECT_EQ(memcpy.benchmark_version, 1);
  EXPECT_EQ(memcpy.parameters, (std::vector<std::pair<std::string, std::string>>{{"size", "8"}}));
  EXPECT_EQ(imported.records[1].identity.variant_id, "default");
}

TEST(ImportRecords, TakesIdentityFromTheFirstMatchingMappingEntryWithoutThePrefix) {
  ImportOptions options = prefixed("cpu/");
  options.mapping = mapping_of({{"BM_memcpy/64", {"memcpy-big", std::nullopt, 3}, {}},
                                {"BM_memcpy*", {"memcpy", "default", 2}, {}}});
  const ImportedStates imported = import_states(
      gbench_file({gbench_state("BM_memcpy", "64", {1e-6}), gbench_state("BM_memcpy", "8", {1e-6}),
                   gbench_state("BM_sort", "8", {1e-6})}),
      options, host());
  ASSERT_EQ(imported.records.size(), 3u);
  EXPECT_EQ(imported.records[0].identity.workload_id, "memcpy-big");
  EXPECT_EQ(imported.records[0].identity.variant_id, "64");
  EXPECT_EQ(imported.records[0].identity.benchmark_version, 3);
  EXPECT_EQ(imported.records[1].identity.workload_id, "memcpy");
  EXPECT_EQ(imported.records[1].identity.variant_id, "default");
  EXPECT_EQ(imported.records[1].identity.benchmark_version, 2);
  EXPECT_EQ(imported.records[2].identity.workload_id, "cpu/BM_sort");
  EXPECT_EQ(imported.records[2].identity.benchmark_version, 1);
}

TEST(ImportRecords, FlagsOverrideTheMappingFieldByField) {
  ImportOptions options;
  options.mapping = mapping_of({{"BM_*", {"mapped", "mapped-variant", 2}, {}}});
  options.flags.benchmark_version = 7;
  const BenchmarkIdentity id =
      only_record(import_states(gbench_file({gbench_state("BM_x", "", {1.0})}), options, host()))
          .identity;
  EXPECT_EQ(id.workload_id, "mapped");
  EXPECT_EQ(id.variant_id, "mapped-variant");
  EXPECT_EQ(id.benchmark_version, 7);
}

TEST(ImportRecords, KeepsExtraMetricsAndNamesABytesMemoryMetricMemoryInMegabytes) {
  ResultState state = gbench_state("BM_x", "", {1.0, 1.0});
  state.extra_metrics = {
      {"cpu_time", "s", Direction::kLowerIsBetter, {0.5, 0.7}},
      {"bytes_per_second", "B/s", Direction::kHigherIsBetter, {2e9}},
      {"max_rss", "B", Direction::kLowerIsBetter, {1048576.0 * 300, 1048576.0 * 310}},
      {"peak_memory", "KiB", Direction::kLowerIsBetter, {1024.0}},
      {"latency", "s", Direction::kLowerIsBetter, {9.0}},
      {"empty", "s", Direction::kLowerIsBetter, {}},
  };
  const RawRecord record = only_record(import_states(gbench_file({state}), {}, host()));
  std::vector<std::string> names;
  for (const auto& [name, series] : record.metrics) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"bytes_per_second", "cpu_time", "latency", "memory",
                                             "peak_memory"}));
  EXPECT_EQ(record.metrics.at("cpu_time").samples, (std::vector<double>{0.5, 0.7}));
  EXPECT_EQ(record.metrics.at("bytes_per_second").metric.direction, Direction::kHigherIsBetter);
  EXPECT_EQ(record.metrics.at("bytes_per_second").metric.unit, "B/s");
  EXPECT_EQ(record.metrics.at("memory").metric.unit, "MB");
  EXPECT_EQ(record.metrics.at("memory").samples, (std::vector<double>{300.0, 310.0}));
  EXPECT_EQ(record.metrics.at("peak_memory").metric.unit, "KiB");
  EXPECT_EQ(record.metrics.at("latency").samples, (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(record.warnings,
            (std::vector<std::string>{
                "metric 'latency' has the name of a metric the record already has; left out"}));
}

TEST(ImportRecords, KeepsTheRecipeFingerprintAcrossImportsUntilTheIdentityChanges) {
  const auto fingerprint_of = [](const ResultFile& file, const ImportOptions& options) {
    return only_record(import_states(file, options, host())).recipe_fingerprint;
  };
  ResultFile first = gbench_file({gbench_state("BM_x", "8", {1.0, 2.0})});
  ResultFile second = gbench_file({gbench_state("BM_x", "8", {3.0})});
  second.path = "elsewhere/later.json";
  EXPECT_EQ(fingerprint_of(first, {}), fingerprint_of(second, {}));
  ImportOptions versioned;
  versioned.flags.benchmark_version = 2;
  EXPECT_NE(fingerprint_of(first, {}), fingerprint_of(first, versioned));
  EXPECT_NE(fingerprint_of(first, {}), fingerprint_of(first, prefixed("cpu/")));
}

TEST(ImportRecords, DescribesWhatWasMeasuredInTheRecipe) {
  const RawRecord record = only_record(import_states(nvbench_file(1), prefixed("gpu/"), host()));
  EXPECT_EQ(record.recipe, Json::parse(R"({
    "recipe_schema_version": 1,
    "benchmark": {"workload_id": "gpu/copy", "variant_id": "T=I32 Elements=2^20",
                  "benchmark_version": 1},
    "import": {"format": "nvbench", "benchmark": "copy", "state_key": "T=I32 Elements=2^20",
               "timing": "gpu_time", "device": "NVIDIA H100 80GB HBM3", "device_id": null}})"));
  EXPECT_EQ(record.recipe_fingerprint, fingerprint(record.recipe));
}

TEST(ImportRecords, TakesProvenanceFromThisHostAndTheDeviceNameFromTheFile) {
  const RawRecord gpu = only_record(import_states(nvbench_file(1), {}, host()));
  EXPECT_EQ(gpu.provenance.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu.provenance.hardware_profile_id, "hw-0123456789abcdef");
  EXPECT_EQ(gpu.provenance.run_source, "scheduled_main");
  const RawRecord cpu =
      only_record(import_states(gbench_file({gbench_state("BM_x", "", {1.0})}), {}, host()));
  EXPECT_EQ(cpu.provenance.device, "Intel(R) Xeon(R) Gold 6338");
  EXPECT_EQ(cpu.config_path, "results/gbench.json");
}

TEST(ImportRecords, WritesRawRecordsThatCompareNormalises) {
  const RawRecord record = only_record(import_states(
      gbench_file({gbench_state("BM_x", "8", {1e-6, 3e-6})}), prefixed("cpu/"), host()));
  const NormalizedRecord normalized = normalize_raw_record(to_json(record), "import", "", {});
  EXPECT_EQ(normalized.benchmark_id, "cpu/BM_x[8]");
  EXPECT_EQ(normalized.workload_id, "cpu/BM_x");
  EXPECT_EQ(normalized.variant_id, "8");
  EXPECT_EQ(normalized.benchmark_version, 1);
  EXPECT_DOUBLE_EQ(normalized.metrics.at("latency").value, 2e-6);
  EXPECT_EQ(normalized.recipe_fingerprint, record.recipe_fingerprint);
  EXPECT_EQ(normalized.run_source, "scheduled_main");
  EXPECT_TRUE(normalized.cohort().has_value());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
