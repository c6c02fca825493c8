#pragma once
// The nvbench summaries perfgate reads, by tag, shared by the strict reader
// (nvbench_reader) and the fast one (nvbench_fast_reader) so that they read the same.
#include <optional>
#include <string>
#include <string_view>

#include "ingest/result_file.hpp"

namespace perfgate::ingest {

/// iqr was called "ir" by older nvbench.
enum class NvbenchField {
  kMin,
  kMax,
  kMean,
  kStdevAbsolute,
  kStdevRelative,
  kQ1,
  kMedian,
  kQ3,
  kIqrAbsolute,
  kIqrRelative,
  kIrAbsolute,
  kIrRelative,
  kClockRate,
  kSampleSize,
  kCpuTime,
  kBatchGpuTime,
  kBandwidth,
  kItemRate,
  kBulkTimes,
  kBulkFrequencies,
};

/// The field a summary tag names; nullopt for a tag perfgate does not read.
std::optional<NvbenchField> nvbench_field(std::string_view tag);

/// A dispersion nvbench could not bound is written as null; like nvbench's own compare
/// script, perfgate reads it as infinite noise rather than as "not given".
bool null_means_infinite(NvbenchField field);

/// "Device=0" -> "", "Device=0 T=F32" -> "T=F32"; any other name as it is.
std::string nvbench_state_key(std::string_view name);

/// Summaries that are not TimingSummary fields, gathered while a state's summaries are read.
struct NvbenchOtherSummaries {
  std::optional<double> ir_absolute, ir_relative, cpu_time, batch_gpu_time, bandwidth, item_rate;
};

/// The last step of reading a state's summaries: the old "ir" names stand in for a missing
/// iqr, and the other summaries become extra metrics (cpu_time, batch_gpu_time,
/// global_bandwidth, item_rate).
void finish_nvbench_summaries(ResultState& state, const NvbenchOtherSummaries& other);

}  // namespace perfgate::ingest
