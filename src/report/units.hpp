#pragma once
// Human-readable quantities for every report (terminal, Markdown, HTML): one rule picks
// the unit a quantity is shown in, so the same metric reads the same everywhere.
#include <string>

namespace perfgate {

/// The unit a quantity is shown in: value / divisor, followed by `suffix`.
struct DisplayUnit {
  double divisor = 1;
  std::string suffix;  ///< "ms", "MB", "k records/s", "" for a plain count
};

/// The display unit for quantities of `unit` around the magnitude of `reference`:
/// seconds scale to ns, µs, ms or s; MB (perfgate's MB is 2^20 bytes) stays MB below
/// 1024 and becomes GiB from there; other units take a k, M, G or T prefix from 10^4 up.
/// Use one
/// display unit for values shown side by side (current and baseline), chosen from the
/// larger of them; a threshold's absolute amount is a quantity of its own.
DisplayUnit choose_display_unit(double reference, const std::string& unit);

/// `value` in `display` with 4 significant digits in plain decimals, trailing zeros
/// dropped: "12.35 s", "10.59 GiB", "0.5 MB", "8.334 M records/s".
std::string format_in(double value, const DisplayUnit& display);

/// format_in(value, choose_display_unit(value, unit)): one quantity on its own.
std::string format_quantity(double value, const std::string& unit);

}  // namespace perfgate
