#pragma once
// `perfgate import`: the states of another tool's result file as perfgate raw records, so
// that compare's normalisation, rolling baselines and store take them like measured ones.
// Pure: a ResultFile and this host's provenance in, raw records out.
#include <string>
#include <vector>

#include "ingest/import_mapping.hpp"
#include "ingest/result_file.hpp"
#include "model/provenance.hpp"
#include "model/raw_record.hpp"

namespace perfgate::ingest {

struct ImportOptions {
  std::string benchmark_prefix;  ///< put before every benchmark name, e.g. "cpu/"
  IdentityChoice flags;          ///< --workload-id, --variant-id, --benchmark-version
  ImportMapping mapping;         ///< --mapping; no entries when none was given
};

/// The record warning of a state whose file holds summaries but no samples: the same
/// text for every such state, so that a caller can group them.
inline constexpr const char* kLatencyFromMedianWarning =
    "latency: the file holds summary statistics but no samples for this state; its median is "
    "recorded as the only sample";
inline constexpr const char* kLatencyFromMeanWarning =
    "latency: the file holds summary statistics but no samples or median for this state; its "
    "mean is recorded as the only sample";

struct ImportedStates {
  std::vector<RawRecord> records;  ///< one per imported state, in file order
  /// "<benchmark_id>: <why>" for every state left out: skipped by the tool, or without a
  /// usable timing.
  std::vector<std::string> left_out;
};

/// Converts every state that was not skipped:
/// - benchmark_id "<prefix><benchmark>", plus "[<state_key>]" when the key is not empty,
///   plus "@dev<id>" when the file lists more than one device; parameters = axis values;
/// - identity (config_schema_version 2): each field from the flags, else from the first
///   mapping entry that matches mapping_subject(benchmark, state_key), else workload_id
///   "<prefix><benchmark>", variant_id the state key (or "default"), benchmark_version 1;
/// - latency (s, lower) = the state's samples, else its median, else its mean, as the only
///   sample (with a record warning); extra metrics keep name, unit, direction and
///   samples, except that a memory metric in a byte unit becomes `memory` (`gpu_memory`
///   when its name says gpu) in MB;
/// - recipe {recipe_schema_version, benchmark identity, import: format, benchmark,
///   state_key, timing, device name, device id when several}: stable across imports;
/// - provenance = `host`, with the state's device name for formats that name devices.
ImportedStates import_states(const ResultFile& file, const ImportOptions& options,
                             const Provenance& host);

}  // namespace perfgate::ingest
