#pragma once
// Pairs the states of a reference and a compare file (seed 002): by benchmark name, by
// device (paired by position), by state key and axis values, and by occurrence order for
// states that appear more than once. States found on one side only stay in the result
// (their status is ????) so nothing silently disappears from a comparison.
#include <optional>
#include <string>
#include <vector>

#include "diff/state_filter.hpp"
#include "ingest/result_file.hpp"

namespace perfgate::diff {

struct MatchedState {
  const ingest::ResultState* reference = nullptr;  ///< null: only in the compare file
  const ingest::ResultState* compare = nullptr;    ///< null: only in the reference file
  std::size_t occurrence = 0;                      ///< 0-based among states with the same key
  std::size_t occurrence_count = 1;                ///< how many states share the key (larger side)
};

/// The key states are matched by within a benchmark: the state key plus the sorted axis
/// values.
std::string match_key(const ingest::ResultState& state);

/// One table of the display: a benchmark on one device pair.
struct MatchedSection {
  std::string benchmark;
  std::optional<ingest::ResultDevice> reference_device;  ///< nullopt for host-only formats
  std::optional<ingest::ResultDevice> compare_device;
  std::vector<std::string> axis_names;  ///< column order: first seen in the section
  std::vector<MatchedState> states;     ///< reference order, then compare-only states
};

struct MatchOptions {
  FilterPlan filters;
  std::optional<std::vector<long long>> reference_devices;  ///< nullopt = all
  std::optional<std::vector<long long>> compare_devices;
  bool ignore_devices = false;
};

struct MatchResult {
  std::vector<MatchedSection> sections;  ///< reference benchmark order, then compare-only
  std::vector<std::string> warnings;     ///< e.g. device sections that differ (ignored)
};

/// Matches the two files. Error(kDataError) when the device lists differ and neither
/// --ignore-devices nor a device filter was given, or when a benchmark has a different
/// number of devices on each side; Error(kUsage) when a device filter names a device the
/// file does not have, or the two filters select different numbers of devices.
MatchResult match_states(const ingest::ResultFile& reference, const ingest::ResultFile& compare,
                         const MatchOptions& options);

}  // namespace perfgate::diff
