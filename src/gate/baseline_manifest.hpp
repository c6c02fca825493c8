#pragma once
// Reviewed, digest-protected seeding of a new cohort's baseline (SPEC §6): `baseline
// prepare` writes a manifest of the records to seed; a person reviews it; `baseline
// approve` re-checks the store against it and marks the whole batch eligible at once.
#include <string>
#include <vector>

#include "model/json.hpp"
#include "store/store.hpp"

namespace perfgate {

inline constexpr int kManifestSchemaVersion = 1;

struct ManifestEntry {
  std::string record_id;
  std::string benchmark_id;
  std::string cohort;  ///< CohortKey::to_string()
  std::string timestamp;
  std::string run_source;
  std::string comparison_status;
  std::string record_sha256;  ///< fingerprint of the record's JSON as stored

  bool operator==(const ManifestEntry&) const = default;
};

struct BaselineManifest {
  int manifest_schema_version = kManifestSchemaVersion;
  std::string store_url;
  std::string store_revision;  ///< approve refuses when the store has changed since
  std::string created_at;
  std::vector<ManifestEntry> records;
  /// SHA-256 of the canonical JSON of everything above: detects edits to the file, and is
  /// the approval's id.
  std::string manifest_sha256;
};

/// The records prepare proposes: CALIBRATION_NEEDED, successful, from a trusted run
/// source, with a complete cohort, not yet eligible. In the order given.
std::vector<StoredRecord> select_calibration_records(
    const std::vector<StoredRecord>& records, const std::vector<std::string>& trusted_run_sources);

BaselineManifest build_manifest(const std::vector<StoredRecord>& records,
                                const std::string& store_url, const std::string& store_revision,
                                const std::string& created_at);

Json to_json(const BaselineManifest& manifest);
/// Reads a manifest; Error(kDataError) naming `source` when it is malformed or its
/// manifest_sha256 does not match its content (the file was edited after prepare).
BaselineManifest manifest_from_json(const Json& json, const std::string& source);

/// What stands in the way of approving: a record that is no longer in the store, whose
/// content changed, that is already eligible, or that no longer qualifies. Empty when the
/// manifest can be approved. `current` are the store's records now.
std::vector<std::string> manifest_problems(const BaselineManifest& manifest,
                                           const std::vector<StoredRecord>& current,
                                           const std::vector<std::string>& trusted_run_sources);

}  // namespace perfgate
