#include "report/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace perfgate {
namespace {

constexpr int kSignificantDigits = 4;
constexpr double kMegabytesPerGibibyte = 1024;

std::string significant(double value) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, kSignificantDigits - 1 - magnitude);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

}  // namespace

DisplayUnit choose_display_unit(double reference, const std::string& unit) {
  const double magnitude = std::fabs(reference);
  if (unit == "s") {
    if (magnitude != 0 && magnitude < 1e-6) return {1e-9, "ns"};
    if (magnitude != 0 && magnitude < 1e-3) return {1e-6, "µs"};
    if (magnitude != 0 && magnitude < 1) return {1e-3, "ms"};
    return {1, "s"};
  }
  if (unit == "MB") {
    // perfgate's MB is 2^20 bytes (a MiB: peak RSS, GPU memory, thresholds), so 1024 MB is
    // one GiB: a 10 GB process reads 10.59 GiB, not 10840 MB. Below 1024 it stays MB, the
    // unit thresholds and configs are written in; a process tree never holds less than 1 MB,
    // so nothing smaller is needed.
    if (magnitude >= kMegabytesPerGibibyte) return {kMegabytesPerGibibyte, "GiB"};
    return {1, "MB"};
  }
  if (unit == "B") {
    // Bytes (Google Benchmark's and nvbench's memory figures) take binary prefixes, as
    // memory is counted, from 10^4 up like the other prefixes: 4.106e6 B reads 3.916 MiB,
    // never "4.106 M B", which a reader takes for perfgate's MB (2^20 bytes).
    static constexpr std::pair<double, const char*> kBinary[] = {
        {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
    for (const auto& [factor, suffix] : kBinary) {
      if (magnitude >= factor && magnitude >= 1e4) return {factor, suffix};
    }
    return {1, "B"};
  }
  // Large counts and rates read better with a prefix: 8.334 M records/s, not 8334000.
  // Values from 10^4 up get k (so 9999 stays plain), then M, G, T.
  static constexpr std::pair<double, const char*> kPrefixes[] = {
      {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [factor, prefix] : kPrefixes) {
    if (magnitude >= factor && magnitude >= 1e4) {
      return {factor, unit.empty() ? std::string(prefix) : std::string(prefix) + " " + unit};
    }
  }
  return {1, unit};
}

std::string format_in(double value, const DisplayUnit& display) {
  const std::string number = significant(value / display.divisor);
  return display.suffix.empty() ? number : number + " " + display.suffix;
}

std::string format_quantity(double value, const std::string& unit) {
  return format_in(value, choose_display_unit(value, unit));
}

}  // namespace perfgate
