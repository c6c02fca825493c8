#pragma once
// The outcome of the static-threshold gate (SPEC §6) for one record.
#include <string>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

struct ThresholdCheck {
  std::string metric;
  std::string statistic;  ///< which summary was compared: "mean" or "max"
  double value = 0;
  double limit = 0;
  bool lower_bound = false;  ///< true for min_* limits (throughput)
  bool breached = false;
};

struct StaticVerdict {
  /// The thresholds block that applied ("default", a device substring) or "" if none.
  std::string selected_block;
  std::vector<ThresholdCheck> checks;
  /// Limits of the selected block whose metric was not measured (skipped, not a breach).
  std::vector<std::string> unmeasured;

  bool breached() const;
  Json to_json() const;
};

}  // namespace perfgate
