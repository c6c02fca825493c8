// Pairs decided while the compare file is read must be exactly the pairs run_diff would
// decide, and only for the very states it pairs.
#include "diff/early_decisions.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "diff_fixtures.hpp"
#include "report/diff_json.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using testing::default_thresholds;
using testing::robust_summary;

/// Writes `values` as a little-endian float32 bulk file.
std::string write_bulk(const TempDir& dir, const std::string& name,
                       const std::vector<float>& values) {
  std::string bytes(values.size() * 4, '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return dir.write(name, bytes).string();
}

/// An nvbench-like file of `count` states of benchmark "b" on device 0, keyed N=i, each
/// with 50 bulk samples around `center(i)` and a clock of 1.4 GHz; state `missing_bulk`
/// names a times file that does not exist (a warning), and the key N=dup occurs twice.
ingest::ResultFile nvbench_file(const TempDir& dir, const std::string& side, std::size_t count,
                                double (*center)(std::size_t), std::size_t missing_bulk) {
  ingest::ResultFile file;
  file.format = ingest::ResultFormat::kNvbench;
  file.path = dir / (side + ".json");
  file.devices.push_back({0, "GPU"});
  file.benchmarks.push_back({"b", {0}});
  for (std::size_t i = 0; i <= count; ++i) {
    ingest::ResultState& state = file.states.emplace_back();
    state.benchmark = "b";
    state.device = 0;
    state.state_key = i < count ? "N=" + std::to_string(i) : "N=dup";
    state.timing_name = "gpu_time";
    const double c = center(i % count);
    state.summary = robust_summary(c * 0.97, c * 0.99, c, c * 1.01, 0.02, 1.4e9);
    state.summary.sample_size = 50;
    std::vector<float> times;
    std::vector<float> clocks;
    for (int k = 0; k < 50; ++k) {
      times.push_back(static_cast<float>(c * (0.97 + 0.0012 * k)));
      clocks.push_back(1.4e9f);
    }
    const std::string stem = side + "-" + std::to_string(i);
    state.bulk_times = ingest::BulkFile{
        stem + ".bin",
        i == missing_bulk ? (dir / "missing.bin").string() : write_bulk(dir, stem + ".bin", times),
        50};
    state.bulk_frequencies =
        ingest::BulkFile{stem + "-f.bin", write_bulk(dir, stem + "-f.bin", clocks), 50};
  }
  file.states.push_back(file.states.back());  // N=dup again: pairs by occurrence
  return file;
}

double reference_center(std::size_t i) {
  return 1e-3 * (1.0 + static_cast<double>(i));
}
double compare_center(std::size_t i) {
  // A third slower, a third faster, a third the same.
  const double factors[] = {1.0, 1.2, 0.8};
  return reference_center(i) * factors[i % 3];
}

TEST(EarlyDecisions, DecideExactlyWhatRunDiffDecidesForEveryPairItTakes) {
  const TempDir dir;
  const ingest::ResultFile reference = nvbench_file(dir, "ref", 30, reference_center, 99);
  const ingest::ResultFile compare = nvbench_file(dir, "cmp", 30, compare_center, 7);
  const DiffThresholds thresholds = default_thresholds();

  EarlyDecisions early(reference, true, thresholds);
  for (std::size_t i = 0; i < compare.states.size(); ++i) early.state_read(compare.states[i], i);
  early.finish();
  // Every compare state but the two N=dup ones, whose key repeats in the reference.
  EXPECT_EQ(early.decided_count(), 30u);

  const DiffOutcome plain = run_diff(reference, compare, {}, thresholds);
  const DiffOutcome taken = run_diff(reference, compare, {}, thresholds, {}, &early);
  const DiffConfig config;
  EXPECT_EQ(diff_to_json(taken, config, "ref.json", "cmp.json", 0).dump(),
            diff_to_json(plain, config, "ref.json", "cmp.json", 0).dump());
  EXPECT_EQ(taken.warnings, plain.warnings);
  ASSERT_EQ(plain.warnings.size(), 1u);
  EXPECT_NE(plain.warnings[0].find("missing.bin"), std::string::npos) << plain.warnings[0];
  EXPECT_GT(plain.counts.slow, 0u);
  EXPECT_GT(plain.counts.fast, 0u);
}

TEST(EarlyDecisions, TakesNothingDecidedWithOtherThresholdsOrForOtherStates) {
  const TempDir dir;
  const ingest::ResultFile reference = nvbench_file(dir, "ref", 6, reference_center, 99);
  const ingest::ResultFile compare = nvbench_file(dir, "cmp", 6, compare_center, 99);
  DiffThresholds thresholds = default_thresholds();

  EarlyDecisions early(reference, true, thresholds);
  for (std::size_t i = 0; i < compare.states.size(); ++i) early.state_read(compare.states[i], i);
  early.finish();
  EXPECT_TRUE(early.decided_with(true, thresholds));
  EXPECT_FALSE(early.decided_with(false, thresholds));
  thresholds.clear_gap_relative *= 2;
  EXPECT_FALSE(early.decided_with(true, thresholds));
  // A pair of other states (here: state 1 of the compare file with state 0 of the
  // reference) is not the pair decided.
  EXPECT_NE(early.find({&reference.states[0], &compare.states[0], 0, 1}), nullptr);
  EXPECT_EQ(early.find({&reference.states[0], &compare.states[1], 0, 1}), nullptr);
  EXPECT_EQ(early.find({nullptr, &compare.states[0], 0, 1}), nullptr);
}

TEST(EarlyDecisions, ForgetEveryStateWhenTheStatesMoveOrTheReaderGivesUp) {
  const TempDir dir;
  const ingest::ResultFile reference = nvbench_file(dir, "ref", 6, reference_center, 99);
  const ingest::ResultFile compare = nvbench_file(dir, "cmp", 6, compare_center, 99);
  for (const bool gave_up : {false, true}) {
    EarlyDecisions early(reference, true, default_thresholds());
    for (std::size_t i = 0; i < compare.states.size(); ++i) {
      early.state_read(compare.states[i], i);
    }
    if (gave_up) {
      early.abandoned();
    } else {
      early.states_moving();
    }
    EXPECT_EQ(early.decided_count(), 0u) << gave_up;
    early.state_read(compare.states[2], 2);  // told again after the move
    early.stop();
    EXPECT_LE(early.decided_count(), 1u) << gave_up;
    EXPECT_EQ(early.find({&reference.states[0], &compare.states[0], 0, 1}), nullptr) << gave_up;
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
