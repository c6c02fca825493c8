#pragma once
// Raw record -> normalised record (SPEC §1, §6): what compare judges and the store keeps.
#include <map>
#include <string>

#include "model/json.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

/// The built-in rolling-baseline policy of a metric (SPEC §6): latency 8% and 0.5 s,
/// throughput 8% and 0.05 units/s, memory and gpu_memory 5% and 256 MB, cpu_time 8% and
/// 0.5 s, any other (component) metric 5% and 0.25; all gated.
MetricPolicy default_policy(const std::string& metric);

/// The policy in force for each metric of a record: the default, overridden by
/// perfgate.toml's [policies.<metric>], overridden by the config's regression_thresholds.
std::map<std::string, MetricPolicy> effective_policies(const std::map<std::string, MetricValue>& metrics,
                                                       const std::map<std::string, MetricPolicy>& project,
                                                       const std::map<std::string, MetricPolicy>& config);

/// Reads a raw record (as written by `perfgate run`, result_schema_version 1) and returns
/// its normalised form with every comparison field still empty: metric values (mean of
/// the measured samples, the largest sample for memory and gpu_memory), identity,
/// provenance and effective policies. `raw_sha256` is the digest of the file. Malformed
/// input -> Error(kDataError) "<source>: <json.path>: <reason>. <fix>".
NormalizedRecord normalize_raw_record(const Json& raw, const std::string& source, const std::string& raw_sha256,
                                      const std::map<std::string, MetricPolicy>& project_policies);

/// Whether the raw record breached a static threshold (its static_thresholds.status).
bool raw_record_breached_static_threshold(const Json& raw);

}  // namespace perfgate
