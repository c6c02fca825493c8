#include "history/series_identity.hpp"

#include "model/fingerprint.hpp"

namespace perfgate::history {

Json identity_configuration(const Json& configuration) {
  if (!configuration.is_object()) return configuration;
  Json identity = configuration;
  for (const std::string_view key : kLimitKeys) identity.erase(std::string(key));
  return identity;
}

std::string setup_id(const Json& configuration, int harness_version) {
  const Json setup = {{"configuration", identity_configuration(configuration)},
                      {"harness_version", harness_version}};
  return fingerprint(setup).substr(0, 16);
}

std::string setup_id(const HistoryAttempt& attempt) {
  return setup_id(attempt.configuration, attempt.harness_version);
}

std::string environment_id(const HistoryAttempt& attempt) {
  const auto id = attempt.environment.find("id");
  return id != attempt.environment.end() && id->is_string() ? id->get<std::string>() : "";
}

std::string series_attempt_part(const HistoryAttempt& attempt) {
  const Json part = {{"benchmark_sources", attempt.benchmark_sources},
                     {"configuration", identity_configuration(attempt.configuration)},
                     {"environment", attempt.environment},
                     {"harness_version", attempt.harness_version},
                     {"label", attempt.label}};
  return fingerprint(part);
}

std::string series_id(std::string_view attempt_part, const MeasuredCase& measured,
                      const std::string& metric) {
  const Json key = {{"attempt_part", attempt_part},
                    {"case", measured.name},
                    {"metric", metric},
                    {"repetitions", measured.repetitions},
                    {"source_id", measured.source_id},
                    {"threads", measured.threads},
                    {"unit", measured.metrics.at(metric).unit}};
  return "s-" + fingerprint(key).substr(0, 16);
}

std::string series_id(const HistoryAttempt& attempt, const MeasuredCase& measured,
                      const std::string& metric) {
  return series_id(series_attempt_part(attempt), measured, metric);
}

}  // namespace perfgate::history
