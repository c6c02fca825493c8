#include "history/series_identity.hpp"

#include "model/fingerprint.hpp"

namespace perfgate::history {

std::string series_attempt_part(const HistoryAttempt& attempt) {
  const Json part = {{"benchmark_sources", attempt.benchmark_sources},
                     {"configuration", attempt.configuration},
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
