#pragma once
// The identity `perfgate import` gives imported states: workload_id, variant_id and
// benchmark_version from flags, else from a mapping file, else from the benchmark's own
// names. A strict TOML or JSON mapping file of [[benchmark]] entries, first match wins.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/config_document.hpp"
#include "model/metric.hpp"

namespace perfgate::ingest {

/// Identity fields that someone chose; an absent field leaves the choice to the next
/// source (flags > mapping entry > defaults).
struct IdentityChoice {
  std::optional<std::string> workload_id;
  std::optional<std::string> variant_id;
  std::optional<long long> benchmark_version;
};

/// One [[benchmark]] entry.
struct MappingEntry {
  /// Shell glob (fnmatch, `*` also crosses `/`) over mapping_subject(); an exact match
  /// counts too, so names with `[` need no escaping.
  std::string match;
  IdentityChoice identity;
  /// regression_thresholds of the matched states, metric -> policy, as a benchmark config
  /// writes them: what `perfgate.toml`'s [policies] would give otherwise.
  std::map<std::string, MetricPolicy> regression_thresholds;
};

struct ImportMapping {
  std::filesystem::path source;       ///< for messages; empty when no file was given
  std::vector<MappingEntry> entries;  ///< in file order
};

/// Validates a parsed mapping document: the only top-level key is `benchmark`, an array
/// of tables with `match` (required, non-empty) and at least one of `workload_id`,
/// `variant_id` (non-empty strings), `benchmark_version` (integer >= 1) and
/// `regression_thresholds` (metric -> policy, as in a benchmark config); nothing else.
/// Error(kDataError) "<file>: <key path>: <reason>. <fix>", unknown keys with the nearest
/// known one suggested.
ImportMapping parse_import_mapping(const ConfigDocument& document);

/// Reads (by extension, .toml or .json) and validates a mapping file. Error(kNoInput)
/// when it cannot be read.
ImportMapping read_import_mapping(const std::filesystem::path& file);

/// What entries are matched against: "<benchmark>" when the state key is empty, else
/// "<benchmark>/<state_key>" (the benchmark prefix is not part of it).
std::string mapping_subject(const std::string& benchmark, const std::string& state_key);

/// The first entry whose pattern matches `subject`, or nullptr.
const MappingEntry* find_mapping_entry(const ImportMapping& mapping, const std::string& subject);

}  // namespace perfgate::ingest
