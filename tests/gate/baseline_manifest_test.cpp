#include "gate/baseline_manifest.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace {

StoredRecord calibration_record(const std::string& benchmark, const std::string& source) {
  NormalizedRecord r;
  r.benchmark_id = benchmark;
  r.config_schema_version = 2;
  r.workload_id = benchmark;
  r.variant_id = "v";
  r.benchmark_version = 1;
  r.recipe_fingerprint = std::string(64, 'a');
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-1";
  r.timestamp = "2026-11-30T10:00:00Z";
  r.run_source = source;
  r.comparison_status = kCalibrationNeeded;
  r.baseline_status = kBaselineInitializedNewCohort;
  r.comparison_status_reason = "No baseline found for exact comparable identity";
  r.metrics["latency"] = {1.0, "s", Direction::kLowerIsBetter};
  assign_record_id(r);
  return {r, "attempt", false};
}

TEST(BaselineManifest, SelectsOnlyCalibrationRecordsFromTrustedSources) {
  StoredRecord trusted = calibration_record("a", "scheduled_main");
  StoredRecord from_pr = calibration_record("b", "pr");
  StoredRecord passed = calibration_record("c", "scheduled_main");
  passed.record.comparison_status = kPass;
  StoredRecord already = calibration_record("d", "scheduled_main");
  already.eligible = true;
  const auto selected =
      select_calibration_records({trusted, from_pr, passed, already}, {"scheduled_main"});
  ASSERT_EQ(selected.size(), 1u);
  EXPECT_EQ(selected[0].record.benchmark_id, "a");
}

TEST(BaselineManifest, RoundTripsThroughJsonAndDetectsEdits) {
  const auto records = std::vector<StoredRecord>{calibration_record("a", "scheduled_main")};
  const BaselineManifest manifest =
      build_manifest(records, "sqlite:x.db", "rev-7", "2026-11-30T11:00:00Z");
  const BaselineManifest read = manifest_from_json(to_json(manifest), "m.json");
  EXPECT_EQ(read.records, manifest.records);
  EXPECT_EQ(read.store_revision, "rev-7");

  Json edited = to_json(manifest);
  edited["store_revision"] = "rev-8";
  try {
    manifest_from_json(edited, "m.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what())
                  .rfind("m.json: manifest_sha256 does not match the manifest's content", 0),
              0u);
  }
}

TEST(BaselineManifest, ListsEveryReasonThatBlocksApproval) {
  const StoredRecord a = calibration_record("a", "scheduled_main");
  const StoredRecord b = calibration_record("b", "scheduled_main");
  const BaselineManifest manifest = build_manifest({a, b}, "sqlite:x.db", "rev", "now");
  StoredRecord b_now = b;
  b_now.eligible = true;
  EXPECT_EQ(manifest_problems(manifest, {b_now}, {"scheduled_main"}),
            (std::vector<std::string>{
                "a (" + a.record.record_id.substr(0, 12) + "): no longer in the store",
                "b (" + b.record.record_id.substr(0, 12) + "): already eligible"}));
  EXPECT_TRUE(manifest_problems(manifest, {a, b}, {"scheduled_main"}).empty());
}

}  // namespace
}  // namespace perfgate
