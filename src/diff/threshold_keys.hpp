#pragma once
// Where each threshold lives in a diff config file: its table, its key, its range, and the
// fields that hold it. The parser, the writer and the docs all follow this one list, so a
// key cannot be readable but not writable (or the reverse).
#include <array>
#include <optional>
#include <string_view>

#include "diff/diff_config.hpp"

namespace perfgate::diff {

enum class ThresholdRange {
  kNonNegative,  ///< >= 0
  kFraction,     ///< 0..1
};

struct ThresholdKey {
  std::string_view table;  ///< "clear_gap", "same", "bulk" or "bulk.rare_support"
  std::string_view name;   ///< the key inside that table
  ThresholdRange range;
  double DiffThresholds::*threshold;
  std::optional<double> DiffConfigFile::*setting;
};

/// In the order the file and --dump-config list them.
inline constexpr std::array<ThresholdKey, 8> kThresholdKeys = {{
    {"clear_gap", "relative", ThresholdRange::kNonNegative, &DiffThresholds::clear_gap_relative,
     &DiffConfigFile::clear_gap_relative},
    {"same", "center_relative", ThresholdRange::kNonNegative, &DiffThresholds::same_center_relative,
     &DiffConfigFile::same_center_relative},
    {"same", "overlap_fraction", ThresholdRange::kFraction, &DiffThresholds::same_overlap_fraction,
     &DiffConfigFile::same_overlap_fraction},
    {"same", "relative_dispersion_ceiling", ThresholdRange::kNonNegative,
     &DiffThresholds::same_relative_dispersion_ceiling,
     &DiffConfigFile::same_relative_dispersion_ceiling},
    {"bulk", "sample_coverage", ThresholdRange::kFraction, &DiffThresholds::bulk_sample_coverage,
     &DiffConfigFile::bulk_sample_coverage},
    {"bulk", "support_coverage", ThresholdRange::kFraction, &DiffThresholds::bulk_support_coverage,
     &DiffConfigFile::bulk_support_coverage},
    {"bulk.rare_support", "sample_fraction", ThresholdRange::kFraction,
     &DiffThresholds::rare_support_sample_fraction, &DiffConfigFile::rare_support_sample_fraction},
    {"bulk.rare_support", "max_removed_sample_fraction", ThresholdRange::kFraction,
     &DiffThresholds::rare_support_max_removed_sample_fraction,
     &DiffConfigFile::rare_support_max_removed_sample_fraction},
}};

}  // namespace perfgate::diff
