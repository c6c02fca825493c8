#pragma once
// The energy statistic of E-divisive (Matteson & James, "A Nonparametric Approach for
// Multiple Change Point Analysis of Multivariate Data", JASA 2014), for one series split in
// two, with exponent alpha = 1: how much more the two parts differ from each other than
// each differs within itself. Pure functions: values in, values out.
#include <cstddef>
#include <span>
#include <vector>

namespace perfgate::stats {

/// Q̂ of every split of `values` (m of them): element t - 1 belongs to the split whose left
/// part is the first t values, for t = 1 .. m - 1 (an empty vector for m < 2). With X the
/// first t values and Y the other m - t,
///   Ê = 2 mean|x - y| - mean|x - x'| - mean|y - y'|   (the means over distinct pairs;
///                                                      a part of one value has none: 0)
///   Q̂ = t (m - t) / m * Ê.
/// O(m log m): the within-part sums are kept as the split moves, with the values' ranks in
/// two Fenwick trees, rather than the O(m^2) sums of the definition.
std::vector<double> energy_split_statistics(std::span<const double> values);

}  // namespace perfgate::stats
