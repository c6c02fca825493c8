#include "ab/run_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <regex>

namespace perfgate {

std::vector<std::string> failed_run_checks(const ProcessResult& result, const std::string& output,
                                           const RunExpectations& expectations) {
  std::vector<std::string> failed;
  if (result.outcome != ProcessOutcome::kExited) {
    // Did not run to completion: there is no sample, and nothing else is worth checking.
    failed.push_back(result.reason());
    return failed;
  }
  if (result.exit_code != expectations.expect_exit) {
    failed.push_back(
        fmt::format("exit status {}, expected {}", result.exit_code, expectations.expect_exit));
  }
  if (!std::isfinite(result.wall_s) || result.wall_s <= 0 || !std::isfinite(result.cpu_s()) ||
      result.cpu_s() < 0) {
    failed.push_back("bad metrics: duration or CPU time is not a positive finite number");
  }
  if (!std::isfinite(result.peak_rss_mb) || result.peak_rss_mb <= 0) {
    failed.push_back("bad metrics: the memory sampler recorded no peak RSS");
  }
  for (const auto& pattern : expectations.expect_output) {
    if (!std::regex_search(output, std::regex(pattern))) {
      failed.push_back(fmt::format("output does not match expect_output '{}'", pattern));
    }
  }
  return failed;
}

}  // namespace perfgate
