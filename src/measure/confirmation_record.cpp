#include "measure/confirmation_record.hpp"

#include <fmt/format.h>

#include "model/error.hpp"
#include "stats/summary.hpp"

namespace perfgate {
namespace {

std::vector<double> numbers(const Json& array) {
  std::vector<double> out;
  if (!array.is_array()) return out;
  for (const Json& value : array) {
    if (value.is_number()) out.push_back(value.get<double>());
  }
  return out;
}

int integer_member(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int>() : 0;
}

}  // namespace

Json merge_confirmation(const ConfirmationSubject& subject, const RawRecord& confirmation) {
  if (!confirmation.success) {
    throw Error(ExitCode::kDataError,
                "the confirmation runs failed: " + confirmation.failure_reason);
  }
  Json merged = subject.raw;
  Json& metrics = merged["metrics"];
  Json first_samples = Json::object();  // where each metric's confirmation samples begin
  for (auto& [name, metric] : metrics.items()) {
    std::vector<double> samples = numbers(metric["samples"]);
    if (samples.empty()) continue;  // unmeasured in the first record: stays unmeasured
    const auto added = confirmation.metrics.find(name);
    if (added == confirmation.metrics.end() || added->second.samples.empty()) {
      throw Error(ExitCode::kDataError,
                  fmt::format("the confirmation runs did not measure {}, which the first runs "
                              "did; the first verdict stands",
                              name));
    }
    first_samples[name] = samples.size();
    samples.insert(samples.end(), added->second.samples.begin(), added->second.samples.end());
    metric["samples"] = samples;
    metric["summary"] = summary_json(summarize(samples));
  }

  // The runs keep their order: the confirmation's are numbered after the first record's.
  Json& runs = merged["runs"];
  if (!runs.is_array()) runs = Json::array();
  const int first_runs = static_cast<int>(runs.size());
  const Json added_runs = to_json(confirmation)["runs"];
  for (Json run : added_runs) {
    run["index"] = first_runs + run["index"].get<int>();
    runs.push_back(std::move(run));
  }
  const int runs_before = integer_member(subject.raw, "num_measurement_runs");
  merged["num_measurement_runs"] = runs_before + confirmation.num_measurement_runs;
  Json& warnings = merged["warnings"];
  if (!warnings.is_array()) warnings = Json::array();
  for (const std::string& warning : confirmation.warnings)
    warnings.push_back("confirmation: " + warning);

  Json evidence = Json::array();
  for (const FirstEvidence& item : subject.evidence)
    evidence.push_back({{"metric", item.metric}, {"change", item.change}});
  Json& quality = merged["quality_metadata"];
  if (!quality.is_object()) quality = Json::object();
  quality["confirmation"] = {
      {"raw_record", subject.path},
      {"raw_record_sha256", subject.sha256},
      {"runs_before", runs_before},
      {"runs_added", confirmation.num_measurement_runs},
      {"first_samples", first_samples},
      {"measured_at", confirmation.provenance.timestamp},
      {"first_status", subject.first_status},
      {"first_evidence", evidence},
      {"machine_state", confirmation.machine_state},
  };
  return merged;
}

std::string confirmed_raw_sha256(const Json& raw) {
  if (!raw.is_object()) return "";
  const auto quality = raw.find("quality_metadata");
  if (quality == raw.end() || !quality->is_object()) return "";
  const auto confirmation = quality->find("confirmation");
  if (confirmation == quality->end() || !confirmation->is_object()) return "";
  const auto sha = confirmation->find("raw_record_sha256");
  return sha != confirmation->end() && sha->is_string() ? sha->get<std::string>() : "";
}

}  // namespace perfgate
