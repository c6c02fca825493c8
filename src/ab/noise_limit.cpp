#include "ab/noise_limit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace perfgate {

double median_of(std::span<const double> samples) {
  if (samples.empty()) return 0;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t middle = sorted.size() / 2;
  if (sorted.size() % 2 == 1) return sorted[middle];
  return (sorted[middle - 1] + sorted[middle]) / 2;
}

double SideNoise::relative_range() const {
  if (range == 0) return 0;
  if (median == 0) return std::numeric_limits<double>::infinity();
  return range / median;
}

SideNoise measure_noise(std::span<const double> samples, double noise_limit, bool discard_extreme) {
  SideNoise noise;
  std::vector<double> kept(samples.begin(), samples.end());
  if (discard_extreme && kept.size() > 1) {
    const double median = median_of(kept);
    std::size_t farthest = 0;
    for (std::size_t i = 1; i < kept.size(); ++i) {
      const double distance = std::abs(kept[i] - median);
      const double best = std::abs(kept[farthest] - median);
      if (distance > best || (distance == best && kept[i] > kept[farthest])) farthest = i;
    }
    noise.discarded = farthest;
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(farthest));
  }
  if (kept.empty()) return noise;
  const auto [low, high] = std::minmax_element(kept.begin(), kept.end());
  noise.median = median_of(kept);
  noise.range = *high - *low;
  noise.noisy = noise.range > noise_limit * noise.median;
  return noise;
}

}  // namespace perfgate
