#pragma once
// The correctness checks every `perfgate ab` run must pass to count as evidence: it ran to
// its expected exit status, produced metrics that can be judged, and printed what the
// scenario expects. Pure: the run's result and output in, the failed checks out.
#include <string>
#include <vector>

#include "measure/executor.hpp"

namespace perfgate {

struct RunExpectations {
  int expect_exit = 0;
  /// ECMAScript regexes, each searched line by line in the output as grep does: it
  /// matches when it matches some line, and ^ and $ anchor at that line's ends.
  std::vector<std::string> expect_output;
  /// The run was `/bin/sh -c ...`: its exit status also tells a missing command (127) or a
  /// crash (128+N), which the failed check then names.
  bool via_shell = false;
};

/// Whether `pattern` matches some line of `output` (lines end at '\n'; a '\r' before it
/// is not part of the line).
bool matches_some_line(const std::string& output, const std::string& pattern);

/// The checks `result` fails, each a sentence ("exit status 3, expected 0"); empty when
/// the run is valid evidence. `output` is the run's stdout and stderr as logged.
std::vector<std::string> failed_run_checks(const ProcessResult& result, const std::string& output,
                                           const RunExpectations& expectations);

}  // namespace perfgate
