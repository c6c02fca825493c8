#include "stats/change_points_json.hpp"

#include <cstdint>

#include "stats/change_points.hpp"

namespace perfgate::stats {

std::vector<std::size_t> write_change_points(CompactJsonWriter& w, std::span<const double> values,
                                             std::span<const std::size_t> positions,
                                             bool lower_is_better) {
  std::vector<std::size_t> indices;
  w.begin_array();
  for (const ChangePoint& change : find_change_points(values, ChangePointOptions{})) {
    const std::size_t index = positions.empty() ? change.index : positions[change.index];
    indices.push_back(index);
    w.begin_object();
    w.key("after").value(change.mean_after);
    w.key("before").value(change.mean_before);
    w.key("index").value(static_cast<std::uint64_t>(index));
    w.key("p_value").value(change.p_value);
    w.key("relative_change").value(change.relative_change());  // infinite: null
    w.key("worse").value(worsens(change, lower_is_better));
    w.end_object();
  }
  w.end_array();
  return indices;
}

}  // namespace perfgate::stats
