#pragma once
// What the terminal allows: colour only on a terminal and never with NO_COLOR (SPEC §2).
namespace perfgate {

bool stdout_supports_color();
bool stderr_is_terminal();

}  // namespace perfgate
