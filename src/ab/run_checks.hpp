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
  std::vector<std::string> expect_output;  ///< ECMAScript regexes searched in the output
};

/// The checks `result` fails, each a sentence ("exit status 3, expected 0"); empty when
/// the run is valid evidence. `output` is the run's stdout and stderr as logged.
std::vector<std::string> failed_run_checks(const ProcessResult& result, const std::string& output,
                                           const RunExpectations& expectations);

}  // namespace perfgate
