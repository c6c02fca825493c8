#include "ingest/nvbench_tags.hpp"

#include <array>
#include <utility>

namespace perfgate::ingest {
namespace {

constexpr std::array<std::pair<std::string_view, NvbenchField>, 20> kTags = {{
    {"nv/cold/time/gpu/min", NvbenchField::kMin},
    {"nv/cold/time/gpu/max", NvbenchField::kMax},
    {"nv/cold/time/gpu/mean", NvbenchField::kMean},
    {"nv/cold/time/gpu/stdev/absolute", NvbenchField::kStdevAbsolute},
    {"nv/cold/time/gpu/stdev/relative", NvbenchField::kStdevRelative},
    {"nv/cold/time/gpu/q1", NvbenchField::kQ1},
    {"nv/cold/time/gpu/median", NvbenchField::kMedian},
    {"nv/cold/time/gpu/q3", NvbenchField::kQ3},
    {"nv/cold/time/gpu/iqr/absolute", NvbenchField::kIqrAbsolute},
    {"nv/cold/time/gpu/iqr/relative", NvbenchField::kIqrRelative},
    {"nv/cold/time/gpu/ir/absolute", NvbenchField::kIrAbsolute},
    {"nv/cold/time/gpu/ir/relative", NvbenchField::kIrRelative},
    {"nv/cold/sm_clock_rate/mean", NvbenchField::kClockRate},
    {"nv/cold/sample_size", NvbenchField::kSampleSize},
    {"nv/cold/time/cpu/mean", NvbenchField::kCpuTime},
    {"nv/batch/time/gpu/mean", NvbenchField::kBatchGpuTime},
    {"nv/cold/bw/global/bytes_per_second", NvbenchField::kBandwidth},
    {"nv/cold/bw/item_rate", NvbenchField::kItemRate},
    {"nv/json/bin:nv/cold/sample_times", NvbenchField::kBulkTimes},
    {"nv/json/freqs-bin:nv/cold/sample_freqs", NvbenchField::kBulkFrequencies},
}};

}  // namespace

std::optional<NvbenchField> nvbench_field(std::string_view tag) {
  // Twenty short comparisons, most of them rejected at the first differing byte: cheaper
  // than hashing the tag, and a state has about fifteen summaries.
  if (!tag.starts_with("nv/")) return std::nullopt;
  for (const auto& [name, field] : kTags) {
    if (name == tag) return field;
  }
  return std::nullopt;
}

std::string nvbench_state_key(std::string_view name) {
  constexpr std::string_view kPrefix = "Device=";
  if (!name.starts_with(kPrefix)) return std::string(name);
  std::size_t end = kPrefix.size();
  while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
  if (end == kPrefix.size()) return std::string(name);
  if (end == name.size()) return "";
  if (name[end] != ' ') return std::string(name);
  return std::string(name.substr(end + 1));
}

namespace {

void add_extra(ResultState& state, const char* name, const char* unit, Direction direction,
               std::optional<double> value) {
  if (!value) return;
  state.extra_metrics.push_back(ExtraMetric{name, unit, direction, {*value}});
}

}  // namespace

void finish_nvbench_summaries(ResultState& state, const NvbenchOtherSummaries& other) {
  TimingSummary& t = state.summary;
  if (!t.iqr_absolute) t.iqr_absolute = other.ir_absolute;
  if (!t.iqr_relative) t.iqr_relative = other.ir_relative;
  add_extra(state, "cpu_time", "s", Direction::kLowerIsBetter, other.cpu_time);
  add_extra(state, "batch_gpu_time", "s", Direction::kLowerIsBetter, other.batch_gpu_time);
  add_extra(state, "global_bandwidth", "B/s", Direction::kHigherIsBetter, other.bandwidth);
  add_extra(state, "item_rate", "items/s", Direction::kHigherIsBetter, other.item_rate);
}

bool null_means_infinite(NvbenchField field) {
  switch (field) {
    case NvbenchField::kStdevAbsolute:
    case NvbenchField::kStdevRelative:
    case NvbenchField::kIqrAbsolute:
    case NvbenchField::kIqrRelative:
    case NvbenchField::kIrAbsolute:
    case NvbenchField::kIrRelative:
      return true;
    default:
      return false;
  }
}

}  // namespace perfgate::ingest
