#pragma once
// The two kinds of state the decision tests start from: one with a clear timing gap, one
// that is SAME material; plus shorthands to decide and to check an outcome.
#include <gtest/gtest.h>

#include <optional>
#include <string_view>
#include <vector>

#include "diff_fixtures.hpp"

namespace perfgate::diff::testing {

using ingest::TimingSummary;

constexpr double kMs = 1e-3;
constexpr double kGHz = 1e9;

// Compare lies wholly 7.53% below reference: a clear gap (FAST) before cycles are checked.
inline TimingSummary gap_reference(std::optional<double> clock = std::nullopt) {
  return robust_summary(1.00 * kMs, 1.01 * kMs, 1.02 * kMs, 1.03 * kMs, 0.02, clock);
}
inline TimingSummary gap_compare(std::optional<double> clock = std::nullopt) {
  return robust_summary(0.90 * kMs, 0.91 * kMs, 0.92 * kMs, 0.93 * kMs, 0.02, clock);
}
inline const std::vector<double> kGapReferenceTimes = scaled({1.00, 1.01, 1.02, 1.03, 1.04}, kMs);
inline const std::vector<double> kGapCompareTimes = scaled({0.90, 0.91, 0.92, 0.93, 0.94}, kMs);

// Overlapping intervals whose centers differ by 0.05% and overlap 87.5%: SAME material.
inline TimingSummary same_reference(std::optional<double> clock = std::nullopt,
                                    double noise = 0.003) {
  return robust_summary(1.000 * kMs, 1.001 * kMs, 1.002 * kMs, 1.004 * kMs, noise, clock);
}
inline TimingSummary same_compare(std::optional<double> clock = std::nullopt) {
  return robust_summary(1.0005 * kMs, 1.0015 * kMs, 1.0025 * kMs, 1.0045 * kMs, 0.003, clock);
}
inline const std::vector<double> kSameReferenceTimes =
    scaled({1.000, 1.001, 1.002, 1.003, 1.004}, kMs);
inline const std::vector<double> kSameCompareTimes =
    scaled({1.0005, 1.0015, 1.0025, 1.0035, 1.0045}, kMs);
inline const std::vector<double> kOneGHz(5, 1.0 * kGHz);
inline const std::vector<double> kOnePointOneGHz(5, 1.1 * kGHz);

inline StateComparison decide(const TimingSummary& ref, const TimingSummary& cmp,
                              LazySamples* ref_samples = nullptr,
                              LazySamples* cmp_samples = nullptr, bool has_clock = true) {
  return compare_states(ref, cmp, ref_samples, cmp_samples, has_clock, default_thresholds());
}

inline void expect_outcome(const StateComparison& result, DiffStatus status, std::string_view code,
                           Evidence evidence) {
  EXPECT_EQ(to_string(result.status), to_string(status)) << result.reason.message;
  EXPECT_EQ(result.reason.code, code) << result.reason.message;
  EXPECT_EQ(to_string(result.evidence), to_string(evidence));
  EXPECT_FALSE(result.reason.message.empty());
}

}  // namespace perfgate::diff::testing
