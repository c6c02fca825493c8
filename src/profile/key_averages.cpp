#include "profile/key_averages.hpp"

#include <algorithm>
#include <map>

namespace perfgate::profile {
namespace {

template <typename Less>
std::vector<KeyAverage> top_rows(std::vector<KeyAverage> rows, Less less) {
  std::sort(rows.begin(), rows.end(), less);
  if (rows.size() > kKeyAverageRows) rows.resize(kKeyAverageRows);
  return rows;
}

}  // namespace

KeyAverages compute_key_averages(const std::vector<ProbeRun>& runs) {
  std::map<std::string, KeyAverage> totals;
  for (const auto& run : runs) {
    for (const auto& region : run.regions) {
      KeyAverage& total = totals[region.region_id];
      total.region_id = region.region_id;
      total.calls += region.calls;
      total.self_wall_time_us += region.self_wall_time_us;
      total.wall_time_us += region.wall_time_us;
      ++total.runs;
    }
  }
  std::vector<KeyAverage> rows;
  for (const auto& [id, total] : totals) rows.push_back(total);
  KeyAverages out;
  out.self_time = top_rows(rows, [](const KeyAverage& a, const KeyAverage& b) {
    if (a.self_wall_time_us != b.self_wall_time_us)
      return a.self_wall_time_us > b.self_wall_time_us;
    return a.region_id < b.region_id;
  });
  out.total_time = top_rows(rows, [](const KeyAverage& a, const KeyAverage& b) {
    if (a.wall_time_us != b.wall_time_us) return a.wall_time_us > b.wall_time_us;
    return a.region_id < b.region_id;
  });
  return out;
}

}  // namespace perfgate::profile
