#include "diff/clear_gap.hpp"

#include <algorithm>

namespace perfgate::diff {

std::optional<DiffStatus> clear_gap(const CenteredInterval& reference,
                                    const CenteredInterval& compare, double relative) {
  if (compare.upper < reference.lower &&
      (reference.lower - compare.upper) / compare.upper >= relative) {
    return DiffStatus::kFast;
  }
  if (compare.lower > reference.upper &&
      (compare.lower - reference.upper) / reference.upper >= relative) {
    return DiffStatus::kSlow;
  }
  return std::nullopt;
}

double relative_gap(const CenteredInterval& reference, const CenteredInterval& compare) {
  return std::max((reference.lower - compare.upper) / compare.upper,
                  (compare.lower - reference.upper) / reference.upper);
}

}  // namespace perfgate::diff
