#include "gate/baseline_manifest.hpp"

#include <gtest/gtest.h>

#include "gate/seed_records.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

std::string error_of(const Json& json) {
  try {
    manifest_from_json(json, "m.json");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  return "no error";
}

TEST(BaselineManifest, RoundTripsThroughJsonAndDetectsEdits) {
  const auto records = std::vector<StoredRecord>{seed_record("a", "scheduled_main")};
  const BaselineManifest manifest = build_manifest(records, SeedMode::kReseed, false, "sqlite:x.db",
                                                   "rev-7", "2026-11-30T11:00:00Z");
  const BaselineManifest read = manifest_from_json(to_json(manifest), "m.json");
  EXPECT_EQ(read.records, manifest.records);
  EXPECT_EQ(read.store_revision, "rev-7");
  EXPECT_EQ(read.mode, SeedMode::kReseed);
  EXPECT_FALSE(read.mixed_batches_allowed);
  EXPECT_EQ(read.manifest_sha256, manifest.manifest_sha256);

  Json edited = to_json(manifest);
  edited["store_revision"] = "rev-8";
  EXPECT_EQ(
      error_of(edited).rfind("m.json: manifest_sha256 does not match the manifest's content", 0),
      0u);
  edited = to_json(manifest);
  edited["mixed_batches_allowed"] = true;
  EXPECT_EQ(error_of(edited).rfind("m.json: manifest_sha256 does not match", 0), 0u);
}

TEST(BaselineManifest, CarriesEachRecordsProvenanceAndMetricValuesForReview) {
  StoredRecord stored = seed_record("a", "scheduled_main", kRegression, "0123456789abcdef", 1.5);
  stored.record.build_id = "812";
  stored.record.build_url = "https://ci.example/builds/812";
  stored.record.legacy_fields = {{"test_scope", "full"}};
  stored.record.comparison_status_reason = "latency +50%";
  stored.record.metrics["memory"] = {148.5, "MB", Direction::kLowerIsBetter};
  assign_record_id(stored.record);
  const Json json =
      to_json(build_manifest({stored}, SeedMode::kReseed, false, "dir:s", "r", "2026-12-01"));

  EXPECT_EQ(json["manifest_schema_version"], 2);
  EXPECT_EQ(json["mode"], "reseed");
  EXPECT_EQ(json["mixed_batches_allowed"], false);
  const Json& entry = json["records"][0];
  EXPECT_EQ(entry["commit_sha"], "0123456789abcdef");
  EXPECT_EQ(entry["build_id"], "812");
  EXPECT_EQ(entry["build_url"], "https://ci.example/builds/812");
  EXPECT_EQ(entry["test_scope"], "full");
  EXPECT_EQ(entry["run_source"], "scheduled_main");
  EXPECT_EQ(entry["comparison_status"], "REGRESSION");
  EXPECT_EQ(entry["comparison_status_reason"], "latency +50%");
  EXPECT_EQ(entry["metrics"], Json::parse(R"({"latency": {"value": 1.5, "unit": "s"},
                                              "memory": {"value": 148.5, "unit": "MB"}})"));
  EXPECT_EQ(entry["cohort"], stored.record.cohort()->to_string());
}

TEST(BaselineManifest, WritesNullForProvenanceARecordDoesNotHave) {
  StoredRecord stored = seed_record("a", "scheduled_main");
  stored.record.commit_sha.reset();
  assign_record_id(stored.record);
  const Json entry = to_json(build_manifest({stored}, SeedMode::kCalibration, false, "dir:s", "r",
                                            "2026-12-01"))["records"][0];
  EXPECT_TRUE(entry["commit_sha"].is_null());
  EXPECT_TRUE(entry["build_id"].is_null());
  EXPECT_TRUE(entry["test_scope"].is_null());
}

TEST(BaselineManifest, StillReadsAVersionOneManifestAsACalibration) {
  Json v1 = Json::parse(R"({
    "manifest_schema_version": 1, "store_url": "sqlite:x.db", "store_revision": "4",
    "created_at": "2026-11-30T11:00:00Z",
    "records": [{"record_id": "r1", "benchmark_id": "a", "cohort": "a/v/v1/aaaaaaaaaaaa/hw-1/sw-1",
                 "timestamp": "2026-11-30T10:00:00Z", "run_source": "scheduled_main",
                 "comparison_status": "CALIBRATION_NEEDED", "record_sha256": "d1"}]})");
  v1["manifest_sha256"] = fingerprint(v1);

  const BaselineManifest read = manifest_from_json(v1, "old.json");
  EXPECT_EQ(read.manifest_schema_version, 1);
  EXPECT_EQ(read.mode, SeedMode::kCalibration);
  EXPECT_TRUE(read.mixed_batches_allowed);
  ASSERT_EQ(read.records.size(), 1u);
  EXPECT_EQ(read.records[0].record_id, "r1");
  EXPECT_FALSE(read.records[0].commit_sha.has_value());
  EXPECT_EQ(to_json(read), v1);
}

TEST(BaselineManifest, RefusesAnUnknownVersionOrMode) {
  const BaselineManifest manifest = build_manifest({seed_record("a", "scheduled_main")},
                                                   SeedMode::kCalibration, false, "s", "r", "t");
  Json json = to_json(manifest);
  json["manifest_schema_version"] = 3;
  EXPECT_EQ(error_of(json),
            "m.json: manifest_schema_version: expected 1 or 2. Write the manifest with this "
            "perfgate's 'baseline prepare'");
  json = to_json(manifest);
  json["mode"] = "promote";
  EXPECT_EQ(error_of(json),
            "m.json: mode: 'promote' is not calibration or reseed. Run 'perfgate baseline "
            "prepare' again instead of editing the manifest");
}

std::string load_error_of(const std::filesystem::path& path, ExitCode expected) {
  try {
    load_baseline_manifest(path);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), expected);
    return error.what();
  }
  return "no error";
}

TEST(BaselineManifest, LoadsTheFileThatPrepareWrote) {
  const BaselineManifest manifest = build_manifest({seed_record("a", "scheduled_main")},
                                                   SeedMode::kCalibration, false, "s", "r", "t");
  const TempDir dir;
  const auto path = dir.write("manifest.json", to_json(manifest).dump(2));
  EXPECT_EQ(load_baseline_manifest(path).manifest_sha256, manifest.manifest_sha256);
}

TEST(BaselineManifest, LoadingNamesAMissingFileOrTextThatIsNotJson) {
  const TempDir dir;
  const auto missing = dir / "missing.json";
  EXPECT_EQ(load_error_of(missing, ExitCode::kNoInput),
            missing.string() + ": no such manifest. Write one with 'perfgate baseline prepare'");
  const auto broken = dir.write("broken.json", "{\"records\": [");
  EXPECT_EQ(
      load_error_of(broken, ExitCode::kDataError).rfind(broken.string() + ": not valid JSON (", 0),
      0u);
}

// Found by fuzzing (fuzz/corpus/baseline_manifest/number_overflow.json): nlohmann's
// out_of_range escaped as an internal error.
TEST(BaselineManifest, LoadingNamesANumberBeyondADoubleAsInvalidJson) {
  const TempDir dir;
  const auto path = dir.write("big.json", "{\"records\": [1e400]}");
  EXPECT_EQ(load_error_of(path, ExitCode::kDataError),
            path.string() +
                ": not valid JSON ([json.exception.out_of_range.406] number overflow parsing "
                "'1e400'). Run 'perfgate baseline prepare' again");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
