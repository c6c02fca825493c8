// Rolling-baseline policies (SPEC §6): the values of one policy and the metric it names.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "config/config_sections.hpp"
#include "config/error_list.hpp"
#include "config/key_suggestion.hpp"
namespace perfgate {
namespace {

constexpr std::array<std::string_view, 11> kStandardMetrics = {metric_names::kLatency,
                                                               metric_names::kThroughput,
                                                               metric_names::kMemory,
                                                               metric_names::kCpuTime,
                                                               metric_names::kGpuMemory,
                                                               count_metric_names::kInstructions,
                                                               count_metric_names::kL1Misses,
                                                               count_metric_names::kLlMisses,
                                                               count_metric_names::kEstimatedCycles,
                                                               count_metric_names::kCycles,
                                                               count_metric_names::kBranchMisses};

// A name this close to a standard metric is a typo of it, not a metric of its own.
constexpr std::size_t kNearMissDistance = 2;

std::string quoted_list(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

}  // namespace

MetricPolicy read_metric_policy(const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value, {"threshold_percent", "threshold_absolute", "gated"}, errors);
  MetricPolicy policy;
  errors.check([&] {
    const ConfigValue percent =
        table.require("threshold_percent", "Add threshold_percent as a fraction (0.08 means 8%)");
    policy.threshold_percent = percent.finite_number();
    if (policy.threshold_percent < 0) {
      throw percent.error("must not be negative; it is a fraction (0.08 means 8%)",
                          "Set 0 or a positive fraction, e.g. 0.08 for 8%");
    }
    // A fraction, as in seed 000: 5 would mean 500%, so it is a percentage written where a
    // fraction was meant.
    if (policy.threshold_percent > 1) {
      throw percent.error(fmt::format("is {}, which means {}%; threshold_percent is a fraction "
                                      "(0.08 means 8%) and may not exceed 1",
                                      policy.threshold_percent, policy.threshold_percent * 100),
                          fmt::format("Did you mean {}?", policy.threshold_percent / 100));
    }
  });
  errors.check([&] {
    const ConfigValue absolute =
        table.require("threshold_absolute",
                      "Add threshold_absolute in the metric's unit (0 gates on percent alone)");
    policy.threshold_absolute = absolute.finite_number();
    if (policy.threshold_absolute < 0) {
      throw absolute.error("must not be negative",
                           "Set 0 or a positive value in the metric's unit");
    }
  });
  errors.check([&] {
    if (auto gated = table.get("gated")) policy.gated = gated->boolean();
  });
  errors.throw_if_any();
  return policy;
}

void check_policy_metric(const ConfigValue& policy, const std::string& metric,
                         const PolicyMetrics& metrics) {
  const auto known = [&](std::string_view name) {
    return std::find(metrics.known.begin(), metrics.known.end(), name) != metrics.known.end();
  };
  if (known(metric)) return;
  const std::string where = metrics.owner + " can carry";
  if (metric == metric_names::kThroughput) {
    throw policy.error("no record has a throughput metric: the config declares no throughput",
                       "Add a [throughput] table with units_per_run and unit, or remove this "
                       "policy");
  }
  std::optional<std::string> near;
  for (const auto standard : kStandardMetrics) {
    if (edit_distance(metric, standard) <= kNearMissDistance) {
      near = std::string(standard);
      break;
    }
  }
  if (!metrics.open && !near) near = nearest_key(metric, metrics.known);
  if (near) {
    throw policy.error("no record has a metric named '" + metric + "'",
                       "Did you mean '" + *near + "'? The metrics " + where + " are " +
                           quoted_list(metrics.known) +
                           (metrics.open ? " and any name the program reports" : ""));
  }
  if (!metrics.open) {
    throw policy.error("no record has a metric named '" + metric + "'",
                       "The metrics " + where + " are " + quoted_list(metrics.known) +
                           "; add it to component_metrics or remove this policy");
  }
}

PolicyMetrics project_policy_metrics() {
  PolicyMetrics metrics;
  metrics.owner = "records";
  for (const auto standard : kStandardMetrics) metrics.known.emplace_back(standard);
  return metrics;
}

}  // namespace perfgate
