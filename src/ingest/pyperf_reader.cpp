#include "ingest/pyperf_reader.hpp"

#include <array>
#include <cmath>
#include <unordered_set>

#include "ingest/json_cursor.hpp"
#include "ingest/timing_summary.hpp"

namespace perfgate::ingest {
namespace {

constexpr const char* kPyperfFix =
    "Write the file with pyperf (-o FILE); an edited file must keep pyperf's layout";

// The metadata objects in force for a run, innermost first; absent levels are null.
struct Metadata {
  std::array<const Json*, 3> levels{};  ///< run, benchmark, suite

  const Json* find(std::string_view key) const {
    for (const Json* level : levels) {
      if (level == nullptr) continue;
      const auto found = level->find(key);
      if (found != level->end() && !found->is_null()) return &*found;
    }
    return nullptr;
  }
};

const Json* metadata_of(const JsonCursor& holder) {
  const auto metadata = holder.find("metadata");
  if (!metadata) return nullptr;
  metadata->expect_object();
  return &metadata->json();
}

// pyperf's own markers of runs that only calibrated the loop count.
bool is_calibration(const JsonCursor& run, const Metadata& metadata) {
  if (!run.json().contains("values")) return true;
  return metadata.find("calibrate_loops") != nullptr ||
         metadata.find("recalibrate_loops") != nullptr ||
         metadata.find("calibrate_warmups") != nullptr ||
         metadata.find("recalibrate_warmups") != nullptr;
}

ResultState read_benchmark(const JsonCursor& benchmark, const Json* suite_metadata) {
  benchmark.expect_object();
  Metadata metadata;
  metadata.levels = {nullptr, metadata_of(benchmark), suite_metadata};
  const Json* name = metadata.find("name");
  if (name == nullptr || !name->is_string()) {
    if (const auto own = benchmark.find("metadata")) {
      const JsonCursor field = own->at("name");
      field.string();
    }
    benchmark.fail("has no metadata name (neither its own nor the suite's)");
  }
  ResultState state;
  state.benchmark = name->get<std::string>();
  const Json* unit = metadata.find("unit");
  const std::string unit_name =
      unit != nullptr && unit->is_string() ? unit->get<std::string>() : "second";
  state.timing_name = unit_name == "second" ? "wall_time" : unit_name;

  const JsonCursor runs = benchmark.at("runs");
  const std::size_t run_count = runs.size();
  for (std::size_t r = 0; r < run_count; ++r) {
    const JsonCursor run = runs.item(r);
    run.expect_object();
    metadata.levels[0] = metadata_of(run);
    if (is_calibration(run, metadata)) continue;
    const JsonCursor values = run.at("values");
    const std::size_t count = values.size();
    state.samples.reserve(state.samples.size() + count);
    for (std::size_t i = 0; i < count; ++i) {
      const JsonCursor value = values.item(i);
      const double number = value.number();
      if (!std::isfinite(number)) value.fail("must be a finite number");
      state.samples.push_back(number);
    }
  }
  state.summary = summarize_timing(state.samples);
  return state;
}

}  // namespace

ResultFile read_pyperf(const Json& document, const std::filesystem::path& path) {
  const JsonSource source{path.string(), kPyperfFix};
  const JsonCursor root(document, source);
  root.expect_object();
  ResultFile file;
  file.format = ResultFormat::kPyperf;
  file.path = path;
  const Json* suite_metadata = metadata_of(root);
  if (suite_metadata != nullptr) file.context = *suite_metadata;
  const JsonCursor benchmarks = root.at("benchmarks");
  const std::size_t count = benchmarks.size();
  file.states.reserve(count);
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor benchmark = benchmarks.item(i);
    file.states.push_back(read_benchmark(benchmark, suite_metadata));
    const std::string& name = file.states.back().benchmark;
    if (seen.insert(name).second) file.benchmarks.push_back(ResultBenchmark{name, {}});
  }
  return file;
}

}  // namespace perfgate::ingest
