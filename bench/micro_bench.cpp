// Micro-benchmarks of perfgate's hot paths, each beside its floor where one exists.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <filesystem>
#include <random>
#include <vector>

#include "measure/process_executor.hpp"
#include "model/fingerprint.hpp"
#include "stats/summary.hpp"

extern char** environ;

namespace {

void BM_Summarize(benchmark::State& state) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> dist(0.0, 0.3);
  std::vector<double> samples(static_cast<std::size_t>(state.range(0)));
  for (auto& s : samples) s = dist(rng);
  for (auto _ : state) benchmark::DoNotOptimize(perfgate::summarize(samples));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Summarize)->Arg(5)->Arg(2000)->Arg(100000);

void BM_RecipeFingerprint(benchmark::State& state) {
  const perfgate::Json recipe = {
      {"recipe_schema_version", 1},
      {"benchmark", {{"workload_id", "sort"}, {"variant_id", "1e6"}, {"benchmark_version", 3}}},
      {"command", {"bin/sort", "--n", "1000000"}},
      {"inputs", {{{"path", "data/input.bin"}, {"sha256", std::string(64, 'a')}}}},
      {"run_config", {{"num_warmup_runs", 1}, {"num_measurement_runs", 5}, {"timeout_s", 30.5}}}};
  for (auto _ : state) benchmark::DoNotOptimize(perfgate::fingerprint(recipe));
}
BENCHMARK(BM_RecipeFingerprint);

// The floor for the executor below: the same spawn and reap with nothing around it.
void BM_RawSpawnTrue(benchmark::State& state) {
  char arg0[] = "/bin/true";
  char* argv[] = {arg0, nullptr};
  for (auto _ : state) {
    pid_t pid = 0;
    posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
  }
}
BENCHMARK(BM_RawSpawnTrue)->Unit(benchmark::kMicrosecond);

void BM_ProcessExecutorTrue(benchmark::State& state) {
  perfgate::ProcessExecutor executor;
  perfgate::ProcessSpec spec;
  spec.argv = {"/bin/true"};
  for (auto _ : state) benchmark::DoNotOptimize(executor.run(spec));
}
BENCHMARK(BM_ProcessExecutorTrue)->Unit(benchmark::kMicrosecond);

// What perfgate run adds per run: a worker log and the PERFGATE_* variables.
void BM_ProcessExecutorTrueWithLogAndEnv(benchmark::State& state) {
  perfgate::ProcessExecutor executor;
  perfgate::ProcessSpec spec;
  spec.argv = {"/bin/true"};
  spec.log_path = std::filesystem::temp_directory_path() / "perfgate-micro-bench.log";
  spec.log_header = "==> perfgate: measured run\n";
  spec.env = {{"PERFGATE_METRICS_OUT", "/tmp/perfgate-micro-metrics.jsonl"},
              {"PERFGATE_RUN_INDEX", "1"}};
  for (auto _ : state) benchmark::DoNotOptimize(executor.run(spec));
  std::filesystem::remove(*spec.log_path);
}
BENCHMARK(BM_ProcessExecutorTrueWithLogAndEnv)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
