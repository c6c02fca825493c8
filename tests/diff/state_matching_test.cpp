#include "diff/state_matching.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using ingest::ResultFile;
using ingest::ResultState;

ResultState state(const std::string& benchmark, std::optional<long long> device,
                  const std::string& key, std::vector<std::pair<std::string, std::string>> axes) {
  ResultState s;
  s.benchmark = benchmark;
  s.device = device;
  s.state_key = key;
  s.axis_values = std::move(axes);
  return s;
}

ResultFile gpu_file(std::vector<ingest::ResultDevice> devices, std::vector<ResultState> states) {
  ResultFile file;
  file.path = "f.json";
  file.devices = std::move(devices);
  for (const auto& s : states) {
    bool known = false;
    for (auto& b : file.benchmarks) {
      if (b.name != s.benchmark) continue;
      known = true;
      if (std::find(b.devices.begin(), b.devices.end(), *s.device) == b.devices.end()) {
        b.devices.push_back(*s.device);
      }
    }
    if (!known) file.benchmarks.push_back({s.benchmark, {*s.device}});
  }
  file.states = std::move(states);
  return file;
}

ResultFile host_file(std::vector<ResultState> states) {
  ResultFile file;
  file.format = ingest::ResultFormat::kGoogleBenchmark;
  file.path = "h.json";
  for (const auto& s : states) {
    if (file.benchmarks.empty() || file.benchmarks.back().name != s.benchmark) {
      file.benchmarks.push_back({s.benchmark, {}});
    }
  }
  file.states = std::move(states);
  return file;
}

TEST(StateMatching, PairsStatesByKeyInReferenceOrderAndKeepsOneSidedStates) {
  const auto ref =
      host_file({state("BM_a", {}, "8", {{"arg0", "8"}}), state("BM_a", {}, "16", {{"arg0", "16"}}),
                 state("BM_a", {}, "32", {{"arg0", "32"}})});
  const auto cmp = host_file({state("BM_a", {}, "64", {{"arg0", "64"}}),
                              state("BM_a", {}, "16", {{"arg0", "16"}}),
                              state("BM_a", {}, "8", {{"arg0", "8"}})});
  const auto result = match_states(ref, cmp, {});
  ASSERT_EQ(result.sections.size(), 1u);
  const auto& rows = result.sections[0].states;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].reference, &ref.states[0]);
  EXPECT_EQ(rows[0].compare, &cmp.states[2]);
  EXPECT_EQ(rows[1].reference, &ref.states[1]);
  EXPECT_EQ(rows[1].compare, &cmp.states[1]);
  EXPECT_EQ(rows[2].reference, &ref.states[2]);
  EXPECT_EQ(rows[2].compare, nullptr);
  EXPECT_EQ(rows[3].reference, nullptr);
  EXPECT_EQ(rows[3].compare, &cmp.states[0]);
  EXPECT_EQ(result.sections[0].axis_names, std::vector<std::string>{"arg0"});
  EXPECT_FALSE(result.sections[0].reference_device.has_value());
}

TEST(StateMatching, MatchesDuplicateStatesByOccurrence) {
  const auto ref = host_file({state("b", {}, "", {}), state("b", {}, "", {})});
  const auto cmp =
      host_file({state("b", {}, "", {}), state("b", {}, "", {}), state("b", {}, "", {})});
  const auto rows = match_states(ref, cmp, {}).sections.at(0).states;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].compare, &cmp.states[0]);
  EXPECT_EQ(rows[0].occurrence, 0u);
  EXPECT_EQ(rows[0].occurrence_count, 3u);
  EXPECT_EQ(rows[1].compare, &cmp.states[1]);
  EXPECT_EQ(rows[1].occurrence, 1u);
  EXPECT_EQ(rows[2].reference, nullptr);
  EXPECT_EQ(rows[2].compare, &cmp.states[2]);
  EXPECT_EQ(rows[2].occurrence, 2u);
}

TEST(StateMatching, ShowsABenchmarkOfOneFileOnlyAfterTheReferenceBenchmarks) {
  const auto ref = host_file({state("a", {}, "", {})});
  const auto cmp = host_file({state("z", {}, "", {}), state("a", {}, "", {})});
  const auto result = match_states(ref, cmp, {});
  ASSERT_EQ(result.sections.size(), 2u);
  EXPECT_EQ(result.sections[0].benchmark, "a");
  EXPECT_EQ(result.sections[1].benchmark, "z");
  EXPECT_EQ(result.sections[1].states.at(0).reference, nullptr);
}

TEST(StateMatching, AppliesBenchmarkAndAxisFilters) {
  const auto ref = host_file({state("a", {}, "T=F32", {{"T", "F32"}}),
                              state("a", {}, "T=U8", {{"T", "U8"}}), state("b", {}, "", {})});
  MatchOptions options;
  options.filters = build_filter_plan({{'b', "a"}, {'a', "T=U8"}});
  const auto result = match_states(ref, ref, options);
  ASSERT_EQ(result.sections.size(), 1u);
  ASSERT_EQ(result.sections[0].states.size(), 1u);
  EXPECT_EQ(result.sections[0].states[0].reference, &ref.states[1]);
}

TEST(StateMatching, MakesOneSectionPerDevicePair) {
  const std::vector<ingest::ResultDevice> devices = {{0, "GPU A"}, {1, "GPU B"}};
  const auto ref = gpu_file(devices, {state("k", 0, "", {}), state("k", 1, "", {})});
  const auto cmp = gpu_file(devices, {state("k", 0, "", {}), state("k", 1, "", {})});
  const auto result = match_states(ref, cmp, {});
  ASSERT_EQ(result.sections.size(), 2u);
  EXPECT_EQ(result.sections[0].reference_device->id, 0);
  EXPECT_EQ(result.sections[0].states.at(0).compare, &cmp.states[0]);
  EXPECT_EQ(result.sections[1].compare_device->name, "GPU B");
  EXPECT_EQ(result.sections[1].states.at(0).compare, &cmp.states[1]);
}

TEST(StateMatching, PairsDevicesByPositionOfTheFilters) {
  const auto ref =
      gpu_file({{0, "GPU A"}, {1, "GPU B"}}, {state("k", 0, "", {}), state("k", 1, "", {})});
  MatchOptions options;
  options.reference_devices = std::vector<long long>{0};
  options.compare_devices = std::vector<long long>{1};
  const auto result = match_states(ref, ref, options);
  ASSERT_EQ(result.sections.size(), 1u);
  EXPECT_EQ(result.sections[0].reference_device->id, 0);
  EXPECT_EQ(result.sections[0].compare_device->id, 1);
  EXPECT_EQ(result.sections[0].states.at(0).reference, &ref.states[0]);
  EXPECT_EQ(result.sections[0].states.at(0).compare, &ref.states[1]);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0],
            "device sections do not match: reference has [0] GPU A, compare has [1] GPU B");
}

TEST(StateMatching, RefusesDifferentDeviceSectionsUnlessTold) {
  const auto ref = gpu_file({{0, "GPU A"}}, {state("k", 0, "", {})});
  const auto cmp = gpu_file({{0, "GPU B"}}, {state("k", 0, "", {})});
  try {
    match_states(ref, cmp, {});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what()),
              "device sections do not match: reference has [0] GPU A, compare has [0] GPU B. "
              "Pass --ignore-devices to compare them anyway (devices pair by position), or pair "
              "devices with "
              "--reference-devices and --compare-devices.");
  }
  MatchOptions options;
  options.ignore_devices = true;
  const auto result = match_states(ref, cmp, options);
  EXPECT_EQ(result.sections.size(), 1u);
  EXPECT_EQ(result.warnings.size(), 1u);
}

TEST(StateMatching, RejectsDeviceFiltersThatNameMissingDevicesOrDifferInLength) {
  const auto ref = gpu_file({{0, "GPU A"}, {1, "GPU B"}}, {state("k", 0, "", {})});
  MatchOptions missing;
  missing.reference_devices = std::vector<long long>{3};
  try {
    match_states(ref, ref, missing);
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
    EXPECT_EQ(std::string(error.what()),
              "--reference-devices: f.json has no device 3 (it has [0] GPU A, [1] GPU B). Pick "
              "ids from that list.");
  }
  MatchOptions uneven;
  uneven.reference_devices = std::vector<long long>{0, 1};
  uneven.compare_devices = std::vector<long long>{1};
  try {
    match_states(ref, ref, uneven);
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
  }
}

TEST(StateMatching, PairsDevicesByTheirPositionInTheFileNotInTheBenchmark) {
  const std::vector<ingest::ResultDevice> devices = {{0, "GPU A"}, {1, "GPU B"}};
  const auto ref = gpu_file(devices, {state("x", 0, "", {})});
  const auto cmp = gpu_file(devices, {state("x", 1, "", {})});
  const auto result = match_states(ref, cmp, {});
  ASSERT_EQ(result.sections.size(), 2u);
  EXPECT_EQ(result.sections[0].reference_device->id, 0);
  EXPECT_EQ(result.sections[0].compare_device->id, 0);
  EXPECT_EQ(result.sections[0].states.at(0).compare, nullptr);
  EXPECT_EQ(result.sections[1].compare_device->id, 1);
  EXPECT_EQ(result.sections[1].states.at(0).reference, nullptr);
  EXPECT_TRUE(result.warnings.empty());
}

TEST(StateMatching, RefusesFilesWithDifferentDeviceCountsUnlessToldToIgnoreThem) {
  const auto ref =
      gpu_file({{0, "GPU A"}, {1, "GPU B"}}, {state("x", 0, "", {}), state("x", 1, "", {})});
  const auto cmp = gpu_file({{0, "GPU A"}}, {state("x", 0, "", {})});
  try {
    match_states(ref, cmp, {});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what())
                  .rfind("device sections do not match: reference has [0] "
                         "GPU A, [1] GPU B, compare has [0] GPU A. Pass "
                         "--ignore-devices",
                         0),
              0u)
        << error.what();
  }
  MatchOptions options;
  options.ignore_devices = true;
  const auto result = match_states(ref, cmp, options);
  ASSERT_EQ(result.sections.size(), 2u);
  EXPECT_EQ(result.sections[0].states.at(0).compare, &cmp.states[0]);
  EXPECT_FALSE(result.sections[1].compare_device.has_value());
  EXPECT_EQ(result.sections[1].states.at(0).reference, &ref.states[1]);
  EXPECT_EQ(result.sections[1].states.at(0).compare, nullptr);
  EXPECT_EQ(result.warnings.size(), 1u);
}

TEST(StateMatching, RefusesAStateOnADeviceTheFileDoesNotList) {
  auto ref = gpu_file({{0, "GPU A"}}, {state("x", 0, "T=F32", {})});
  ref.states[0].device = 7;
  try {
    match_states(ref, ref, {});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what()),
              "f.json: benchmark 'x' state 'T=F32' is on device 7, which is not in the file's "
              "devices list ([0] GPU A). Fix the state's device or the devices list.");
  }
}

TEST(StateMatching, RefusesFiltersThatSelectNothing) {
  const auto file = host_file({state("a", {}, "T=F32", {{"T", "F32"}})});
  auto code_and_message = [&](std::vector<FilterFlag> flags) {
    MatchOptions options;
    options.filters = build_filter_plan(flags);
    try {
      match_states(file, file, options);
    } catch (const Error& error) {
      return std::make_pair(error.code(), std::string(error.what()));
    }
    return std::make_pair(ExitCode::kOk, std::string());
  };
  EXPECT_EQ(code_and_message({{'b', "nope"}}),
            std::make_pair(ExitCode::kUsage,
                           std::string("-b nope: neither file has a benchmark of that name. "
                                       "Check the spelling against the files' benchmark names.")));
  EXPECT_EQ(code_and_message({{'b', "a"}, {'a', "T=U8"}}).first, ExitCode::kUsage);
  EXPECT_EQ(code_and_message({{'a', "Q=1"}}),
            std::make_pair(ExitCode::kUsage,
                           std::string("-a Q=1: no state of either file has these axis values. "
                                       "Check the axis names and values against the files.")));
  EXPECT_EQ(code_and_message({{'b', "a"}, {'a', "T=F32"}}).first, ExitCode::kOk);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
