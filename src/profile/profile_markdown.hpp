#pragma once
// The Markdown view of a probe report: a pure function of the report, so rendering the
// same JSON twice gives the same bytes (docs/profile.md shows its sections).
#include <string>

#include "profile/probe_report.hpp"

namespace perfgate::profile {

/// Overview, Runs, Regions, Per-run attribution (each run's regions, then an
/// `_(residual)_` row), Key averages (by self and by total time) and Warnings.
std::string render_markdown(const ProbeReport& report);

}  // namespace perfgate::profile
