#include "measure/executor.hpp"

#include <fmt/format.h>

#include <cstring>

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
    case ProcessOutcome::kFailedToStart:
      break;
  }
  return "could not start: " + error;
}

}  // namespace perfgate
