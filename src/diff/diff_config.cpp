// The built-in presets of `perfgate diff`, the seed's precedence between --preset, a
// config file's [preset] and its explicit keys, and the TOML that --dump-config prints.
#include "diff/diff_config.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "diff/threshold_keys.hpp"
#include "model/error.hpp"

namespace perfgate::diff {
namespace {

// Why these values: docs/diff.md ("Presets"). `default` is the seed's configuration.
// `strict` needs a wider gap before FAST/SLOW and tighter agreement before SAME;
// `permissive` is the opposite. Both keep the rare-value cut-off of the default (one
// sample in a thousand) and move only how much sample mass that filter may drop.
constexpr DiffThresholds kDefault{
    .clear_gap_relative = 0.005,
    .same_center_relative = 0.005,
    .same_overlap_fraction = 0.5,
    .same_relative_dispersion_ceiling = 0.02,
    .bulk_sample_coverage = 0.97,
    .bulk_support_coverage = 0.8,
    .rare_support_sample_fraction = 0.001,
    .rare_support_max_removed_sample_fraction = 0.01,
};

constexpr DiffThresholds kStrict{
    .clear_gap_relative = 0.01,
    .same_center_relative = 0.0025,
    .same_overlap_fraction = 0.75,
    .same_relative_dispersion_ceiling = 0.01,
    .bulk_sample_coverage = 0.99,
    .bulk_support_coverage = 0.9,
    .rare_support_sample_fraction = 0.001,
    .rare_support_max_removed_sample_fraction = 0.005,
};

constexpr DiffThresholds kPermissive{
    .clear_gap_relative = 0.0025,
    .same_center_relative = 0.01,
    .same_overlap_fraction = 0.25,
    .same_relative_dispersion_ceiling = 0.05,
    .bulk_sample_coverage = 0.9,
    .bulk_support_coverage = 0.6,
    .rare_support_sample_fraction = 0.001,
    .rare_support_max_removed_sample_fraction = 0.02,
};

constexpr std::array<std::pair<std::string_view, DiffThresholds>, 3> kPresets = {{
    {"default", kDefault},
    {"strict", kStrict},
    {"permissive", kPermissive},
}};

/// Shortest text that reads back to the same double, always spelled as a TOML float
/// (a bare "1" would read back as an integer).
std::string toml_float(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& [name, thresholds] : kPresets) names.emplace_back(name);
  return names;
}

std::optional<DiffThresholds> preset_thresholds(std::string_view name) {
  for (const auto& [preset, thresholds] : kPresets) {
    if (preset == name) return thresholds;
  }
  return std::nullopt;
}

DiffConfig resolve_diff_config(const std::optional<std::string>& cli_preset,
                               const std::optional<DiffConfigFile>& file) {
  DiffConfig config;
  if (cli_preset) {
    config.preset = *cli_preset;
  } else if (file && file->preset) {
    config.preset = *file->preset;
  }
  const std::optional<DiffThresholds> base = preset_thresholds(config.preset);
  if (!base) {
    // A file's preset name was checked by the parser, so only --preset can get here.
    throw Error(ExitCode::kUsage, "--preset: unknown preset '" + config.preset +
                                      "'. Use default, strict or permissive.");
  }
  config.thresholds = *base;
  if (file) {
    for (const ThresholdKey& key : kThresholdKeys) {
      if (const std::optional<double>& value = (*file).*key.setting) {
        config.thresholds.*key.threshold = *value;
      }
    }
  }
  return config;
}

std::string dump_diff_config(const DiffConfig& config) {
  std::string text = "version = 1\n\n[preset]\nname = \"" + config.preset + "\"\n";
  std::string_view table;
  for (const ThresholdKey& key : kThresholdKeys) {
    if (key.table != table) {
      table = key.table;
      text += "\n[" + std::string(table) + "]\n";
    }
    text += std::string(key.name) + " = " + toml_float(config.thresholds.*key.threshold) + "\n";
  }
  return text;
}

}  // namespace perfgate::diff
