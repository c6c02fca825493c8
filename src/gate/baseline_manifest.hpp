#pragma once
// The manifest of a reviewed baseline seeding (SPEC §6): `baseline prepare` writes it, a
// person reviews it, `baseline approve` re-checks the store against it and marks the
// whole batch eligible at once. Its digest protects it from edits and names the approval.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"
#include "store/store.hpp"

namespace perfgate {

/// Version 2 added the mode, the batch rule and each record's provenance and metric
/// values. Version 1 manifests are still read (as calibrations, prepared before the batch
/// rule existed).
inline constexpr int kManifestSchemaVersion = 2;

/// What a seeding is for.
enum class SeedMode {
  kCalibration,  ///< the first baseline of a new cohort: CALIBRATION_NEEDED records
  kReseed,       ///< advance a cohort's rolling median after a legitimate shift
};

std::string_view to_string(SeedMode mode);  // "calibration" / "reseed"

/// A metric value as the reviewer sees it.
struct ManifestMetric {
  double value = 0;
  std::string unit;
  bool operator==(const ManifestMetric&) const = default;
};

struct ManifestEntry {
  std::string record_id;
  std::string benchmark_id;
  std::string cohort;  ///< CohortKey::to_string()
  std::string timestamp;
  std::string run_source;
  std::string comparison_status;
  std::string record_sha256;  ///< fingerprint of the record's JSON as stored
  // Since version 2: where the record came from and what it measured, for review.
  std::optional<std::string> commit_sha;
  std::optional<std::string> build_id;
  std::optional<std::string> build_url;
  std::optional<std::string> test_scope;
  std::string comparison_status_reason;
  std::map<std::string, ManifestMetric> metrics;

  bool operator==(const ManifestEntry&) const = default;
};

struct BaselineManifest {
  int manifest_schema_version = kManifestSchemaVersion;
  SeedMode mode = SeedMode::kCalibration;
  /// The user let one cohort's records come from several commits or builds
  /// (--allow-mixed-commits); otherwise approve holds each cohort to one.
  bool mixed_batches_allowed = false;
  std::string store_url;
  std::string store_revision;  ///< approve refuses when the store has changed since
  std::string created_at;
  std::vector<ManifestEntry> records;
  /// SHA-256 of the canonical JSON of everything above: detects edits to the file, and is
  /// the approval's id.
  std::string manifest_sha256;
};

/// The test scope a record carries (the seed's "test_scope"), if any.
std::optional<std::string> test_scope_of(const NormalizedRecord& record);

/// A manifest of `records` (each with a complete cohort), in the order given.
BaselineManifest build_manifest(const std::vector<StoredRecord>& records, SeedMode mode,
                                bool mixed_batches_allowed, const std::string& store_url,
                                const std::string& store_revision, const std::string& created_at);

Json to_json(const BaselineManifest& manifest);
/// Reads a manifest of version 1 or 2; Error(kDataError) naming `source` when it is
/// malformed or its manifest_sha256 does not match its content (the file was edited
/// after prepare).
BaselineManifest manifest_from_json(const Json& json, const std::string& source);
/// Reads the manifest file at `path` (named in messages as given): Error(kNoInput) when it
/// cannot be opened, Error(kDataError) when it is not JSON or not a valid manifest.
BaselineManifest load_baseline_manifest(const std::filesystem::path& path);

}  // namespace perfgate
