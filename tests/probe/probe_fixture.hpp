#pragma once
// Shared by the probe tests: each test starts from an empty probe on the real clock and
// reads the report back as JSON.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
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

/// A probe on an injected clock: every wall reading advances 1 µs and every CPU reading
/// (process or thread) 0.4 µs, so every figure of a report is exact.
class FakeClockTest : public ProbeTest {
 protected:
  void SetUp() override {
    wall_ns_ = 0;
    cpu_ns_ = 0;
    detail::use_clock_for_testing({fake_wall_ns, fake_cpu_ns});
    detail::reset_for_testing();  // the trace's time origin: the first reading, 1 µs
  }

 private:
  static std::uint64_t fake_wall_ns() { return wall_ns_ += 1000; }
  static std::uint64_t fake_cpu_ns() { return cpu_ns_ += 400; }
  static inline std::uint64_t wall_ns_ = 0;
  static inline std::uint64_t cpu_ns_ = 0;
};

/// Busy-waits until `deadline`: unlike a sleep, it does not overshoot on a loaded machine
/// unless it is preempted right at the end.
inline void spin_until(std::chrono::steady_clock::time_point deadline) {
  while (std::chrono::steady_clock::now() < deadline) {
  }
}

inline void spin_for(std::chrono::microseconds duration) {
  spin_until(std::chrono::steady_clock::now() + duration);
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
