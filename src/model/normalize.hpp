#pragma once
// Raw record -> normalised record (SPEC §1, §6): what compare judges and the store keeps,
// and the metric policies a record carries. Values in, values out: ingest and gate both use
// it, so it sits in the model below them.
#include <map>
#include <string>

#include "model/json.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

/// The built-in rolling-baseline policy of a metric (SPEC §6): latency 8% and 0.5 s,
/// throughput 8% and 0.05 units/s, memory and gpu_memory 5% and 256 MB, cpu_time 8% and
/// 0.5 s, any other (component) metric 5% and 0.25; all gated. Under --method stat the
/// absolute part is 0: the interval carries the noise that the absolute floor stood for.
MetricPolicy default_policy(const std::string& metric, CompareMethod method = CompareMethod::kSeed);

/// The policy of `metric`: the config's regression_thresholds entry, else perfgate.toml's
/// [policies.<metric>], else default_policy. An override replaces the whole policy.
MetricPolicy policy_for(const std::string& metric,
                        const std::map<std::string, MetricPolicy>& project,
                        const std::map<std::string, MetricPolicy>& config,
                        CompareMethod method = CompareMethod::kSeed);

/// The policy in force for each metric of a record: the default, overridden by
/// perfgate.toml's [policies.<metric>], overridden by the config's regression_thresholds.
/// Covers the record's metrics and every metric the config names (a benchmark that
/// declares a policy expects the metric, so its absence shows as a skipped comparison);
/// project policies apply to the metrics a record has and add none, because one
/// perfgate.toml serves benchmarks that measure different things.
std::map<std::string, MetricPolicy> effective_policies(
    const std::map<std::string, MetricValue>& metrics,
    const std::map<std::string, MetricPolicy>& project,
    const std::map<std::string, MetricPolicy>& config, CompareMethod method = CompareMethod::kSeed);

/// Reads a raw record (as written by `perfgate run`, result_schema_version 1) and returns
/// its normalised form with every comparison field still empty: metric values (mean of
/// the measured samples, the largest sample for memory and gpu_memory), identity,
/// provenance, effective policies (defaults per `method`) and each metric's samples.
/// `raw_sha256` is the digest of the file. Metrics
/// with no measured sample (a failed run) and missing_components are left out of
/// `metrics` but keep a policy, so the comparison lists them as skipped. `success` is the
/// raw record's own; classify refines it. Malformed input -> Error(kDataError)
/// "<source>: <json.path>: <reason>. <fix>".
NormalizedRecord normalize_raw_record(const Json& raw, const std::string& source,
                                      const std::string& raw_sha256,
                                      const std::map<std::string, MetricPolicy>& project_policies,
                                      CompareMethod method = CompareMethod::kSeed);

}  // namespace perfgate
