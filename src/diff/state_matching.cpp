#include "diff/state_matching.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

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
  // Each state's key once: building it sorts the axis values.
  std::vector<std::string> reference_keys;
  std::vector<std::string> compare_keys;
  reference_keys.reserve(reference.size());
  compare_keys.reserve(compare.size());
  for (const auto* state : reference) reference_keys.push_back(match_key(*state));
  for (const auto* state : compare) compare_keys.push_back(match_key(*state));
  // One hashed entry per key, viewing the key vectors above: thousands of states made
  // ordered maps of strings (three of them) a serial tenth of a large diff. A key's
  // compare states are chained in file order through next_compare.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct KeyEntry {
    std::size_t reference_count = 0;
    std::size_t compare_count = 0;
    std::size_t next_partner = kNone;  ///< the compare state the next occurrence pairs with
    std::size_t last_compare = kNone;
    std::size_t reference_seen = 0;
    std::size_t compare_seen = 0;
  };
  std::unordered_map<std::string_view, KeyEntry> by_key;
  by_key.reserve(reference.size() + compare.size());
  std::vector<std::size_t> next_compare(compare.size(), kNone);
  for (std::size_t i = 0; i < compare.size(); ++i) {
    KeyEntry& entry = by_key[compare_keys[i]];
    if (entry.last_compare == kNone) {
      entry.next_partner = i;
    } else {
      next_compare[entry.last_compare] = i;
    }
    entry.last_compare = i;
    ++entry.compare_count;
  }
  for (const auto& key : reference_keys) ++by_key[key].reference_count;

  section.states.reserve(reference.size() + compare.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    KeyEntry& entry = by_key[reference_keys[i]];
    const std::size_t occurrence = entry.reference_seen++;
    const std::size_t count = std::max(entry.reference_count, entry.compare_count);
    const ResultState* partner = nullptr;
    if (entry.next_partner != kNone) {
      partner = compare[entry.next_partner];
      entry.next_partner = next_compare[entry.next_partner];
    }
    section.states.push_back({reference[i], partner, occurrence, count});
  }
  // A compare state was paired above exactly when the reference has as many occurrences
  // of its key.
  for (std::size_t i = 0; i < compare.size(); ++i) {
    KeyEntry& entry = by_key[compare_keys[i]];
    const std::size_t occurrence = entry.compare_seen++;
    if (occurrence < entry.reference_count) continue;
    const std::size_t count = std::max(entry.reference_count, entry.compare_count);
    section.states.push_back({nullptr, compare[i], occurrence, count});
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

/// Every state of a per-device file must name one of the file's devices: a state on an
/// unknown device could be paired with nothing and would silently disappear.
void check_state_devices(const ResultFile& file) {
  for (const auto& state : file.states) {
    if (state.device && find_device(file, *state.device)) continue;
    const std::string where =
        state.device ? "device " + std::to_string(*state.device) : "no device";
    throw Error(ExitCode::kDataError, file.path.string() + ": benchmark '" + state.benchmark +
                                          "' state '" + state.state_key + "' is on " + where +
                                          ", which is not in the file's devices list (" +
                                          describe(file.devices) +
                                          "). Fix the state's device or the devices list.");
  }
}

/// The device pairs to compare: position i of the reference selection with position i of
/// the compare selection; a longer side's extra devices pair with nothing.
std::vector<std::pair<std::optional<long long>, std::optional<long long>>> device_pairs(
    const std::vector<long long>& ref_ids, const std::vector<long long>& cmp_ids) {
  std::vector<std::pair<std::optional<long long>, std::optional<long long>>> pairs;
  for (std::size_t i = 0; i < std::max(ref_ids.size(), cmp_ids.size()); ++i) {
    pairs.emplace_back(i < ref_ids.size() ? std::optional(ref_ids[i]) : std::nullopt,
                       i < cmp_ids.size() ? std::optional(cmp_ids[i]) : std::nullopt);
  }
  return pairs;
}

std::optional<ResultDevice> device_of(const ResultFile& file, std::optional<long long> id) {
  if (!id) return std::nullopt;
  return *find_device(file, *id);
}

/// A filter that selects nothing is almost always a typo; in CI it would turn a gate into
/// a pass that compares nothing, so it is a usage error naming the filter.
void check_filters_select_something(const ResultFile& reference, const ResultFile& compare,
                                    const FilterPlan& plan) {
  auto describe_axes = [](const std::vector<AxisFilter>& filters) {
    std::string text;
    for (const auto& filter : filters) text += " -a " + filter.display;
    return text;
  };
  auto any_state = [&](const auto& selects) {
    for (const auto* file : {&reference, &compare}) {
      for (const auto& state : file->states) {
        if (selects(state)) return true;
      }
    }
    return false;
  };
  for (const auto& scope : plan.scopes) {
    FilterPlan single{plan.global_axis_filters, {scope}};
    if (!any_state([&](const ResultState& state) { return state.benchmark == scope.benchmark; })) {
      throw Error(ExitCode::kUsage, "-b " + scope.benchmark +
                                        ": neither file has a benchmark of that name. Check the "
                                        "spelling against the files' benchmark names.");
    }
    if (!any_state([&](const ResultState& state) { return state_selected(single, state); })) {
      throw Error(ExitCode::kUsage,
                  "-b " + scope.benchmark + describe_axes(plan.global_axis_filters) +
                      describe_axes(scope.axis_filters) +
                      ": no state of that benchmark has these axis values. Check the axis "
                      "names and values against the files.");
    }
  }
  if (plan.scopes.empty() && !plan.global_axis_filters.empty() &&
      !any_state([&](const ResultState& state) { return state_selected(plan, state); })) {
    throw Error(ExitCode::kUsage, describe_axes(plan.global_axis_filters).substr(1) +
                                      ": no state of either file has these axis values. Check "
                                      "the axis names and values against the files.");
  }
}

}  // namespace

std::string match_key(const ResultState& state) {
  // Sorted through pointers: copying every axis name and value to sort them cost more
  // than the rest of the key. Equal pairs read the same in either order.
  using Axis = std::pair<std::string, std::string>;
  std::vector<const Axis*> axes;
  axes.reserve(state.axis_values.size());
  std::size_t size = state.state_key.size();
  for (const Axis& axis : state.axis_values) {
    axes.push_back(&axis);
    size += 2 + axis.first.size() + axis.second.size();
  }
  std::sort(axes.begin(), axes.end(), [](const Axis* a, const Axis* b) { return *a < *b; });
  std::string key;
  key.reserve(size);
  key += state.state_key;
  for (const Axis* axis : axes) {
    key += '\x1f';
    key += axis->first;
    key += '\x1e';
    key += axis->second;
  }
  return key;
}

MatchResult match_states(const ResultFile& reference, const ResultFile& compare,
                         const MatchOptions& options) {
  MatchResult result;
  check_filters_select_something(reference, compare, options.filters);
  const bool has_devices = !reference.devices.empty() || !compare.devices.empty();
  std::vector<std::pair<std::optional<long long>, std::optional<long long>>> pairs;
  if (has_devices) {
    check_state_devices(reference);
    check_state_devices(compare);
    const auto ref_ids =
        selected_devices(reference, options.reference_devices, "--reference-devices");
    const auto cmp_ids = selected_devices(compare, options.compare_devices, "--compare-devices");
    const bool filtered = options.reference_devices || options.compare_devices;
    if (filtered && ref_ids.size() != cmp_ids.size()) {
      throw Error(ExitCode::kUsage,
                  "--reference-devices selects " + std::to_string(ref_ids.size()) +
                      " device(s) but --compare-devices selects " + std::to_string(cmp_ids.size()) +
                      "; devices pair by position, so select as many on each side.");
    }
    bool identical = ref_ids.size() == cmp_ids.size();
    for (std::size_t i = 0; identical && i < ref_ids.size(); ++i) {
      identical =
          same_device(*find_device(reference, ref_ids[i]), *find_device(compare, cmp_ids[i]));
    }
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
                        ". Pass --ignore-devices to compare them anyway (devices pair by "
                        "position), or pair devices with --reference-devices and "
                        "--compare-devices.");
      }
      result.warnings.push_back(difference);
    }
    pairs = device_pairs(ref_ids, cmp_ids);
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
    for (const auto& [ref_id, cmp_id] : pairs) {
      const auto ref_states = ref_id ? section_states(reference, benchmark, ref_id, options.filters)
                                     : std::vector<const ResultState*>{};
      const auto cmp_states = cmp_id ? section_states(compare, benchmark, cmp_id, options.filters)
                                     : std::vector<const ResultState*>{};
      auto section = pair_states(benchmark, ref_states, cmp_states);
      if (section.states.empty()) continue;
      section.reference_device = device_of(reference, ref_id);
      section.compare_device = device_of(compare, cmp_id);
      result.sections.push_back(std::move(section));
    }
  }
  return result;
}

}  // namespace perfgate::diff
