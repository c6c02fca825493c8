#pragma once
// The thresholds of `perfgate diff` (seed 002): a strict TOML file (version = 1) over a
// named preset, with the seed's precedence. Pure data plus its reader and writer.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::diff {

struct DiffThresholds {
  double clear_gap_relative = 0;                ///< [clear_gap] relative, >= 0
  double same_center_relative = 0;              ///< [same] center_relative, >= 0
  double same_overlap_fraction = 0;             ///< [same] overlap_fraction, 0..1
  double same_relative_dispersion_ceiling = 0;  ///< [same] relative_dispersion_ceiling, >= 0
  double bulk_sample_coverage = 0;              ///< [bulk] sample_coverage, 0..1
  double bulk_support_coverage = 0;             ///< [bulk] support_coverage, 0..1
  double rare_support_sample_fraction = 0;      ///< [bulk.rare_support] sample_fraction, 0..1
  double rare_support_max_removed_sample_fraction = 0;  ///< [bulk.rare_support] ..., 0..1
  /// --allow-single-sample: decide states measured once on a side as any other instead of
  /// AMBG "1 sample: no spread". Not a threshold of the file; no preset sets it.
  bool allow_single_sample = false;
  bool operator==(const DiffThresholds&) const = default;
};

/// The effective configuration: which preset was the base, and the thresholds.
struct DiffConfig {
  std::string preset = "default";
  DiffThresholds thresholds;
  bool operator==(const DiffConfig&) const = default;
};

/// "default", "strict", "permissive".
std::vector<std::string> preset_names();
/// The thresholds of a built-in preset; nullopt for an unknown name.
std::optional<DiffThresholds> preset_thresholds(std::string_view name);

/// What a config file says: its [preset] name (if any) and the keys it sets explicitly.
struct DiffConfigFile {
  std::optional<std::string> preset;
  std::optional<double> clear_gap_relative, same_center_relative, same_overlap_fraction,
      same_relative_dispersion_ceiling, bulk_sample_coverage, bulk_support_coverage,
      rare_support_sample_fraction, rare_support_max_removed_sample_fraction;
};

/// Parses a config file's text strictly. Error(kDataError) "<file>: <key path>: <reason>.
/// <fix>" for syntax errors, a missing or unsupported version, unknown tables or keys
/// (with the nearest known one suggested), wrong nesting, wrong types, non-finite or
/// out-of-range values, and an unknown preset name.
DiffConfigFile parse_diff_config(const std::filesystem::path& file, const std::string& text);
/// Reads and parses a config file; Error(kNoInput) when it cannot be read.
DiffConfigFile read_diff_config(const std::filesystem::path& file);

/// Precedence (seed 002): the base preset is --preset if given, else the file's [preset]
/// name, else "default"; the file's explicit keys then override the base preset's values.
/// Error(kUsage) for an unknown --preset name.
DiffConfig resolve_diff_config(const std::optional<std::string>& cli_preset,
                               const std::optional<DiffConfigFile>& file);

/// The effective configuration as TOML (version, [preset], every key) that
/// parse_diff_config reads back to the same values (numbers written round-trip exact).
std::string dump_diff_config(const DiffConfig& config);

}  // namespace perfgate::diff
