#include "diff/state_matching.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/error.hpp"

namespace perfgate::diff {
namespace {

using ingest::ResultDevice;
using ingest::ResultFile;
using ingest::ResultState;

std::string join_ids(const std::vector<long long>& ids) {
  std::string text;
  for (std::size_t i = 0; i < ids.size(); ++i) text += (i ? ", " : "") + std::to_string(ids[i]);
  return text;
}

std::string describe(const std::vector<ResultDevice>& devices) {
  std::string text;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    text += (i ? ", " : "") + ("[" + std::to_string(devices[i].id) + "] " + devices[i].name);
  }
  return text.empty() ? "none" : text;
}

const ResultDevice* find_device(const ResultFile& file, long long id) {
  for (const auto& device : file.devices) {
    if (device.id == id) return &device;
  }
  return nullptr;
}

/// The device ids one side compares, in pairing order.
std::vector<long long> selected_devices(const ResultFile& file,
                                        const std::optional<std::vector<long long>>& filter,
                                        const std::string& option) {
  if (!filter) {
    std::vector<long long> ids;
    for (const auto& device : file.devices) ids.push_back(device.id);
    return ids;
  }
  std::vector<long long> missing;
  for (const long long id : *filter) {
    if (!find_device(file, id)) missing.push_back(id);
  }
  if (!missing.empty()) {
    throw Error(ExitCode::kUsage, option + ": " + file.path.string() + " has no device " +
                                      join_ids(missing) + " (it has " + describe(file.devices) +
                                      "). Pick ids from that list.");
  }
  return *filter;
}

/// The key states are matched by: state key plus the sorted axis values.
std::string match_key(const ResultState& state) {
  auto axes = state.axis_values;
  std::sort(axes.begin(), axes.end());
  std::string key = state.state_key;
  for (const auto& [name, value] : axes) key += '\x1f' + name + '\x1e' + value;
  return key;
}

bool same_device(const ResultDevice& a, const ResultDevice& b) {
  return a.id == b.id && a.name == b.name;
}

std::vector<const ResultState*> section_states(const ResultFile& file, const std::string& benchmark,
                                               std::optional<long long> device,
                                               const FilterPlan& filters) {
  std::vector<const ResultState*> states;
  for (const auto& state : file.states) {
    if (state.benchmark != benchmark) continue;
    if (device && state.device != device) continue;
    if (!state_selected(filters, state)) continue;
    states.push_back(&state);
  }
  return states;
}

MatchedSection pair_states(const std::string& benchmark,
                           const std::vector<const ResultState*>& reference,
                           const std::vector<const ResultState*>& compare) {
  MatchedSection section;
  section.benchmark = benchmark;
  std::map<std::string, std::vector<const ResultState*>> compare_by_key;
  std::map<std::string, std::size_t> reference_counts;
  for (const auto* state : compare) compare_by_key[match_key(*state)].push_back(state);
  for (const auto* state : reference) ++reference_counts[match_key(*state)];

  std::set<const ResultState*> paired;
  std::map<std::string, std::size_t> seen;
  for (const auto* state : reference) {
    const std::string key = match_key(*state);
    const std::size_t occurrence = seen[key]++;
    const auto& candidates = compare_by_key[key];
    const std::size_t count = std::max(reference_counts[key], candidates.size());
    const ResultState* partner = occurrence < candidates.size() ? candidates[occurrence] : nullptr;
    if (partner) paired.insert(partner);
    section.states.push_back({state, partner, occurrence, count});
  }
  std::map<std::string, std::size_t> compare_seen;
  for (const auto* state : compare) {
    const std::string key = match_key(*state);
    const std::size_t occurrence = compare_seen[key]++;
    if (paired.count(state)) continue;
    const std::size_t count = std::max(reference_counts[key], compare_by_key[key].size());
    section.states.push_back({nullptr, state, occurrence, count});
  }
  for (const auto& matched : section.states) {
    const auto* state = matched.reference ? matched.reference : matched.compare;
    for (const auto& axis : state->axis_values) {
      if (std::find(section.axis_names.begin(), section.axis_names.end(), axis.first) ==
          section.axis_names.end()) {
        section.axis_names.push_back(axis.first);
      }
    }
  }
  return section;
}

/// Benchmark names in reference order, then those only in the compare file.
std::vector<std::string> benchmark_order(const ResultFile& reference, const ResultFile& compare) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& file : {&reference, &compare}) {
    for (const auto& benchmark : file->benchmarks) add(benchmark.name);
    for (const auto& state : file->states) add(state.benchmark);
  }
  return names;
}

/// The devices a benchmark ran on in one file, restricted to the selected ones (in the
/// selection's order, which is what pairs them).
std::vector<long long> benchmark_devices(const ResultFile& file, const std::string& benchmark,
                                         const std::vector<long long>& selected) {
  std::set<long long> used;
  for (const auto& entry : file.benchmarks) {
    if (entry.name == benchmark) used.insert(entry.devices.begin(), entry.devices.end());
  }
  for (const auto& state : file.states) {
    if (state.benchmark == benchmark && state.device) used.insert(*state.device);
  }
  std::vector<long long> ids;
  for (const long long id : selected) {
    if (used.count(id)) ids.push_back(id);
  }
  return ids;
}

}  // namespace

MatchResult match_states(const ResultFile& reference, const ResultFile& compare,
                         const MatchOptions& options) {
  MatchResult result;
  const bool has_devices = !reference.devices.empty() || !compare.devices.empty();
  std::vector<long long> ref_ids;
  std::vector<long long> cmp_ids;
  if (has_devices) {
    ref_ids = selected_devices(reference, options.reference_devices, "--reference-devices");
    cmp_ids = selected_devices(compare, options.compare_devices, "--compare-devices");
    if (ref_ids.size() != cmp_ids.size()) {
      throw Error(ExitCode::kUsage,
                  "--reference-devices selects " + std::to_string(ref_ids.size()) +
                      " device(s) but --compare-devices selects " + std::to_string(cmp_ids.size()) +
                      "; devices pair by position, so select as many on each side.");
    }
    bool identical = true;
    for (std::size_t i = 0; i < ref_ids.size(); ++i) {
      identical = identical && same_device(*find_device(reference, ref_ids[i]),
                                           *find_device(compare, cmp_ids[i]));
    }
    const bool filtered = options.reference_devices || options.compare_devices;
    if (!identical) {
      std::vector<ResultDevice> ref_devices;
      std::vector<ResultDevice> cmp_devices;
      for (const long long id : ref_ids) ref_devices.push_back(*find_device(reference, id));
      for (const long long id : cmp_ids) cmp_devices.push_back(*find_device(compare, id));
      const std::string difference = "device sections do not match: reference has " +
                                     describe(ref_devices) + ", compare has " +
                                     describe(cmp_devices);
      if (!options.ignore_devices && !filtered) {
        throw Error(ExitCode::kDataError,
                    difference +
                        ". Pass --ignore-devices to compare them anyway, or pair devices with "
                        "--reference-devices and --compare-devices.");
      }
      result.warnings.push_back(difference);
    }
  }

  for (const auto& benchmark : benchmark_order(reference, compare)) {
    if (!benchmark_selected(options.filters, benchmark)) continue;
    if (!has_devices) {
      auto section =
          pair_states(benchmark, section_states(reference, benchmark, {}, options.filters),
                      section_states(compare, benchmark, {}, options.filters));
      if (!section.states.empty()) result.sections.push_back(std::move(section));
      continue;
    }
    auto ref_devices = benchmark_devices(reference, benchmark, ref_ids);
    auto cmp_devices = benchmark_devices(compare, benchmark, cmp_ids);
    // A benchmark missing from one file pairs with the other file's devices so its states
    // still show (as ????).
    if (ref_devices.empty()) {
      for (const long long id : cmp_devices) {
        const auto at = std::find(cmp_ids.begin(), cmp_ids.end(), id) - cmp_ids.begin();
        ref_devices.push_back(ref_ids[static_cast<std::size_t>(at)]);
      }
    }
    if (cmp_devices.empty()) {
      for (const long long id : ref_devices) {
        const auto at = std::find(ref_ids.begin(), ref_ids.end(), id) - ref_ids.begin();
        cmp_devices.push_back(cmp_ids[static_cast<std::size_t>(at)]);
      }
    }
    if (ref_devices.size() != cmp_devices.size()) {
      throw Error(ExitCode::kDataError,
                  "benchmark '" + benchmark + "' ran on " + std::to_string(ref_devices.size()) +
                      " reference device(s) but " + std::to_string(cmp_devices.size()) +
                      " compare device(s); devices pair by position. Select the devices to pair "
                      "with --reference-devices and --compare-devices.");
    }
    for (std::size_t i = 0; i < ref_devices.size(); ++i) {
      auto section = pair_states(
          benchmark, section_states(reference, benchmark, ref_devices[i], options.filters),
          section_states(compare, benchmark, cmp_devices[i], options.filters));
      if (section.states.empty()) continue;
      section.reference_device = *find_device(reference, ref_devices[i]);
      section.compare_device = *find_device(compare, cmp_devices[i]);
      result.sections.push_back(std::move(section));
    }
  }
  return result;
}

}  // namespace perfgate::diff
