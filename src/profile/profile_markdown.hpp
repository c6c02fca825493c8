#pragma once
// The Markdown view of a probe report: a pure function of the report, so rendering the
// same JSON twice gives the same bytes (docs/profile.md shows its sections).
#include <string>

#include "profile/probe_report.hpp"

namespace perfgate::profile {

/// Overview, Runs, Regions, Across runs (the mean of the measured runs, with each region's
/// median and longest run), Per-run attribution (each run's tree, its `_(residual)_` row
/// and the sum of its top level and residual; at most 10 runs), Key averages (by self
/// time, by total time, by name) and Warnings.
std::string render_markdown(const ProbeReport& report);

}  // namespace perfgate::profile
