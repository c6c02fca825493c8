#include "measure/executor.hpp"

#include <fmt/format.h>

#include <cstring>

#include "measure/interruption.hpp"

namespace perfgate {

namespace {

// "SIGSEGV" for 11; empty for numbers glibc has no abbreviation for (real-time signals).
std::string signal_name(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  return abbreviation == nullptr ? std::string() : std::string("SIG") + abbreviation;
}

}  // namespace

std::string ProcessResult::reason() const {
  switch (outcome) {
    case ProcessOutcome::kExited:
      return exit_code == 0 ? "ok" : fmt::format("exit status {}", exit_code);
    case ProcessOutcome::kSignaled: {
      const std::string name = signal_name(signal);
      return name.empty() ? fmt::format("killed by signal {}", signal)
                          : fmt::format("killed by signal {} ({})", signal, name);
    }
    case ProcessOutcome::kTimedOut:
      return fmt::format("timed out after {} s", timeout_s);
    case ProcessOutcome::kInterrupted:
      return describe_interruption(signal);
    case ProcessOutcome::kFailedToStart:
      break;
  }
  return "could not start: " + error;
}

std::string ProcessResult::reason_under_shell() const {
  if (outcome != ProcessOutcome::kExited) return reason();
  // POSIX sh: 127 when the command is not found, 126 when it cannot be executed, and
  // 128+N when the command was killed by signal N (bash, dash and busybox alike).
  if (exit_code == 127) return "command not found (exit status 127 from the shell)";
  if (exit_code == 126) return "command not executable (exit status 126 from the shell)";
  if (exit_code > 128 && exit_code < 128 + 65) {
    const std::string name = signal_name(exit_code - 128);
    if (!name.empty()) {
      return fmt::format("killed by {} (exit status {} from the shell)", name, exit_code);
    }
  }
  return reason();
}

}  // namespace perfgate
