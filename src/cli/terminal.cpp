#include "cli/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace perfgate {

namespace {
bool g_color_forbidden = false;
}  // namespace

bool color_forbidden() {
  if (g_color_forbidden) return true;
  const char* no_color = std::getenv("NO_COLOR");
  return no_color != nullptr && no_color[0] != '\0';
}

void forbid_color() {
  g_color_forbidden = true;
}

bool stdout_supports_color() {
  if (color_forbidden()) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

std::size_t stdout_columns() {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    char* end = nullptr;
    const unsigned long value = std::strtoul(columns, &end, 10);
    if (*end == '\0' && value > 0) return value;
  }
  winsize size{};
  if (::isatty(STDOUT_FILENO) == 1 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0)
    return size.ws_col;
  return 0;
}

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

}  // namespace perfgate
