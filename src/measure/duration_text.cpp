#include "measure/duration_text.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace perfgate {

double parse_duration_text(std::string_view text) {
  const auto bad = [&] {
    return std::invalid_argument(fmt::format(
        "'{}' is not a duration; write a positive number with a unit: 90s, 2m, 1h or 500ms "
        "(a bare number is seconds)",
        text));
  };
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) throw bad();
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  static constexpr std::array<std::pair<std::string_view, double>, 6> kUnits = {
      {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"m", 60}, {"min", 60}, {"h", 3600}}};
  for (const auto& [name, scale] : kUnits) {
    if (unit == name) {
      const double seconds = value * scale;
      if (!std::isfinite(seconds) || seconds <= 0) throw bad();
      return seconds;
    }
  }
  throw bad();
}

std::string describe_duration(double seconds) {
  return fmt::format("{:g} s", seconds);
}

}  // namespace perfgate
