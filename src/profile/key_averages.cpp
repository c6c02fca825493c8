#include "profile/key_averages.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace perfgate::profile {
namespace {

template <typename Row, typename Less>
std::vector<Row> top_rows(std::vector<Row> rows, Less less) {
  std::sort(rows.begin(), rows.end(), less);
  if (rows.size() > kKeyAverageRows) rows.resize(kKeyAverageRows);
  return rows;
}

}  // namespace

KeyAverages compute_key_averages(const std::vector<ProbeRun>& runs,
                                 const std::vector<RegionInfo>& regions) {
  std::map<std::string, std::string> name_of;
  for (const auto& region : regions) name_of[region.id] = region.name;
  const auto name = [&](const std::string& id) {
    const auto found = name_of.find(id);
    return found != name_of.end() ? found->second : id.substr(id.find_last_of('/') + 1);
  };

  std::map<std::string, KeyAverage> totals;
  std::map<std::string, NameAverage> names;
  for (const auto& run : runs) {
    if (run.warmup) continue;
    std::set<std::string> ids_in_run;
    std::set<std::string> names_in_run;
    const auto add = [&](const RegionTime& region) {
      KeyAverage& total = totals[region.region_id];
      total.region_id = region.region_id;
      total.calls += region.calls;
      total.self_wall_time_us += region.self_wall_time_us;
      total.wall_time_us += region.wall_time_us;
      if (ids_in_run.insert(region.region_id).second) ++total.runs;
      const std::string region_name = name(region.region_id);
      NameAverage& by_name = names[region_name];
      by_name.name = region_name;
      by_name.calls += region.calls;
      by_name.self_wall_time_us += region.self_wall_time_us;
      by_name.wall_time_us += region.wall_time_us;
      if (names_in_run.insert(region_name).second) ++by_name.runs;
    };
    for (const auto& region : run.regions) add(region);
    for (const auto& row : run.dispatched) add(row.time);
  }
  std::vector<KeyAverage> rows;
  for (const auto& [id, total] : totals) {
    rows.push_back(total);
    ++names[name(id)].ids;
  }
  std::vector<NameAverage> name_rows;
  for (const auto& [n, total] : names) name_rows.push_back(total);
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
  out.by_name = top_rows(name_rows, [](const NameAverage& a, const NameAverage& b) {
    if (a.self_wall_time_us != b.self_wall_time_us)
      return a.self_wall_time_us > b.self_wall_time_us;
    return a.name < b.name;
  });
  return out;
}

}  // namespace perfgate::profile
