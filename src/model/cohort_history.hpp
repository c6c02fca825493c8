#pragma once
// What the rolling-baseline judge needs to know about a cohort's past (SPEC §6), fetched
// from the store by the command and handed to the judge, which never queries anything.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// How many records the rolling baseline takes the median of (SPEC §6).
inline constexpr std::size_t kRollingBaselineSize = 5;
/// How many of a cohort's newest eligible records compare --method stat estimates the
/// spread between records from (the baseline's five among them).
inline constexpr std::size_t kSpreadHistorySize = 20;

/// How many records of a cohort's history `method` judges with: the spread's for stat,
/// none beyond the baseline for seed.
inline std::size_t history_size_for(CompareMethod method) {
  return method == CompareMethod::kStat ? kSpreadHistorySize : 0;
}

struct CohortHistory {
  /// The last (up to 5) successful, eligible records of the cohort with at least one
  /// measured metric, newest first; none of them from the batch under judgement.
  std::vector<NormalizedRecord> baseline;
  /// The last (up to kSpreadHistorySize) such records, newest first, the baseline's
  /// among them, when asked for (compare --method stat); empty otherwise.
  std::vector<NormalizedRecord> history;
  /// Recipe fingerprints of trusted successful records (trusted run source or eligible)
  /// of the same workload, variant and version under another recipe, on any profile.
  std::vector<std::string> other_trusted_recipes;
};

using CohortHistories = std::map<CohortKey, CohortHistory>;

}  // namespace perfgate
