#pragma once
// `perfgate diff REF CMP`: the interval comparison of two result files of any supported
// format (SPEC §8, seed 002).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate {

struct DiffOptions {
  std::vector<std::string> files;
  std::vector<std::string> benchmarks;  ///< -b, in order
  std::vector<std::string> axes;        ///< -a, in order; scoped by parse order
  std::string reference_devices = "all";
  std::string compare_devices = "all";
  bool ignore_devices = false;
  std::string display = "intervals";
  bool no_color = false;
  std::optional<std::string> preset;
  std::optional<std::string> config;
  bool dump_config = false;
  std::optional<std::string> bulk_debug_python;
  std::string format = "text";
  std::vector<std::string> fail_on;
  std::optional<std::string> format_in;
  double threshold_diff = 0;
  bool allow_single_sample = false;
  CLI::App* command = nullptr;  ///< to recover the order of -b and -a
};

CLI::App* add_diff_command(CLI::App& app, DiffOptions& options);
int execute_diff(const DiffOptions& options);

}  // namespace perfgate
