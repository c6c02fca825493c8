#include "cli/terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace perfgate {

bool stdout_supports_color() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

}  // namespace perfgate
