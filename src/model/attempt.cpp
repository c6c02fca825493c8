#include "model/attempt.hpp"

#include "model/fingerprint.hpp"
#include "model/json_reader.hpp"

namespace perfgate {

Json attempt_header_json(const Attempt& attempt) {
  return {{"attempt_schema_version", attempt.attempt_schema_version},
          {"attempt_id", attempt.attempt_id},
          {"created_at", attempt.created_at},
          {"commit_sha", attempt.commit_sha},
          {"run_source", attempt.run_source},
          {"success", attempt.success},
          {"errors", attempt.errors}};
}

Json to_json(const Attempt& attempt) {
  Json json = attempt_header_json(attempt);
  Json& records = json["records"] = Json::array();
  for (const auto& record : attempt.records) records.push_back(to_json(record));
  return json;
}

Attempt attempt_from_json(const Json& json, const std::string& source) {
  JsonObjectReader reader(json, source, "");
  Attempt attempt;
  const long long version = reader.integer("attempt_schema_version");
  if (version != kAttemptSchemaVersion) {
    reader.fail("attempt_schema_version",
                "version " + std::to_string(version) +
                    (version > kAttemptSchemaVersion ? " was written by a newer perfgate"
                                                     : " does not exist"),
                "This perfgate reads attempt version " + std::to_string(kAttemptSchemaVersion) +
                    (version > kAttemptSchemaVersion ? "; upgrade perfgate" : ""));
  }
  attempt.attempt_id = reader.string("attempt_id");
  attempt.created_at = reader.string("created_at");
  attempt.commit_sha = reader.string("commit_sha");
  attempt.run_source = reader.string("run_source");
  attempt.success = reader.boolean("success");
  const Json& errors = reader.array("errors");
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (!errors[i].is_string()) {
      reader.fail("errors[" + std::to_string(i) + "]",
                  "expected a string, found " + json_type_name(errors[i]),
                  "Write each error as a string");
    }
    attempt.errors.push_back(errors[i].get<std::string>());
  }
  const Json& records = reader.array("records");
  for (std::size_t i = 0; i < records.size(); ++i) {
    attempt.records.push_back(
        normalized_record_from_json(records[i], source, "records[" + std::to_string(i) + "]"));
  }
  reader.reject_unknown_keys();
  return attempt;
}

std::string attempt_content_id(const Attempt& attempt) {
  Json record_ids = Json::array();
  for (const auto& record : attempt.records) record_ids.push_back(record.record_id);
  return fingerprint({{"attempt_schema_version", attempt.attempt_schema_version},
                      {"created_at", attempt.created_at},
                      {"commit_sha", attempt.commit_sha},
                      {"run_source", attempt.run_source},
                      {"success", attempt.success},
                      {"errors", attempt.errors},
                      {"record_ids", record_ids}});
}

void assign_attempt_id(Attempt& attempt) {
  for (auto& record : attempt.records) assign_record_id(record);
  attempt.attempt_id = attempt_content_id(attempt);
}

}  // namespace perfgate
