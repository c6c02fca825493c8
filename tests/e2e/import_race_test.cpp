// Imports of one file started in different seconds, overlapping, on every backend: each
// state is stored once (issue 33, 6). An import's records carry the import time, so the
// copies have different record ids; only the raw digest, decided inside the append's
// transaction, tells they are one measurement.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <set>
#include <thread>

#include "model/json.hpp"
#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "support/background_perfgate.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr int kStates = 300;
constexpr int kImports = 6;

/// A Google Benchmark file of kStates one-repetition benchmarks.
std::string many_states_json() {
  Json rows = Json::array();
  for (int i = 0; i < kStates; ++i) {
    rows.push_back({{"name", "BM_state/" + std::to_string(i)},
                    {"run_name", "BM_state/" + std::to_string(i)},
                    {"run_type", "iteration"},
                    {"repetitions", 1},
                    {"repetition_index", 0},
                    {"threads", 1},
                    {"iterations", 1000},
                    {"real_time", 100.0 + i},
                    {"cpu_time", 99.0 + i},
                    {"time_unit", "ns"}});
  }
  const Json context = {{"date", "2026-11-30T11:37:04+00:00"},
                        {"host_name", "bench-host"},
                        {"executable", "./bench"},
                        {"num_cpus", 2},
                        {"library_build_type", "release"}};
  return Json{{"context", context}, {"benchmarks", rows}}.dump();
}

class ImportRace : public ::testing::TestWithParam<StoreBackend> {};

TEST_P(ImportRace, StoresEachStateOnceWhenImportsStartedInDifferentSecondsOverlap) {
  const TempDir dir;
  const std::string url = GetParam().url(dir.path());
  dir.write("gbench.json", many_states_json());
  const std::map<std::string, std::string> env{{"PERFGATE_STORE", url}};
  open_store(url);
  std::vector<std::unique_ptr<testing::BackgroundPerfgate>> imports;
  for (int i = 0; i < kImports; ++i) {
    // Each in its own folder (its output files), 300 ms apart: they span two seconds.
    const std::string folder = "import-" + std::to_string(i);
    dir.write(folder + "/.keep", "");
    imports.push_back(std::make_unique<testing::BackgroundPerfgate>(
        std::vector<std::string>{"import", (dir / "gbench.json").string(), "--run-source", "local",
                                 "--upload", "always"},
        dir / folder, env));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  for (int i = 0; i < kImports; ++i) {
    EXPECT_EQ(imports[static_cast<std::size_t>(i)]->wait(), 0)
        << read_text_file(dir / ("import-" + std::to_string(i) + "/perfgate.err"));
  }
  const auto records = open_store(url)->list_records({});
  std::set<std::string> digests;
  for (const auto& stored : records) digests.insert(stored.record.raw_record_sha256);
  EXPECT_EQ(records.size(), static_cast<std::size_t>(kStates));
  EXPECT_EQ(digests.size(), static_cast<std::size_t>(kStates));
}

INSTANTIATE_TEST_SUITE_P(AllBackends, ImportRace, ::testing::ValuesIn(all_store_backends()),
                         backend_name);

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
