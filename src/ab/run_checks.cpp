#include "ab/run_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <regex>

namespace perfgate {

bool matches_some_line(const std::string& output, const std::string& pattern) {
  const std::regex compiled(pattern);
  std::size_t start = 0;
  while (start <= output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::size_t line_end = end;
    if (line_end > start && output[line_end - 1] == '\r') --line_end;
    if (std::regex_search(output.begin() + static_cast<std::ptrdiff_t>(start),
                          output.begin() + static_cast<std::ptrdiff_t>(line_end), compiled)) {
      return true;
    }
    // The text after a final newline is an empty line only when the output is empty.
    if (end == output.size() || (end + 1 == output.size())) break;
    start = end + 1;
  }
  return false;
}

std::vector<std::string> failed_run_checks(const ProcessResult& result, const std::string& output,
                                           const RunExpectations& expectations) {
  std::vector<std::string> failed;
  if (result.outcome != ProcessOutcome::kExited) {
    // Did not run to completion: there is no sample, and nothing else is worth checking.
    failed.push_back(result.reason());
    return failed;
  }
  if (result.exit_code != expectations.expect_exit) {
    const std::string status = result.exit_code == 0    ? "exit status 0"
                               : expectations.via_shell ? result.reason_under_shell()
                                                        : result.reason();
    failed.push_back(fmt::format("{}, expected {}", status, expectations.expect_exit));
  }
  if (!std::isfinite(result.wall_s) || result.wall_s <= 0 || !std::isfinite(result.cpu_s()) ||
      result.cpu_s() < 0) {
    failed.push_back("bad metrics: duration or CPU time is not a positive finite number");
  }
  if (!std::isfinite(result.peak_rss_mb) || result.peak_rss_mb <= 0) {
    failed.push_back("bad metrics: the memory sampler recorded no peak RSS");
  }
  for (const auto& pattern : expectations.expect_output) {
    if (!matches_some_line(output, pattern)) {
      failed.push_back(fmt::format("output does not match expect_output '{}'", pattern));
    }
  }
  return failed;
}

}  // namespace perfgate
