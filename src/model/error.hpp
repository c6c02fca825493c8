#pragma once
// The one error type of perfgate: thrown where bad input is found, printed once in main.
#include <stdexcept>
#include <string>

namespace perfgate {

/// Process exit codes shared by every command (SPEC §3).
enum class ExitCode : int {
  kOk = 0,
  kFailure = 1,       ///< REGRESSION, static-threshold breach, failed measured command
  kInconclusive = 2,  ///< INCONCLUSIVE (ab) or AMBG with --fail-on ambg
  kUsage = 64,        ///< bad flag or argument
  kDataError = 65,    ///< malformed config or result file, invalid value
  kNoInput = 66,      ///< input file or store not found
  kSoftware = 70,     ///< internal error
  kIoError = 74,      ///< disk full, permission, store unavailable
};

/// An error meant for the user. The message names the file, the field and the fix.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

}  // namespace perfgate
