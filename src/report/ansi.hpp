#pragma once
// Terminal colours for the tables, used only when the caller decided colour is allowed
// (a terminal, no NO_COLOR).
#include <string>

namespace perfgate::ansi {

inline constexpr const char* kRed = "\x1b[31m";
inline constexpr const char* kGreen = "\x1b[32m";
inline constexpr const char* kYellow = "\x1b[33m";
inline constexpr const char* kBold = "\x1b[1m";
inline constexpr const char* kReset = "\x1b[0m";

/// `text` in `color` when `enabled`, else as it is.
inline std::string paint(const std::string& text, const char* color, bool enabled) {
  return enabled ? std::string(color) + text + kReset : text;
}

}  // namespace perfgate::ansi
