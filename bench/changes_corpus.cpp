// The labelled synthetic corpus of issues 16 and 34 (docs/changes.md, "Quality"): series
// with known steps, in the kinds of noise real benchmark machines make, and the precision,
// recall and F1 of stats::find_change_points on them at a tolerance of +-2 points, with
// each segment test (the Huber test, the default; Yuen's trimmed test; Welch's) side by side.
//   changes_corpus [SERIES] [SEED] [MIN_SEGMENT] [MAX_P_VALUE] [CORPUS]
// CORPUS is "issue34" (the default) or "issue16".
//
// The generator, seeded (std::mt19937_64; the same seed gives the same corpus with the
// same standard library), makes each series as follows:
//   - length uniform in 200..1,000 points, level 100 at the start;
//   - 0 to 4 steps, at least 30 points from each other; each changes the level by 2-30%
//     (uniform), up or down with equal odds. The steps are the labels. issue16: every step
//     at least 30 points from both ends. issue34: at least 10, and in half of the series
//     with a step, the first or the last step 10-20 points from its end;
//   - noise of 1-10% of the level (uniform per series), of one of four kinds, each a quarter
//     of the series: gaussian; gaussian with 1% of points outliers 1.5-3x the level;
//     gaussian plus a slow linear drift of up to +-5% over the whole series (not a change);
//     bimodal: each point is at the level or, with odds 0.3, 4-8% above it (the gap fixed
//     per series), plus the gaussian noise. issue34 adds to every kind 2% of points that
//     are outliers at 1.5-3x the level, as real timings have.
// A found change matches a label within +-2 points, each label at most once (nearest
// first). Precision = matched / found, recall = matched / labels, F1 their harmonic mean.
// Recall is also given by step size in noise standard deviations (the step's relative size
// over the series' relative noise). Last comes the corpus's ceiling at that tolerance: the
// F1 of an oracle that knows every step, its neighbours and the noise, and places each by
// likelihood (report_ceiling).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "stats/change_points.hpp"

namespace {

enum Kind { kGaussian, kOutliers, kDrift, kBimodal };
constexpr std::array<const char*, 4> kKindNames = {"gaussian", "outliers 1%", "slow drift",
                                                   "bimodal"};

struct Series {
  Kind kind;
  double noise;  ///< relative standard deviation
  std::vector<double> values;
  std::vector<std::size_t> steps;  ///< index of the first point after each step
  std::vector<double> sizes;       ///< |relative change| of each step
  std::vector<double> levels;      ///< the level of each segment: 100, then after each step
};

Series make_series(std::mt19937_64& rng, Kind kind, bool issue34) {
  std::uniform_int_distribution<int> length_of(200, 1000);
  std::uniform_int_distribution<int> count_of(0, 4);
  std::uniform_real_distribution<double> unit(0, 1);
  Series s{kind, 0.01 + 0.09 * unit(rng), {}, {}, {}, {100}};
  const int length = length_of(rng);
  const int count = count_of(rng);
  const int margin = issue34 ? 10 : 30;
  if (issue34 && count > 0 && unit(rng) < 0.5) {
    const auto from_end = static_cast<std::size_t>(10 + unit(rng) * 11);  // 10-20
    s.steps.push_back(unit(rng) < 0.5 ? from_end : static_cast<std::size_t>(length) - from_end);
  }
  for (int tries = 0; static_cast<int>(s.steps.size()) < count && tries < 1000; ++tries) {
    const auto at = static_cast<std::size_t>(margin + unit(rng) * (length - 2 * margin));
    const bool spaced = std::all_of(s.steps.begin(), s.steps.end(), [&](std::size_t other) {
      return (at > other ? at - other : other - at) >= 30;
    });
    if (spaced) s.steps.push_back(at);
  }
  std::sort(s.steps.begin(), s.steps.end());
  std::vector<double> level_after;
  double level = 100;
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    const double size = 0.02 + 0.28 * unit(rng);
    s.sizes.push_back(size);
    level *= unit(rng) < 0.5 ? 1 + size : 1 - size;
    level_after.push_back(level);
    s.levels.push_back(level);
  }
  std::normal_distribution<double> gauss(0, 1);
  const double drift = (unit(rng) * 2 - 1) * 0.05;
  const double gap = 0.04 + 0.04 * unit(rng);
  double current = 100;
  std::size_t next = 0;
  for (int i = 0; i < length; ++i) {
    if (next < s.steps.size() && static_cast<std::size_t>(i) == s.steps[next]) {
      current = level_after[next++];
    }
    double value = current;
    if (kind == kDrift) value *= 1 + drift * i / length;
    if (kind == kBimodal && unit(rng) < 0.3) value *= 1 + gap;
    value *= 1 + s.noise * gauss(rng);
    if (kind == kOutliers && unit(rng) < 0.01) value = current * (1.5 + 1.5 * unit(rng));
    if (issue34 && unit(rng) < 0.02) value = current * (1.5 + 1.5 * unit(rng));
    s.values.push_back(std::max(value, 1e-9));
  }
  return s;
}

struct Tally {
  std::size_t found = 0, labels = 0, matched = 0;
  void add(const Tally& other) {
    found += other.found;
    labels += other.labels;
    matched += other.matched;
  }
  std::string row(const std::string& name) const {
    const double precision = found ? static_cast<double>(matched) / found : 1;
    const double recall = labels ? static_cast<double>(matched) / labels : 1;
    const double f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0;
    return fmt::format("{:<28}{:>8}{:>8}{:>9}{:>11.3f}{:>8.3f}{:>7.3f}", name, labels, found,
                       matched, precision, recall, f1);
  }
};

/// Found changes matched to labels within +-2 points, nearest pairs first, one to one.
Tally score(const std::vector<std::size_t>& labels, const std::vector<std::size_t>& found) {
  Tally t{found.size(), labels.size(), 0};
  std::vector<std::array<std::size_t, 3>> pairs;  // distance, label, found
  for (std::size_t l = 0; l < labels.size(); ++l) {
    for (std::size_t f = 0; f < found.size(); ++f) {
      const std::size_t d = labels[l] > found[f] ? labels[l] - found[f] : found[f] - labels[l];
      if (d <= 2) pairs.push_back({d, l, f});
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<bool> label_used(labels.size()), found_used(found.size());
  for (const auto& [d, l, f] : pairs) {
    if (label_used[l] || found_used[f]) continue;
    label_used[l] = found_used[f] = true;
    ++t.matched;
  }
  return t;
}

/// The corpus scored with one segment test, printed as a table.
void report(const std::vector<Series>& corpus, const perfgate::stats::ChangePointOptions& options,
            const char* test_name) {
  std::array<Tally, 4> by_kind{};
  std::array<Tally, 3> by_noise{};  // 1-4%, 4-7%, 7-10%
  std::array<Tally, 3> by_size{};   // labels by step size: 2-5%, 5-10%, 10-30% (recall only)
  std::array<Tally, 3> by_sigma{};  // labels by step size in noise SDs: <2, 2-4, >4
  Tally total;
  for (const Series& s : corpus) {
    std::vector<std::size_t> found;
    for (const auto& change : perfgate::stats::find_change_points(s.values, options)) {
      found.push_back(change.index);
    }
    const Tally t = score(s.steps, found);
    by_kind[s.kind].add(t);
    by_noise[std::min<std::size_t>(2, static_cast<std::size_t>((s.noise - 0.01) / 0.03))].add(t);
    total.add(t);
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      const Tally one = score({s.steps[k]}, found).matched ? Tally{0, 1, 1} : Tally{0, 1, 0};
      by_size[s.sizes[k] < 0.05 ? 0 : s.sizes[k] < 0.10 ? 1 : 2].add(one);
      const double sigmas = s.sizes[k] / s.noise;
      by_sigma[sigmas < 2 ? 0 : sigmas <= 4 ? 1 : 2].add(one);
    }
  }
  fmt::print("\nsegment test: {}\n", test_name);
  fmt::print("{:<28}{:>8}{:>8}{:>9}{:>11}{:>8}{:>7}\n", "", "labels", "found", "matched",
             "precision", "recall", "F1");
  for (std::size_t k = 0; k < 4; ++k) fmt::print("{}\n", by_kind[k].row(kKindNames[k]));
  const std::array<const char*, 3> noise_names = {"noise 1-4%", "noise 4-7%", "noise 7-10%"};
  for (std::size_t k = 0; k < 3; ++k) fmt::print("{}\n", by_noise[k].row(noise_names[k]));
  const auto recall_row = [](const char* name, const Tally& t) {
    fmt::print("{:<28}{:>8}{:>8}{:>9}{:>11}{:>8.3f}\n", name, t.labels, "", t.matched, "",
               t.labels ? static_cast<double>(t.matched) / t.labels : 1.0);
  };
  const std::array<const char*, 3> size_names = {
      "steps of 2-5% (recall)", "steps of 5-10% (recall)", "steps of 10-30% (recall)"};
  for (std::size_t k = 0; k < 3; ++k) recall_row(size_names[k], by_size[k]);
  const std::array<const char*, 3> sigma_names = {"steps < 2 SD (recall)", "steps 2-4 SD (recall)",
                                                  "steps > 4 SD (recall)"};
  for (std::size_t k = 0; k < 3; ++k) recall_row(sigma_names[k], by_sigma[k]);
  fmt::print("{}\n", total.row("all"));
}

/// Where a method that knew each label's true neighbours and the noise would place it, by
/// maximum likelihood, and how sure it would be: the split between the neighbours whose two
/// levels (the mean of the values within c of each side's median) leave the least squared
/// error truncated at c = kOutlierSds noise SDs, and the likelihood's mass within +-2 points
/// of that split (each split weighted exp(-cost / 2 sigma^2)).
struct Placed {
  long error = 0;  ///< placed - true
  double mass_within_tolerance = 0;
  double sigmas = 0;  ///< the step's size in noise SDs
};

std::vector<Placed> place_by_likelihood(const Series& s) {
  constexpr double kOutlierSds = 3;
  const auto median_of = [&](std::size_t begin, std::size_t end) {
    std::vector<double> v(s.values.begin() + static_cast<std::ptrdiff_t>(begin),
                          s.values.begin() + static_cast<std::ptrdiff_t>(end));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  std::vector<Placed> placed;
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    const std::size_t left = k == 0 ? 0 : s.steps[k - 1];
    const std::size_t right = k + 1 == s.steps.size() ? s.values.size() : s.steps[k + 1];
    const double sigma = s.noise * (s.levels[k] + s.levels[k + 1]) / 2;
    const double clip = kOutlierSds * sigma;
    const auto level_of = [&](std::size_t begin, std::size_t end) {
      const double median = median_of(begin, end);
      double sum = 0, count = 0;
      for (std::size_t i = begin; i < end; ++i) {
        if (std::fabs(s.values[i] - median) <= clip) {
          sum += s.values[i];
          count += 1;
        }
      }
      return sum / count;
    };
    const std::size_t first = left + 2;
    std::vector<double> costs;
    for (std::size_t at = first; at + 2 <= right; ++at) {
      const double before = level_of(left, at), after = level_of(at, right);
      double cost = 0;
      for (std::size_t i = left; i < right; ++i) {
        const double r = std::min(std::fabs(s.values[i] - (i < at ? before : after)), clip);
        cost += r * r;
      }
      costs.push_back(cost);
    }
    const auto best =
        static_cast<std::size_t>(std::min_element(costs.begin(), costs.end()) - costs.begin());
    double total = 0, near = 0;
    for (std::size_t j = 0; j < costs.size(); ++j) {
      const double weight = std::exp(-(costs[j] - costs[best]) / (2 * sigma * sigma));
      total += weight;
      if ((j > best ? j - best : best - j) <= 2) near += weight;
    }
    placed.push_back({static_cast<long>(first + best) - static_cast<long>(s.steps[k]), near / total,
                      s.sizes[k] / s.noise});
  }
  return placed;
}

/// What the tolerance of +-2 points allows on this corpus: the F1 of a method that knew
/// every step, its neighbours and the noise, placed each by likelihood, and reported (a)
/// all, (b) those at least X noise SDs large, (c) those whose likelihood mass within +-2
/// points is at least m, X and m the best in hindsight. No method that must find the steps
/// can expect more than (b) or (c) by much.
void report_ceiling(const std::vector<Series>& corpus) {
  std::vector<Placed> all;
  for (const Series& s : corpus) {
    for (const Placed& p : place_by_likelihood(s)) all.push_back(p);
  }
  const auto f1_when = [&](auto reported) {
    std::size_t found = 0, matched = 0;
    for (const Placed& p : all) {
      if (!reported(p)) continue;
      ++found;
      if (std::labs(p.error) <= 2) ++matched;
    }
    return Tally{found, all.size(), matched};
  };
  Tally best_by_size = f1_when([](const Placed&) { return true; });
  Tally best_by_mass = best_by_size;
  double size_threshold = 0, mass_threshold = 0;
  const auto f1 = [](const Tally& t) {
    return t.found && t.matched ? 2.0 * t.matched / static_cast<double>(t.found + t.labels) : 0.0;
  };
  for (int i = 1; i <= 60; ++i) {
    const Tally by_size = f1_when([&](const Placed& p) { return p.sigmas >= i * 0.05; });
    if (f1(by_size) > f1(best_by_size)) {
      best_by_size = by_size;
      size_threshold = i * 0.05;
    }
    const Tally by_mass =
        f1_when([&](const Placed& p) { return p.mass_within_tolerance >= i / 60.0; });
    if (f1(by_mass) > f1(best_by_mass)) {
      best_by_mass = by_mass;
      mass_threshold = i / 60.0;
    }
  }
  fmt::print(
      "\nceiling at +-2 points: every step known, with its neighbours and the noise, placed by "
      "likelihood\n");
  fmt::print("{:<28}{:>8}{:>8}{:>9}{:>11}{:>8}{:>7}\n", "", "labels", "found", "matched",
             "precision", "recall", "F1");
  fmt::print("{}\n", f1_when([](const Placed&) { return true; }).row("all reported"));
  fmt::print("{}\n", best_by_size.row(fmt::format("steps >= {:.2f} SD", size_threshold)));
  fmt::print("{}\n", best_by_mass.row(fmt::format("mass within +-2 >= {:.2f}", mass_threshold)));
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 400;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 16;
  perfgate::stats::ChangePointOptions options;
  if (argc > 3) options.min_segment = std::strtoul(argv[3], nullptr, 10);
  if (argc > 4) options.max_p_value = std::strtod(argv[4], nullptr);
  const std::string corpus_name = argc > 5 ? argv[5] : "issue34";
  if (corpus_name != "issue34" && corpus_name != "issue16") {
    fmt::print(stderr, "changes_corpus: CORPUS is issue34 or issue16, not '{}'\n", corpus_name);
    return 64;
  }
  std::mt19937_64 rng(seed);
  std::vector<Series> corpus;
  for (std::size_t i = 0; i < count; ++i) {
    corpus.push_back(make_series(rng, static_cast<Kind>(i % 4), corpus_name == "issue34"));
  }
  fmt::print(
      "{} series of corpus {} (seed {}), min_segment {}, p-value at most {:g}; "
      "tolerance +-2 points\n",
      count, corpus_name, seed, options.min_segment, options.max_p_value);
  options.test = perfgate::stats::SegmentTest::kHuber;
  report(corpus, options, "Welch's t of Huber M-estimates, the default");
  options.test = perfgate::stats::SegmentTest::kTrimmed;
  report(corpus, options, "Yuen's trimmed t (10%), the default before");
  options.test = perfgate::stats::SegmentTest::kWelch;
  report(corpus, options, "Welch's t in place of Yuen's (Apache Otava's test)");
  report_ceiling(corpus);
}
