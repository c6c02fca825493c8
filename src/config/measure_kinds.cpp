#include "config/benchmark_config.hpp"

namespace perfgate {

std::optional<std::pair<bool, bool>> parse_measure_kinds(const std::vector<std::string>& kinds) {
  bool time = false;
  bool instructions = false;
  for (const auto& kind : kinds) {
    bool& seen = kind == "time" ? time : instructions;
    if ((kind != "time" && kind != "instructions") || seen) return std::nullopt;
    seen = true;
  }
  if (!time && !instructions) return std::nullopt;
  return std::make_pair(time, instructions);
}

}  // namespace perfgate
