#include "measure/recipe.hpp"

#include "model/fingerprint.hpp"

namespace perfgate {
namespace {

Json optional_command(const std::optional<CommandSpec>& command) {
  return command ? command->to_json() : Json(nullptr);
}

}  // namespace

std::vector<InputDigest> digest_inputs(const BenchmarkConfig& config) {
  std::vector<InputDigest> digests;
  const auto base = config.source.parent_path();
  for (const auto& input : config.inputs) {
    digests.push_back(
        {input.lexically_relative(base).generic_string(), sha256_file(input.string())});
  }
  return digests;
}

Json build_recipe(const BenchmarkState& state, const std::vector<InputDigest>& inputs,
                  const Json& counter) {
  const BenchmarkConfig& config = *state.config;
  Json benchmark;
  if (config.is_v2()) {
    benchmark = {{"workload_id", *config.workload_id},
                 {"variant_id", *config.variant_id},
                 {"benchmark_version", *config.benchmark_version}};
  } else {
    benchmark = {{"benchmark_id", config.benchmark_id}};
  }
  Json parameters = Json::object();
  for (const auto& [axis, value] : state.parameter_values) parameters[axis] = value;
  Json input_json = Json::array();
  for (const auto& input : inputs)
    input_json.push_back({{"path", input.path}, {"sha256", input.sha256}});
  Json throughput = nullptr;
  if (config.throughput) {
    throughput = {{"units_per_run", config.throughput->units_per_run},
                  {"unit", config.throughput->unit}};
  }
  Json recipe = {
      {"recipe_schema_version", 1},
      {"benchmark", benchmark},
      {"parameters", parameters},
      {"command", state.command.to_json()},
      {"cwd",
       config.cwd
           ? Json(config.cwd->lexically_relative(config.source.parent_path()).generic_string())
           : Json(nullptr)},
      {"env", state.env},
      {"hooks",
       {{"setup", optional_command(config.setup)},
        {"prepare", optional_command(config.prepare)},
        {"conclude", optional_command(config.conclude)},
        {"cleanup", optional_command(config.cleanup)}}},
      {"inputs", input_json},
      {"run_config",
       {{"num_warmup_runs", config.run.num_warmup_runs},
        {"num_measurement_runs", config.run.num_measurement_runs},
        {"timeout_s", config.run.timeout_s ? Json(*config.run.timeout_s) : Json(nullptr)},
        {"required_gpus", config.run.required_gpus}}},
      {"throughput", throughput},
      {"component_metrics", config.component_metrics},
      {"measure", {{"mode", "wall"}}},
  };
  if (config.run.measure_counts) {
    Json kinds = Json::array();
    if (config.run.measure_time) kinds.push_back("time");
    kinds.push_back("instructions");
    recipe["measure"] = {{"mode", config.run.measure_time ? "wall" : "counts"},
                         {"kinds", kinds},
                         {"counter", counter}};
    recipe["run_config"]["num_count_runs"] = config.run.num_count_runs;
  }
  return recipe;
}

}  // namespace perfgate
