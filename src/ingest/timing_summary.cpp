#include "ingest/timing_summary.hpp"

#include "stats/summary.hpp"

namespace perfgate::ingest {

TimingSummary summarize_timing(std::span<const double> samples) {
  TimingSummary out;
  if (samples.empty()) return out;
  const Summary s = summarize(samples);
  out.min = s.min;
  out.max = s.max;
  out.mean = s.mean;
  out.stdev_absolute = s.stdev;
  if (s.mean != 0) out.stdev_relative = s.stdev / s.mean;
  out.q1 = s.q1;
  out.median = s.median;
  out.q3 = s.q3;
  out.iqr_absolute = s.iqr;
  if (s.median != 0) out.iqr_relative = s.iqr / s.median;
  out.sample_size = static_cast<long long>(s.count);
  return out;
}

}  // namespace perfgate::ingest
