#pragma once
// Collects every error found while validating, so a user fixes a suite in one pass
// instead of one error per run.
#include <string>
#include <vector>

#include "model/error.hpp"

namespace perfgate {

class ErrorList {
 public:
  void add(const Error& error) { errors_.push_back(error); }

  /// Runs `check`; an Error it throws is recorded instead of propagated.
  /// Returns whether `check` passed.
  template <typename Check>
  bool check(Check&& check) {
    try {
      check();
      return true;
    } catch (const Error& error) {
      add(error);
      return false;
    }
  }

  /// Throws one Error listing every message on its own line, with the first error's code.
  void throw_if_any() const;

 private:
  std::vector<Error> errors_;
};

}  // namespace perfgate
