#pragma once
// The TimingSummary of formats that carry their samples (Google Benchmark repetitions,
// hyperfine times, pyperf values, perfgate runs): every field from the samples, so `diff`
// can use the robust summaries whichever tool wrote the file.
#include <span>

#include "ingest/result_file.hpp"

namespace perfgate::ingest {

/// min, max, mean, stdev (n-1), quartiles (type 7), iqr and sample_size of finite
/// `samples`. Relative fields are stdev/mean and iqr/median, left out when that centre
/// is 0. No samples -> an empty summary (every field nullopt).
TimingSummary summarize_timing(std::span<const double> samples);

}  // namespace perfgate::ingest
