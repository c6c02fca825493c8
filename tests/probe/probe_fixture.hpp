#pragma once
// Shared by the probe tests: each test starts from an empty probe on the real clock and
// reads the report back as JSON.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "model/json.hpp"
#include "perfgate/probe.hpp"
#include "probe/registry.hpp"
#include "probe/report_writer.hpp"
#include "probe/testing.hpp"

namespace perfgate::probe::testing {

class ProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    detail::use_clock_for_testing({nullptr, nullptr});
    detail::reset_for_testing();
  }
  void TearDown() override {
    detail::use_clock_for_testing({nullptr, nullptr});
    detail::reset_for_testing();
  }

  static Json report() { return Json::parse(detail::render_report(detail::ReportMoment::kFlush)); }
};

/// Busy-waits: unlike a sleep, the wall time it takes does not grow on a loaded machine.
inline void spin_for(std::chrono::microseconds duration) {
  const auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// The row of `region_id` in a run's regions, or null.
inline Json run_row(const Json& run, const std::string& region_id) {
  for (const Json& row : run["regions"]) {
    if (row["region_id"] == region_id) return row;
  }
  return nullptr;
}

/// The codes of the report's warnings, in order.
inline std::vector<std::string> warning_codes(const Json& report) {
  std::vector<std::string> codes;
  for (const Json& warning : report["warnings"]) codes.push_back(warning["code"]);
  return codes;
}

}  // namespace perfgate::probe::testing
