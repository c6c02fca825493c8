#pragma once
// Which states `perfgate diff` looks at: benchmark and axis filters scoped as in nvbench's
// command line (-a applies to the latest -b, or to every benchmark when it comes before
// any -b), and device filters paired by position.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ingest/result_file.hpp"

namespace perfgate::diff {

/// One -a NAME=VALUE (or NAME=[V1,V2], or NAME[pow2]=E): the axis and the value texts
/// that match it.
struct AxisFilter {
  std::string axis;
  std::vector<std::string> values;
  std::string display;  ///< as the user wrote it, normalised ("BlockSize=2^8")
};

struct BenchmarkScope {
  std::string benchmark;
  std::vector<AxisFilter> axis_filters;
};

struct FilterPlan {
  std::vector<AxisFilter> global_axis_filters;  ///< -a given before any -b
  std::vector<BenchmarkScope> scopes;           ///< one per -b, in order
};

/// A filter flag in command-line order: kind 'b' (benchmark) or 'a' (axis).
struct FilterFlag {
  char kind = 'b';
  std::string value;
};

/// Parses -b/-a flags in their order. Error(kUsage) naming the flag for an -a that is not
/// NAME=VALUE, an empty list, or a [pow2] exponent that is not a small integer.
FilterPlan build_filter_plan(const std::vector<FilterFlag>& flags);

/// True when some scope selects the benchmark (every benchmark when there is no -b).
bool benchmark_selected(const FilterPlan& plan, const std::string& benchmark);

/// True when the state passes the axis filters of one scope that selects its benchmark:
/// every filter of that scope names an axis of the state whose value text is listed.
bool state_selected(const FilterPlan& plan, const ingest::ResultState& state);

/// --reference-devices / --compare-devices: "all" (nullopt) or comma-separated
/// non-negative ids. Error(kUsage) naming `option` otherwise.
std::optional<std::vector<long long>> parse_device_filter(const std::string& text,
                                                          const std::string& option);

}  // namespace perfgate::diff
