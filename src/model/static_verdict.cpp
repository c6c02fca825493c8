#include "model/static_verdict.hpp"

#include <algorithm>

namespace perfgate {

bool StaticVerdict::breached() const {
  return std::any_of(checks.begin(), checks.end(),
                     [](const ThresholdCheck& c) { return c.breached; });
}

Json StaticVerdict::to_json() const {
  Json checks_json = Json::array();
  for (const auto& c : checks) {
    checks_json.push_back({{"metric", c.metric},
                           {"statistic", c.statistic},
                           {"value", c.value},
                           {"limit", c.limit},
                           {"kind", c.lower_bound ? "min" : "max"},
                           {"breached", c.breached}});
  }
  return {{"status", breached() ? "REGRESSION" : "PASS"},
          {"selected_block", selected_block.empty() ? Json(nullptr) : Json(selected_block)},
          {"checks", checks_json},
          {"unmeasured", unmeasured}};
}

}  // namespace perfgate
