#pragma once
// Raw records in the layout of the seed's video-benchmark suite (seed 000): flat keys such
// as avg_generation_time_s, individual_times_s, max_peak_memory_mb, throughput_fps and
// <stage>_time_s, with the selected thresholds block inline. `perfgate compare` reads them
// beside its own raw records, so a team can move its history over without rewriting it.
#include <string>

#include "model/json.hpp"

namespace perfgate {

/// True for a JSON object in the seed's raw layout (it has the seed's metric keys and no
/// perfgate "metrics" object).
bool is_seed_raw_record(const Json& json);

/// The same record in perfgate's raw layout (result_schema_version 1), ready for
/// normalize_raw_record: latency from individual_times_s (else avg_generation_time_s),
/// memory from individual_peak_memories_mb (else max_peak_memory_mb), throughput from
/// throughput_fps (frames/s), a component metric per other `*_time_s` key (null: not
/// measured), the static thresholds of its `thresholds` block applied, v2 identity when any
/// identity field is present. Error(kDataError) "<source>: <key>: <reason>. <fix>" for a
/// value of the wrong type.
Json convert_seed_raw_record(const Json& seed, const std::string& source);

}  // namespace perfgate
