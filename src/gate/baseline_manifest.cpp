#include "gate/baseline_manifest.hpp"

#include <fstream>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/json_reader.hpp"

namespace perfgate {
namespace {

constexpr const char* kRedo =
    "Run 'perfgate baseline prepare' again instead of editing the manifest";

Json optional_text(const std::optional<std::string>& text) {
  return text ? Json(*text) : Json(nullptr);
}

Json entry_json(const ManifestEntry& e, int version) {
  Json json = {{"record_id", e.record_id},
               {"benchmark_id", e.benchmark_id},
               {"cohort", e.cohort},
               {"timestamp", e.timestamp},
               {"run_source", e.run_source},
               {"comparison_status", e.comparison_status},
               {"record_sha256", e.record_sha256}};
  if (version < 2) return json;
  Json metrics = Json::object();
  for (const auto& [name, metric] : e.metrics) {
    metrics[name] = {{"value", metric.value}, {"unit", metric.unit}};
  }
  json["commit_sha"] = optional_text(e.commit_sha);
  json["build_id"] = optional_text(e.build_id);
  json["build_url"] = optional_text(e.build_url);
  json["test_scope"] = optional_text(e.test_scope);
  json["comparison_status_reason"] = e.comparison_status_reason;
  json["metrics"] = metrics;
  return json;
}

// What the digest covers: every field but the digest, in the layout of the manifest's
// own version, so that a version 1 manifest keeps its digest.
Json content_json(const BaselineManifest& manifest) {
  const int version = manifest.manifest_schema_version;
  Json records = Json::array();
  for (const auto& entry : manifest.records) records.push_back(entry_json(entry, version));
  Json json = {{"manifest_schema_version", version},
               {"store_url", manifest.store_url},
               {"store_revision", manifest.store_revision},
               {"created_at", manifest.created_at},
               {"records", records}};
  if (version >= 2) {
    json["mode"] = std::string(to_string(manifest.mode));
    json["mixed_batches_allowed"] = manifest.mixed_batches_allowed;
  }
  return json;
}

SeedMode mode_from(JsonObjectReader& reader) {
  const std::string mode = reader.string("mode");
  if (mode == "calibration") return SeedMode::kCalibration;
  if (mode == "reseed") return SeedMode::kReseed;
  reader.fail(reader.path_of("mode"), "'" + mode + "' is not calibration or reseed", kRedo);
}

ManifestEntry entry_from(const Json& json, int version, const std::string& source,
                         const std::string& path) {
  JsonObjectReader reader(json, source, path);
  ManifestEntry e;
  e.record_id = reader.string("record_id");
  e.benchmark_id = reader.string("benchmark_id");
  e.cohort = reader.string("cohort");
  e.timestamp = reader.string("timestamp");
  e.run_source = reader.string("run_source");
  e.comparison_status = reader.string("comparison_status");
  e.record_sha256 = reader.string("record_sha256");
  if (version >= 2) {
    e.commit_sha = reader.optional_string("commit_sha");
    e.build_id = reader.optional_string("build_id");
    e.build_url = reader.optional_string("build_url");
    e.test_scope = reader.optional_string("test_scope");
    e.comparison_status_reason = reader.string("comparison_status_reason");
    for (const auto& [name, value] : reader.object("metrics").items()) {
      JsonObjectReader metric(value, source, reader.path_of("metrics." + name));
      e.metrics[name] = {metric.number("value"), metric.string("unit")};
      metric.reject_unknown_keys();
    }
  }
  reader.reject_unknown_keys();
  return e;
}

}  // namespace

std::string_view to_string(SeedMode mode) {
  return mode == SeedMode::kReseed ? "reseed" : "calibration";
}

std::optional<std::string> test_scope_of(const NormalizedRecord& record) {
  // Records carry the seed's test_scope only among the legacy fields they keep verbatim.
  const auto it = record.legacy_fields.find("test_scope");
  if (it == record.legacy_fields.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

BaselineManifest build_manifest(const std::vector<StoredRecord>& records, SeedMode mode,
                                bool mixed_batches_allowed, const std::string& store_url,
                                const std::string& store_revision, const std::string& created_at) {
  BaselineManifest manifest;
  manifest.mode = mode;
  manifest.mixed_batches_allowed = mixed_batches_allowed;
  manifest.store_url = store_url;
  manifest.store_revision = store_revision;
  manifest.created_at = created_at;
  for (const auto& stored : records) {
    const NormalizedRecord& r = stored.record;
    ManifestEntry e{r.record_id,
                    r.benchmark_id,
                    r.cohort()->to_string(),
                    r.timestamp,
                    r.run_source,
                    r.comparison_status,
                    fingerprint(to_json(r)),
                    r.commit_sha,
                    r.build_id,
                    r.build_url,
                    test_scope_of(r),
                    r.comparison_status_reason,
                    {}};
    for (const auto& [name, metric] : r.metrics) e.metrics[name] = {metric.value, metric.unit};
    manifest.records.push_back(std::move(e));
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
  JsonObjectReader reader(json, source, "");
  BaselineManifest manifest;
  const auto version = json.find("manifest_schema_version");
  if (version == json.end() || !version->is_number_integer() || *version < 1 ||
      *version > kManifestSchemaVersion) {
    throw Error(ExitCode::kDataError,
                source + ": manifest_schema_version: expected 1 or " +
                    std::to_string(kManifestSchemaVersion) +
                    ". Write the manifest with this perfgate's 'baseline prepare'");
  }
  manifest.manifest_schema_version = static_cast<int>(reader.integer("manifest_schema_version"));
  manifest.store_url = reader.string("store_url");
  manifest.store_revision = reader.string("store_revision");
  manifest.created_at = reader.string("created_at");
  manifest.manifest_sha256 = reader.string("manifest_sha256");
  if (manifest.manifest_schema_version >= 2) {
    manifest.mode = mode_from(reader);
    manifest.mixed_batches_allowed = reader.boolean("mixed_batches_allowed");
  } else {
    // Version 1 knew only calibration and had no batch rule; its reviewer approved it so.
    manifest.mixed_batches_allowed = true;
  }
  const Json& records = reader.array("records");
  for (std::size_t i = 0; i < records.size(); ++i) {
    manifest.records.push_back(entry_from(records[i], manifest.manifest_schema_version, source,
                                          "records[" + std::to_string(i) + "]"));
  }
  reader.reject_unknown_keys();
  if (fingerprint(content_json(manifest)) != manifest.manifest_sha256) {
    throw Error(ExitCode::kDataError,
                source +
                    ": manifest_sha256 does not match the manifest's content: the file was "
                    "changed after 'perfgate baseline prepare'. Run prepare again and review "
                    "the new manifest");
  }
  return manifest;
}

BaselineManifest load_baseline_manifest(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kNoInput,
                name + ": no such manifest. Write one with 'perfgate baseline prepare'");
  }
  Json json;
  try {
    json = Json::parse(in);
  } catch (const Json::exception& error) {
    // parse_error, and out_of_range for a number beyond a double (1e400), found by fuzzing.
    throw Error(ExitCode::kDataError, name + ": not valid JSON (" + error.what() +
                                          "). Run 'perfgate baseline prepare' again");
  }
  return manifest_from_json(json, name);
}

}  // namespace perfgate
