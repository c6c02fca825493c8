#pragma once
// `perfgate import FILE...`: results of Google Benchmark, nvbench, hyperfine, pyperf (or
// perfgate) as records with an identity, judged against their rolling baselines like
// `compare` judges measured ones, and stored per the upload policy.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate {

struct ImportCommandOptions {
  std::vector<std::string> files;
  std::string format_in;
  std::string benchmark_prefix;
  std::optional<std::string> workload_id;
  std::optional<std::string> variant_id;
  std::optional<long long> benchmark_version;
  std::string mapping;
  std::string run_source;
  std::string store;
  std::string project;
  std::string upload;
  bool json = false;
  bool dry_run = false;
  bool init = false;
};

CLI::App* add_import_command(CLI::App& app, ImportCommandOptions& options);
int execute_import(const ImportCommandOptions& options);

}  // namespace perfgate
