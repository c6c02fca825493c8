#pragma once
// Writes small nvbench result files (the current --json layout, numbers as strings) and
// their --jsonbin sample files, so diff tests control every summary and sample.
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/json.hpp"

namespace perfgate::testing {

struct NvbenchStateSpec {
  std::string benchmark = "bench";
  long long device = 0;
  std::vector<std::pair<std::string, std::string>> axes;  ///< name, value (strings)
  std::map<std::string, double> gpu;  ///< nv/cold/time/gpu/<key> -> value, e.g. "median"
  std::optional<double> clock_rate;   ///< nv/cold/sm_clock_rate/mean
  std::vector<float> sample_times;    ///< written as a bulk file when not empty
  std::vector<float> sample_freqs;
  bool skipped = false;
};

/// Robust and classical summaries around `center`: min/q1/median/q3/max spread by
/// `spread` (fraction), mean = median, stdev = spread/2 of it.
inline std::map<std::string, double> gpu_summaries(double center, double spread) {
  const double w = center * spread;
  return {{"min", center - w},       {"q1", center - w / 2},
          {"median", center},        {"q3", center + w / 2},
          {"max", center + w},       {"mean", center},
          {"stdev/absolute", w / 2}, {"stdev/relative", spread / 2},
          {"iqr/absolute", w},       {"iqr/relative", spread}};
}

inline Json nvbench_summary(const std::string& tag, const std::string& type,
                            const std::string& value) {
  return {{"tag", tag},
          {"name", tag},
          {"hint", "duration"},
          {"data", Json::array({{{"name", "value"}, {"type", type}, {"value", value}}})}};
}

inline Json nvbench_file_summary(const std::string& tag, const std::string& filename,
                                 std::size_t size) {
  return {{"tag", tag},
          {"data",
           Json::array({{{"name", "filename"}, {"type", "string"}, {"value", filename}},
                        {{"name", "size"}, {"type", "int64"}, {"value", std::to_string(size)}}})}};
}

inline void write_float32(const std::filesystem::path& path, const std::vector<float>& values) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  for (const float value : values) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const unsigned char bytes[4] = {
        static_cast<unsigned char>(bits), static_cast<unsigned char>(bits >> 8),
        static_cast<unsigned char>(bits >> 16), static_cast<unsigned char>(bits >> 24)};
    out.write(reinterpret_cast<const char*>(bytes), 4);
  }
}

/// Writes `json_path` (and its bulk files beside it) with the given states; devices 0 and 1
/// are described as "GPU 0" and "GPU 1".
inline void write_nvbench_file(const std::filesystem::path& json_path,
                               const std::vector<NvbenchStateSpec>& states) {
  Json benchmarks = Json::array();
  std::map<std::string, std::size_t> index_of;
  const std::string json_name = json_path.filename().string();
  std::size_t bulk_index = 0;
  for (const auto& spec : states) {
    if (!index_of.count(spec.benchmark)) {
      index_of[spec.benchmark] = benchmarks.size();
      Json axes = Json::array();
      for (const auto& [name, value] : spec.axes) {
        axes.push_back(
            {{"name", name}, {"type", "string"}, {"flags", ""}, {"values", Json::array()}});
      }
      benchmarks.push_back({{"name", spec.benchmark},
                            {"index", benchmarks.size()},
                            {"devices", Json::array()},
                            {"axes", spec.axes.empty() ? Json(nullptr) : axes},
                            {"states", Json::array()}});
    }
    Json& benchmark = benchmarks[index_of[spec.benchmark]];
    bool has_device = false;
    for (const auto& d : benchmark["devices"]) has_device |= d.get<long long>() == spec.device;
    if (!has_device) benchmark["devices"].push_back(spec.device);

    std::string name = "Device=" + std::to_string(spec.device);
    Json axis_values = Json::array();
    for (const auto& [axis, value] : spec.axes) {
      name += " " + axis + "=" + value;
      axis_values.push_back({{"name", axis}, {"type", "string"}, {"value", value}});
    }
    Json summaries = Json::array();
    for (const auto& [key, value] : spec.gpu) {
      summaries.push_back(
          nvbench_summary("nv/cold/time/gpu/" + key, "float64", fmt::format("{}", value)));
    }
    if (spec.clock_rate) {
      summaries.push_back(nvbench_summary("nv/cold/sm_clock_rate/mean", "float64",
                                          fmt::format("{}", *spec.clock_rate)));
    }
    if (!spec.sample_times.empty()) {
      const std::string times = json_name + "-bin/" + std::to_string(bulk_index) + ".bin";
      write_float32(json_path.parent_path() / times, spec.sample_times);
      summaries.push_back(nvbench_file_summary("nv/json/bin:nv/cold/sample_times", times,
                                               spec.sample_times.size()));
    }
    if (!spec.sample_freqs.empty()) {
      const std::string freqs = json_name + "-freqs-bin/" + std::to_string(bulk_index) + ".bin";
      write_float32(json_path.parent_path() / freqs, spec.sample_freqs);
      summaries.push_back(nvbench_file_summary("nv/json/freqs-bin:nv/cold/sample_freqs", freqs,
                                               spec.sample_freqs.size()));
    }
    ++bulk_index;
    Json state = {{"name", name},
                  {"device", spec.device},
                  {"type_config_index", 0},
                  {"axis_values", spec.axes.empty() ? Json(nullptr) : axis_values},
                  {"summaries", spec.skipped ? Json(nullptr) : summaries},
                  {"is_skipped", spec.skipped}};
    if (spec.skipped) state["skip_reason"] = "not supported on this device";
    benchmark["states"].push_back(state);
  }
  const Json document = {
      {"meta", {{"version", {{"json", {{"string", "1.0.0"}}}}}}},
      {"devices", Json::array({{{"id", 0}, {"name", "GPU 0"}}, {{"id", 1}, {"name", "GPU 1"}}})},
      {"benchmarks", benchmarks}};
  std::filesystem::create_directories(json_path.parent_path());
  std::ofstream(json_path, std::ios::binary) << document.dump(2);
}

}  // namespace perfgate::testing
