#include "gate/baseline_manifest.hpp"

#include <algorithm>
#include <map>

#include "model/error.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {
namespace {

bool qualifies(const StoredRecord& stored, const std::vector<std::string>& trusted) {
  const NormalizedRecord& r = stored.record;
  return r.comparison_status == kCalibrationNeeded && r.success && !stored.eligible &&
         r.cohort().has_value() &&
         std::find(trusted.begin(), trusted.end(), r.run_source) != trusted.end();
}

Json content_json(const BaselineManifest& manifest) {
  Json records = Json::array();
  for (const auto& e : manifest.records) {
    records.push_back({{"record_id", e.record_id},
                       {"benchmark_id", e.benchmark_id},
                       {"cohort", e.cohort},
                       {"timestamp", e.timestamp},
                       {"run_source", e.run_source},
                       {"comparison_status", e.comparison_status},
                       {"record_sha256", e.record_sha256}});
  }
  return {{"manifest_schema_version", manifest.manifest_schema_version},
          {"store_url", manifest.store_url},
          {"store_revision", manifest.store_revision},
          {"created_at", manifest.created_at},
          {"records", records}};
}

std::string text_field(const Json& json, const std::string& key, const std::string& source,
                       const std::string& path) {
  if (!json.is_object() || !json.contains(key) || !json[key].is_string()) {
    throw Error(ExitCode::kDataError,
                source + ": " + path + key +
                    ": missing or not a string. Run 'perfgate baseline prepare' again "
                    "instead of editing the manifest");
  }
  return json[key].get<std::string>();
}

}  // namespace

std::vector<StoredRecord> select_calibration_records(
    const std::vector<StoredRecord>& records, const std::vector<std::string>& trusted_run_sources) {
  std::vector<StoredRecord> selected;
  for (const auto& stored : records) {
    if (qualifies(stored, trusted_run_sources)) selected.push_back(stored);
  }
  return selected;
}

BaselineManifest build_manifest(const std::vector<StoredRecord>& records,
                                const std::string& store_url, const std::string& store_revision,
                                const std::string& created_at) {
  BaselineManifest manifest;
  manifest.store_url = store_url;
  manifest.store_revision = store_revision;
  manifest.created_at = created_at;
  for (const auto& stored : records) {
    const NormalizedRecord& r = stored.record;
    manifest.records.push_back({r.record_id, r.benchmark_id, r.cohort()->to_string(), r.timestamp,
                                r.run_source, r.comparison_status, fingerprint(to_json(r))});
  }
  manifest.manifest_sha256 = fingerprint(content_json(manifest));
  return manifest;
}

Json to_json(const BaselineManifest& manifest) {
  Json json = content_json(manifest);
  json["manifest_sha256"] = manifest.manifest_sha256;
  return json;
}

BaselineManifest manifest_from_json(const Json& json, const std::string& source) {
  if (!json.is_object()) {
    throw Error(
        ExitCode::kDataError,
        source + ": not a JSON object. Pass the file written by 'perfgate baseline prepare'");
  }
  if (!json.contains("manifest_schema_version") ||
      json["manifest_schema_version"] != kManifestSchemaVersion) {
    throw Error(ExitCode::kDataError,
                source + ": manifest_schema_version: expected " +
                    std::to_string(kManifestSchemaVersion) +
                    ". Write the manifest with this perfgate's 'baseline prepare'");
  }
  BaselineManifest manifest;
  manifest.store_url = text_field(json, "store_url", source, "");
  manifest.store_revision = text_field(json, "store_revision", source, "");
  manifest.created_at = text_field(json, "created_at", source, "");
  manifest.manifest_sha256 = text_field(json, "manifest_sha256", source, "");
  if (!json.contains("records") || !json["records"].is_array()) {
    throw Error(
        ExitCode::kDataError,
        source + ": records: missing or not an array. Run 'perfgate baseline prepare' again");
  }
  for (std::size_t i = 0; i < json["records"].size(); ++i) {
    const Json& e = json["records"][i];
    const std::string path = "records[" + std::to_string(i) + "].";
    manifest.records.push_back(
        {text_field(e, "record_id", source, path), text_field(e, "benchmark_id", source, path),
         text_field(e, "cohort", source, path), text_field(e, "timestamp", source, path),
         text_field(e, "run_source", source, path),
         text_field(e, "comparison_status", source, path),
         text_field(e, "record_sha256", source, path)});
  }
  if (fingerprint(content_json(manifest)) != manifest.manifest_sha256) {
    throw Error(ExitCode::kDataError,
                source +
                    ": manifest_sha256 does not match the manifest's content: the file was "
                    "changed after 'perfgate baseline prepare'. Run prepare again and review "
                    "the new manifest");
  }
  return manifest;
}

std::vector<std::string> manifest_problems(const BaselineManifest& manifest,
                                           const std::vector<StoredRecord>& current,
                                           const std::vector<std::string>& trusted_run_sources) {
  std::map<std::string, const StoredRecord*> by_id;
  for (const auto& stored : current) by_id[stored.record.record_id] = &stored;
  std::vector<std::string> problems;
  if (manifest.records.empty()) problems.push_back("the manifest lists no records");
  for (const auto& entry : manifest.records) {
    const auto it = by_id.find(entry.record_id);
    if (it == by_id.end()) {
      problems.push_back(entry.benchmark_id + " (" + entry.record_id.substr(0, 12) +
                         "): no longer in the store");
      continue;
    }
    const StoredRecord& stored = *it->second;
    if (fingerprint(to_json(stored.record)) != entry.record_sha256) {
      problems.push_back(entry.benchmark_id + " (" + entry.record_id.substr(0, 12) +
                         "): content changed since prepare");
    } else if (stored.eligible) {
      problems.push_back(entry.benchmark_id + " (" + entry.record_id.substr(0, 12) +
                         "): already eligible");
    } else if (!qualifies(stored, trusted_run_sources)) {
      problems.push_back(
          entry.benchmark_id + " (" + entry.record_id.substr(0, 12) +
          "): no longer qualifies (needs CALIBRATION_NEEDED, success and a trusted run source)");
    }
  }
  return problems;
}

}  // namespace perfgate
