#pragma once
// How `perfgate diff` writes times, intervals and changes in its tables. Times are in
// seconds and shown in s, ms or us with three decimals, as nvbench's tools do, so tables
// from both read the same; below a microsecond in ns.
#include <optional>
#include <string>

#include "diff/diff_run.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate {

/// The unit of instruction counts: every count in full ("23724476 instr"), since a
/// handful of instructions is the difference between the same work and a change.
inline constexpr const char* kInstructionUnit = "instr";

/// "1.234 ms"; "n/a" for a value that is not finite and positive. `unit` other than "s"
/// prints 4 significant digits and the unit (kInstructionUnit: whole numbers). `magnitude`
/// (seconds) picks the unit when given, so both sides of a row share one: "914.081 µs" beside
/// "1021.000 µs", not beside "1.021 ms"; by default the value's own.
std::string format_diff_value(std::optional<double> value, const std::string& unit,
                              std::optional<double> magnitude = std::nullopt);

/// "1.003 [-0.002, +0.004] ms": the centre and the interval's ends relative to it.
std::string format_center_interval(const std::optional<diff::SideEstimate>& side,
                                   const std::string& unit,
                                   std::optional<double> magnitude = std::nullopt);

/// "[1.001 | 1.003 | 1.007] ms": lower end, centre, upper end.
std::string format_explicit_interval(const std::optional<diff::SideEstimate>& side,
                                     const std::string& unit,
                                     std::optional<double> magnitude = std::nullopt);

/// The magnitude a row's times are shown at: the smaller of its two centres, so the row
/// keeps every digit of its faster side; nullopt when neither side has a centre.
std::optional<double> row_magnitude(const diff::StateComparison& comparison);

/// "0.58%", "inf", or "n/a".
std::string format_fraction_percent(std::optional<double> fraction);

/// For FAST "<= -4.1%" and for SLOW ">= +3.2%": the smallest change the gap between the
/// intervals proves; "" for other statuses.
std::string format_proven_change(const diff::StateComparison& comparison);

/// The Change column: the proven change of a FAST or SLOW row, and for SAME and AMBG the
/// centres' change in parentheses ("(+1.2%)"), which nothing proves; "" for UNKNOWN.
std::string format_change_cell(const diff::StateComparison& comparison);

/// "+1.2%": the centres' difference relative to the smaller centre; "n/a" without centres.
std::string format_center_change(const diff::StateComparison& comparison);

/// "2.5%": the interval's width relative to its centre; "n/a" without an interval.
std::string format_interval_span(const std::optional<diff::SideEstimate>& side);

/// The U test's p-value as compare.py prints it, to 4 decimals ("0.0433", "<0.0001"); ""
/// without a test.
std::string format_u_test(const std::optional<diff::StateComparison::UTest>& test);

/// The bounds behind format_proven_change, as fractions: the gap between the intervals
/// measured from each side's nearest end (same symmetric relative distance as the clear
/// gap test). nullopt without intervals on both sides.
std::optional<std::pair<double, double>> proven_change_bounds(
    const diff::StateComparison& comparison);

/// compare.py's OVERALL_GEOMEAN: the geometric mean of Cmp / Ref over the matches whose
/// two centres are positive (every match, whatever its status), and how many there are.
struct GeometricMeanRatio {
  double ratio = 1;
  std::size_t matches = 0;
};
/// Of the primary timing, or of a metric decided beside it; nullopt when no match has two
/// centres.
std::optional<GeometricMeanRatio> geometric_mean_ratio(
    const diff::DiffOutcome& outcome, std::optional<diff::BesideMetric> beside = std::nullopt);

/// "0.877x (-12.3%) over 14 matches": the summary line's figure.
std::string format_geometric_mean(const GeometricMeanRatio& mean);

}  // namespace perfgate
