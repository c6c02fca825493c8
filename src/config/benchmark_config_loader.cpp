// load_benchmark_config: one benchmark config file -> a validated BenchmarkConfig.
// Each top-level key is checked on its own so one file reports all its problems at once.
#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <set>

#include "config/config_sections.hpp"
#include "config/error_list.hpp"
#include "config/suite_loader.hpp"
#include "model/metric.hpp"

namespace perfgate {
namespace {

constexpr std::size_t kMaxBenchmarkIdLength = 100;
const std::vector<std::string> kV2OnlyKeys = {"workload_id", "variant_id", "benchmark_version",
                                              "quality_metadata"};
const std::vector<std::string> kV2IdentityKeys = {"workload_id", "variant_id", "benchmark_version"};

struct LoadContext {
  std::filesystem::path config_dir;  ///< absolute; relative paths in the config start here
};

using KeyReader = std::function<void(BenchmarkConfig&, const ConfigValue&, const LoadContext&)>;

std::filesystem::path resolve(const LoadContext& context, const std::string& path) {
  std::filesystem::path resolved = (context.config_dir / path).lexically_normal();
  if (resolved.filename().empty()) resolved = resolved.parent_path();  // "dir/." -> "dir"
  return resolved;
}

void read_benchmark_id(BenchmarkConfig& config, const ConfigValue& value) {
  const std::string id = value.string();
  if (const auto problem = benchmark_id_problem(id))
    throw value.error(problem->first, problem->second);
  config.benchmark_id = id;
}

void read_schema_version(BenchmarkConfig& config, const ConfigValue& value) {
  const long long version = value.integer();
  if (version != 1 && version != 2) {
    throw value.error("unsupported version " + std::to_string(version),
                      "Use 1 (legacy) or 2 (with workload_id, variant_id, benchmark_version)");
  }
  config.config_schema_version = static_cast<int>(version);
}

void read_benchmark_version(BenchmarkConfig& config, const ConfigValue& value) {
  const long long version = value.integer();
  if (version < 1) {
    throw value.error("must be at least 1, found " + std::to_string(version),
                      "Start at 1 and raise it when the measurement protocol changes");
  }
  config.benchmark_version = version;
}

void read_env(BenchmarkConfig& config, const ConfigValue& value) {
  for (const auto& [name, text] : value.members()) {
    if (name.empty() || name.find('=') != std::string::npos) {
      throw text.error("invalid environment variable name '" + name + "'",
                       "Use a non-empty name without '='");
    }
    config.env[name] = text.string();
  }
}

void read_inputs(BenchmarkConfig& config, const ConfigValue& value, const LoadContext& context) {
  for (const auto& item : value.items()) {
    const std::filesystem::path input = resolve(context, item.non_empty_string());
    std::error_code ec;
    if (!std::filesystem::exists(input, ec)) {
      throw item.error("input file '" + input.string() + "' not found",
                       "Create it or fix the path (relative to the config's folder)",
                       ExitCode::kNoInput);
    }
    if (!std::filesystem::is_regular_file(input, ec)) {
      throw item.error("input '" + input.string() + "' is not a regular file",
                       "List files, not folders");
    }
    config.inputs.push_back(input);
  }
}

void read_run_config(BenchmarkConfig& config, const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value,
                          {"num_warmup_runs", "num_measurement_runs", "timeout_s", "device_types",
                           "gpu_types", "required_gpus", "measure", "num_count_runs", "counter"},
                          errors);
  errors.check([&] {
    if (auto v = table.get("num_warmup_runs"))
      config.run.num_warmup_runs = v->int_between(0, kMaxRunsPerState);
  });
  errors.check([&] {
    if (auto v = table.get("num_measurement_runs"))
      config.run.num_measurement_runs = v->int_between(1, kMaxRunsPerState);
  });
  errors.check([&] {
    if (auto v = table.get("timeout_s")) config.run.timeout_s = v->positive_number();
  });
  errors.check([&] {
    if (auto v = table.get("device_types", "gpu_types"))
      config.run.device_types = v->non_empty_string_list();
  });
  errors.check([&] {
    if (auto v = table.get("required_gpus"))
      config.run.required_gpus = v->int_between(0, kMaxRunsPerState);
  });
  errors.check([&] {
    if (auto v = table.get("measure")) {
      const auto kinds = parse_measure_kinds(v->non_empty_string_list());
      if (!kinds) {
        throw v->error("must list \"time\" and/or \"instructions\", each once",
                       "E.g. measure = [\"time\", \"instructions\"] (instruction counts: "
                       "docs/measurement.md)");
      }
      config.run.measure_time = kinds->first;
      config.run.measure_counts = kinds->second;
    }
  });
  errors.check([&] {
    if (auto v = table.get("num_count_runs"))
      config.run.num_count_runs = v->int_between(1, kMaxRunsPerState);
  });
  errors.check([&] {
    if (auto v = table.get("counter")) {
      config.run.counter = v->non_empty_string();
      if (config.run.counter != "auto" && config.run.counter != "hardware" &&
          config.run.counter != "valgrind") {
        throw v->error("must be \"auto\", \"hardware\" or \"valgrind\"",
                       "Leave it out (\"auto\": hardware counters where the kernel gives "
                       "them, else Valgrind)");
      }
    }
  });
  errors.throw_if_any();
}

void read_throughput(BenchmarkConfig& config, const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value, {"units_per_run", "unit"}, errors);
  ThroughputSpec spec;
  errors.check([&] {
    spec.units_per_run =
        table.require("units_per_run", "Add units_per_run, the work units one run processes")
            .positive_number();
  });
  errors.check([&] {
    spec.unit = table.require("unit", "Add unit, e.g. \"frames\"; throughput is reported in unit/s")
                    .non_empty_string();
  });
  errors.throw_if_any();
  config.throughput = spec;
}

void read_component_metrics(BenchmarkConfig& config, const ConfigValue& value) {
  for (const auto& [metric, region] : value.members()) {
    if (metric.empty() || standard_metric(metric)) {
      throw region.error("'" + metric + "' cannot name a component metric",
                         "Choose a name other than the standard metrics (latency, throughput, "
                         "memory, cpu_time, gpu_memory)");
    }
    config.component_metrics[metric] = region.non_empty_string();
  }
}

void read_regression_thresholds(BenchmarkConfig& config, const ConfigValue& value) {
  ErrorList errors;
  for (const auto& [metric, policy] : value.members()) {
    errors.check([&, &metric = metric, &policy = policy] {
      config.regression_thresholds[metric] = read_metric_policy(policy);
    });
  }
  errors.throw_if_any();
}

// The metrics a record of `config` can carry: measured ones, throughput when declared, and
// the component metrics. Without a component_metrics mapping a program's reported names
// are kept as they are, so other names are possible too.
PolicyMetrics config_policy_metrics(const BenchmarkConfig& config) {
  PolicyMetrics metrics;
  metrics.owner = "this config's records";
  for (const auto name : {metric_names::kLatency, metric_names::kCpuTime, metric_names::kMemory,
                          metric_names::kGpuMemory}) {
    metrics.known.emplace_back(name);
  }
  if (config.throughput) metrics.known.emplace_back(metric_names::kThroughput);
  if (config.run.measure_counts) {
    for (const auto name : {count_metric_names::kInstructions, count_metric_names::kL1Misses,
                            count_metric_names::kLlMisses, count_metric_names::kEstimatedCycles,
                            count_metric_names::kCycles, count_metric_names::kBranchMisses}) {
      metrics.known.emplace_back(name);
    }
  }
  for (const auto& [metric, region] : config.component_metrics) {
    metrics.known.push_back(metric);
    // The region's instruction count, when counted runs are made.
    if (config.run.measure_counts)
      metrics.known.push_back(metric + std::string(count_metric_names::kRegionSuffix));
  }
  metrics.open = config.component_metrics.empty();
  return metrics;
}

// Policies are read before the keys that say which metrics exist may have been; the names
// are checked once everything is read.
void check_policy_metrics(const BenchmarkConfig& config, const ConfigValue& root,
                          ErrorList& errors) {
  const ConfigNode* node = root.node().find("regression_thresholds");
  if (node == nullptr || node->kind != ConfigNode::Kind::kTable) return;  // reported already
  const ConfigValue thresholds(root.document(), *node, "regression_thresholds");
  const PolicyMetrics metrics = config_policy_metrics(config);
  for (const auto& [metric, policy] : thresholds.members()) {
    errors.check(
        [&, &metric = metric, &policy = policy] { check_policy_metric(policy, metric, metrics); });
  }
}

std::optional<CommandSpec>& hook(BenchmarkConfig& config, const std::string& key) {
  if (key == "setup") return config.setup;
  if (key == "prepare") return config.prepare;
  if (key == "conclude") return config.conclude;
  return config.cleanup;
}

// Every top-level key, in the order the docs list them. The list doubles as the set of
// known keys for suggestions.
const std::vector<std::pair<std::string, KeyReader>>& key_readers() {
  using C = BenchmarkConfig;
  using V = ConfigValue;
  using X = LoadContext;
  // A top-level value's path is its key, which names the hook it fills.
  const auto hook_reader = [](C& c, const V& v, const X&) { hook(c, v.path()) = read_command(v); };
  static const std::vector<std::pair<std::string, KeyReader>> readers = {
      {"benchmark_id", [](C& c, const V& v, const X&) { read_benchmark_id(c, v); }},
      {"config_schema_version", [](C& c, const V& v, const X&) { read_schema_version(c, v); }},
      {"workload_id", [](C& c, const V& v, const X&) { c.workload_id = v.non_empty_string(); }},
      {"variant_id", [](C& c, const V& v, const X&) { c.variant_id = v.non_empty_string(); }},
      {"benchmark_version", [](C& c, const V& v, const X&) { read_benchmark_version(c, v); }},
      {"description", [](C& c, const V& v, const X&) { c.description = v.string(); }},
      {"command", [](C& c, const V& v, const X&) { c.command = read_command(v); }},
      {"cwd", [](C& c, const V& v, const X& x) { c.cwd = resolve(x, v.non_empty_string()); }},
      {"env", [](C& c, const V& v, const X&) { read_env(c, v); }},
      {"setup", hook_reader},
      {"prepare", hook_reader},
      {"conclude", hook_reader},
      {"cleanup", hook_reader},
      {"inputs", [](C& c, const V& v, const X& x) { read_inputs(c, v, x); }},
      {"parameters", [](C& c, const V& v, const X&) { c.parameters = read_parameters(v); }},
      {"run_config", [](C& c, const V& v, const X&) { read_run_config(c, v); }},
      {"throughput", [](C& c, const V& v, const X&) { read_throughput(c, v); }},
      {"component_metrics", [](C& c, const V& v, const X&) { read_component_metrics(c, v); }},
      {"thresholds", [](C& c, const V& v, const X&) { c.thresholds = read_thresholds(v); }},
      {"regression_thresholds",
       [](C& c, const V& v, const X&) { read_regression_thresholds(c, v); }},
      {"quality_metadata",
       [](C& c, const V& v, const X&) {
         v.members();  // throws unless it is an object/table
         c.quality_metadata = v.node().to_json();
       }},
  };
  return readers;
}

std::vector<std::string> known_top_level_keys() {
  std::vector<std::string> keys;
  for (const auto& [key, reader] : key_readers()) keys.push_back(key);
  return keys;
}

// v2 identity must be complete in v2 and absent elsewhere: a half-migrated config would
// otherwise run as v1 and silently skip the rolling baseline.
void check_schema_identity(const BenchmarkConfig& config, const ConfigValue& root,
                           ErrorList& errors) {
  if (config.is_v2()) {
    for (const auto& key : kV2IdentityKeys) {
      if (root.node().find(key) == nullptr) {
        errors.add(root.child_error(key, "missing required key for config_schema_version 2",
                                    "Add " + key +
                                        "; v2 configs need workload_id, variant_id and "
                                        "benchmark_version"));
      }
    }
    return;
  }
  for (const auto& key : kV2OnlyKeys) {
    if (root.node().find(key) != nullptr) {
      errors.add(root.child_error(
          key, "only allowed with config_schema_version 2",
          "Add config_schema_version = 2 (with workload_id, variant_id and benchmark_version) "
          "to migrate the config, or remove " +
              key));
    }
  }
}

// workload_id and variant_id name a cohort for every state alike: a `{level}` in them is
// never filled in, so it would show literally on every record and dashboard.
void check_identity_placeholders(const BenchmarkConfig& config, const ConfigValue& root,
                                 ErrorList& errors) {
  static const std::regex placeholder(R"(\{([A-Za-z_][A-Za-z0-9_]*)\})");
  for (const auto& [key, value] : {std::pair<std::string, const std::optional<std::string>*>{
                                       "workload_id", &config.workload_id},
                                   {"variant_id", &config.variant_id}}) {
    std::smatch match;
    if (!*value || !std::regex_search(**value, match, placeholder)) continue;
    const std::string name = match[1].str();
    const bool axis = std::any_of(config.parameters.begin(), config.parameters.end(),
                                  [&](const auto& entry) { return entry.first == name; });
    errors.add(root.child_error(
        key,
        "'" + match[0].str() + "' is not filled in: " + key + " is the same for every state" +
            (axis ? " of the [parameters] axes" : ", and no axis is named '" + name + "'"),
        axis ? "Remove it: each state's records already carry " + name +
                   "=<value> in their "
                   "name (" +
                   config.benchmark_id + "[" + name + "=…])"
             : "Remove the braces, or add a [parameters] axis and leave " + key + " without it"));
  }
}

// A device type without its own thresholds block would silently fall back to `default`.
void check_device_thresholds(const BenchmarkConfig& config, const ConfigValue& root,
                             ErrorList& errors) {
  if (config.run.device_types.empty()) return;
  if (root.node().find("thresholds") == nullptr) {
    errors.add(root.child_error("thresholds",
                                "missing; required because run_config sets device types",
                                "Add a thresholds table with a default block and one block "
                                "per device type"));
    return;
  }
  const ConfigNode& run_config = *root.node().find("run_config");
  const std::string key = run_config.find("device_types") ? "device_types" : "gpu_types";
  const ConfigValue list(root.document(), *run_config.find(key), "run_config." + key);
  for (const auto& entry : list.items()) {
    const std::string device = entry.string();
    const bool matched =
        std::any_of(config.thresholds.begin(), config.thresholds.end(), [&](const auto& block) {
          const std::string& device_key = block.first;
          return device_key != "default" && (device.find(device_key) != std::string::npos ||
                                             device_key.find(device) != std::string::npos);
        });
    if (!matched) {
      errors.add(entry.error("no thresholds block matches device type '" + device + "'",
                             "Add a thresholds." + device +
                                 " block so this device is not gated by the default block"));
    }
  }
}

}  // namespace

std::optional<std::pair<std::string, std::string>> benchmark_id_problem(const std::string& id) {
  const std::string fix =
      "Use letters, digits, '.', '_' and '-', starting with a letter or digit; the id becomes "
      "part of file names";
  if (id.empty()) return std::pair{std::string("must not be empty"), fix};
  const auto allowed = [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-';
  };
  if (std::isalnum(static_cast<unsigned char>(id.front())) == 0) {
    return std::pair{"must start with a letter or digit, found '" + id + "'", fix};
  }
  if (auto bad = std::find_if_not(id.begin(), id.end(), allowed); bad != id.end()) {
    return std::pair{"contains '" + std::string(1, *bad) + "', which is not allowed", fix};
  }
  if (id.size() > kMaxBenchmarkIdLength) {
    return std::pair{"is " + std::to_string(id.size()) + " characters long",
                     "Shorten it to at most " + std::to_string(kMaxBenchmarkIdLength)};
  }
  return std::nullopt;
}

BenchmarkConfig load_benchmark_config(const std::filesystem::path& file,
                                      const ProjectConfig& project) {
  const ConfigDocument document = read_config_document(file);
  const ConfigValue root(document, document.root, "");
  if (root.kind() != ConfigNode::Kind::kTable) {
    throw root.error(
        "the top level must be an object, found " + describe_kind(root.kind(), document.format),
        "Put the benchmark's settings in one { ... } object");
  }

  BenchmarkConfig config;
  config.source = file;
  // A README-style suite runs `./build/sort` from the project root (perfgate.toml's folder,
  // or the repository root that holds .perfgate/), and outside any project from the folder
  // the user started perfgate in.
  config.default_cwd =
      project.source ? std::filesystem::absolute(*project.source).lexically_normal().parent_path()
      : project.root ? *project.root
                     : std::filesystem::current_path();
  apply_project_run_defaults(project, config.run);

  const LoadContext context{std::filesystem::absolute(file).parent_path()};
  ErrorList errors;
  std::set<std::string> failed_keys;  // cross-checks need their inputs to be valid
  for (const auto& [key, value] : root.members()) {
    const auto reader =
        std::find_if(key_readers().begin(), key_readers().end(),
                     [&key = key](const auto& entry) { return entry.first == key; });
    if (reader == key_readers().end()) {
      errors.add(unknown_key_error(root, key, known_top_level_keys()));
    } else if (!errors.check([&, &value = value] { reader->second(config, value, context); })) {
      failed_keys.insert(key);
    }
  }
  if (root.node().find("benchmark_id") == nullptr) {
    errors.add(root.child_error("benchmark_id", "missing required key",
                                "Add a benchmark_id such as \"my-benchmark\""));
  }
  if (root.node().find("command") == nullptr) {
    errors.add(root.child_error("command", "missing required key",
                                "Add the command to measure, as an argv array or a shell "
                                "string"));
  }
  if (!failed_keys.contains("config_schema_version")) check_schema_identity(config, root, errors);
  if (!failed_keys.contains("parameters")) check_identity_placeholders(config, root, errors);
  if (!failed_keys.contains("run_config") && !failed_keys.contains("thresholds")) {
    check_device_thresholds(config, root, errors);
  }
  if (!failed_keys.contains("throughput") && !failed_keys.contains("component_metrics")) {
    check_policy_metrics(config, root, errors);
  }
  errors.throw_if_any();
  return config;
}

}  // namespace perfgate
