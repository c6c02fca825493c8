#pragma once
// The Mann-Whitney U test of two independent samples (H. B. Mann and D. R. Whitney, "On a
// Test of Whether one of Two Random Variables is Stochastically Larger than the Other",
// Annals of Mathematical Statistics 18, 1947), two-sided, computed as SciPy's
// scipy.stats.mannwhitneyu computes it with its defaults (method "auto", continuity
// correction), which Google Benchmark's compare.py calls: the exact distribution of U when
// the smaller sample has at most 8 values and no value is tied, else the normal
// approximation with the tie correction. Pure: values in, values out.
#include <cstddef>
#include <span>

namespace perfgate::stats {

struct MannWhitneyResult {
  double u = 0;  ///< U of the first sample: how often one of its values exceeds one of the second's
                 ///< (ties count half)
  double p_value = 1;  ///< two-sided
  bool exact = false;  ///< from the exact distribution, not the normal approximation
};

/// Both samples need a value each (asserted); values must be finite.
MannWhitneyResult mann_whitney_u(std::span<const double> first, std::span<const double> second);

}  // namespace perfgate::stats
