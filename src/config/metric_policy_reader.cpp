#include "config/config_sections.hpp"

namespace perfgate {

MetricPolicy read_metric_policy(const ConfigValue& value) {
  const ConfigTable table(value, {"threshold_percent", "threshold_absolute", "gated"});
  MetricPolicy policy;
  const ConfigValue percent =
      table.require("threshold_percent", "Add threshold_percent as a fraction (0.08 means 8%)");
  policy.threshold_percent = percent.finite_number();
  // Percent is a fraction, as in seed 000; 10 (1000%) is far beyond any sensible policy and
  // most likely a percentage written where a fraction was meant.
  if (policy.threshold_percent < 0 || policy.threshold_percent > 10) {
    throw percent.error("must be between 0 and 10; it is a fraction (0.08 means 8%)",
                        "Write the threshold as a fraction, e.g. 0.08 for 8%");
  }
  const ConfigValue absolute =
      table.require("threshold_absolute",
                    "Add threshold_absolute in the metric's unit (0 gates on percent alone)");
  policy.threshold_absolute = absolute.finite_number();
  if (policy.threshold_absolute < 0) {
    throw absolute.error("must not be negative", "Set 0 or a positive value in the metric's unit");
  }
  if (auto gated = table.get("gated")) policy.gated = gated->boolean();
  return policy;
}

}  // namespace perfgate
