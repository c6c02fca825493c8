// The floor under the probe's report at exit: probe_exit's program, which records nothing,
// writing a ready-made report of the same size (3 KB) at exit the way the probe does (a
// temporary beside the report, the old report removed, the rename), from .fini_array. What
// this adds to the program is what any report written at exit costs on this machine; run.sh
// prints it beside what the probe adds.
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace {

constexpr std::size_t kReportBytes = 3072;

constexpr std::array<char, kReportBytes> kReport = [] {
  std::array<char, kReportBytes> text{};
  constexpr char kHead[] = "{\"floor\":\"";
  constexpr char kTail[] = "\"}\n";
  std::size_t at = 0;
  for (std::size_t i = 0; kHead[i] != '\0'; ++i) text[at++] = kHead[i];
  while (at < kReportBytes - (sizeof kTail - 1)) text[at++] = 'x';
  for (std::size_t i = 0; kTail[i] != '\0'; ++i) text[at++] = kTail[i];
  return text;
}();

/// Appends the decimal digits of `value` to `out` (no printf: the probe uses none either).
char* append_number(char* out, long value) {
  char digits[24];
  int length = 0;
  do {
    digits[length++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (length > 0) *out++ = digits[--length];
  return out;
}

[[gnu::destructor]] void write_floor_report() {
  const char* path = std::getenv("PERFGATE_PROBE_OUT");
  if (path == nullptr || *path == '\0') return;
  const std::size_t length = std::strlen(path);
  char temporary[4096];
  if (length + 32 > sizeof temporary) return;
  std::memcpy(temporary, path, length);
  char* end = temporary + length;
  std::memcpy(end, ".tmp-", 5);
  *append_number(end + 5, static_cast<long>(getpid())) = '\0';
  const int file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (file < 0) return;
  const bool written =
      write(file, kReport.data(), kReport.size()) == static_cast<ssize_t>(kReport.size());
  if (close(file) == 0 && written) {
    unlink(path);
    if (rename(temporary, path) == 0) return;
  }
  unlink(temporary);
}

}  // namespace

int main() {
  const auto started = std::chrono::steady_clock::now();
  return std::chrono::steady_clock::now() < started ? 1 : 0;
}
