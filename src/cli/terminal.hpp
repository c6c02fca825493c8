#pragma once
// What the terminal allows: colour only on a terminal, and never with NO_COLOR or
// --no-color (SPEC §2).
#include <cstddef>

namespace perfgate {

/// --no-color was given, or NO_COLOR is set to anything non-empty.
bool color_forbidden();
/// What --no-color does on every command: no colour for the rest of this process.
void forbid_color();
bool stdout_supports_color();
bool stderr_is_terminal();
/// How wide tables may be: $COLUMNS when it is a number (so a pipe can ask for a width
/// too), else the terminal's width, else 0 (no limit: a file or a pipe).
std::size_t stdout_columns();

}  // namespace perfgate
