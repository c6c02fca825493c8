#include "history/attempt_fast_reader.hpp"

#include <simdjson.h>

#include <climits>
#include <cmath>
#include <set>

#include "model/fast_fields.hpp"
#include "model/fast_json.hpp"
#include "model/instant.hpp"
#include "model/metric.hpp"

namespace perfgate::history {
namespace {

using namespace fast_fields;

/// An integer from `low` to `high`. simdjson types every integer that fits int64 as INT64,
/// so UINT64 is beyond what the strict reader accepts.
int integer_of(element value, long long low, long long high) {
  require(value.type() == element_type::INT64);
  const std::int64_t number = std::int64_t(value);
  require(number >= low && number <= high);
  return static_cast<int>(number);
}

/// A finite number of at least 0, integer or not.
double measurement_of(element value) {
  double number = 0;
  switch (value.type()) {
    case element_type::INT64:
      number = static_cast<double>(std::int64_t(value));
      break;
    case element_type::UINT64:
      number = static_cast<double>(std::uint64_t(value));
      break;
    case element_type::DOUBLE:
      number = double(value);
      break;
    default:
      give_up();
  }
  require(std::isfinite(number) && number >= 0);
  return number;
}

CaseMetric metric_of(element value, std::string_view name, int repetitions) {
  const auto f = fields_of(object_of(value), std::array<std::string_view, 6>{
                                                 "unit", "median", "mad", "min", "max", "count"});
  CaseMetric metric;
  metric.unit = std::string(text_of(f[0]));
  metric.median = measurement_of(f[1]);
  metric.mad = measurement_of(f[2]);
  metric.min = measurement_of(f[3]);
  metric.max = measurement_of(f[4]);
  metric.count = integer_of(f[5], INT_MIN, INT_MAX);
  require(!(is_time_unit(metric.unit) && metric.median == 0 && name != "cpu_time"));
  require(count_metric(name) ? metric.count >= 1 : metric.count == repetitions);
  require(metric.min <= metric.median && metric.median <= metric.max);
  return metric;
}

MeasuredCase case_of(element value) {
  const auto f = fields_of(object_of(value),
                           std::array<std::string_view, 6>{"name", "config", "source_id",
                                                           "repetitions", "threads", "metrics"});
  MeasuredCase measured;
  measured.name = std::string(text_of(f[0]));
  require(!measured.name.empty());
  measured.config = std::string(text_of(f[1]));
  measured.source_id = std::string(text_of(f[2]));
  measured.repetitions = integer_of(f[3], 1, INT_MAX);
  measured.threads = integer_of(f[4], 1, INT_MAX);
  for (const auto metric : object_of(f[5])) {
    // A metric named twice: nlohmann keeps the last, which this map does too.
    measured.metrics[std::string(metric.key)] =
        metric_of(metric.value, metric.key, measured.repetitions);
  }
  require(!measured.metrics.empty());
  return measured;
}

std::string instant_of(element value) {
  const auto utc = normalize_utc_timestamp(text_of(value));
  require(utc.has_value());
  return *utc;
}

consteval std::size_t field(std::string_view name) {
  return index_of(kAttemptFields, name);
}

HistoryAttempt attempt_of(simdjson::dom::object root) {
  Fields<kAttemptFields.size()> f{kAttemptFields};
  HistoryAttempt attempt;
  for (const auto member : root) {
    if (!f.take(member.key, member.value)) {
      attempt.unknown_fields[std::string(member.key)] = json_of(member.value);
    }
  }
  integer_of(f[field("schema_version")], 1, kHistorySchemaVersion);
  if (f.has(field("kind")) && f[field("kind")].type() != element_type::NULL_VALUE) {
    require(text_of(f[field("kind")]) == "perfgate-history-attempt");
  }
  attempt.identity.sha = std::string(text_of(f[field("sha")]));
  require(is_full_sha(attempt.identity.sha));
  attempt.identity.run = std::string(text_of(f[field("run")]));
  require(valid_run_id(attempt.identity.run));
  attempt.identity.attempt = integer_of(f[field("attempt")], 1, 999999999);
  attempt.harness_sha = std::string(text_of(f[field("harness_sha")]));
  attempt.harness_version = integer_of(f[field("harness_version")], 1, 1000000);
  for (const auto source : object_of(f[field("benchmark_sources")])) {
    attempt.benchmark_sources[std::string(source.key)] = std::string(text_of(source.value));
  }
  attempt.started_at = instant_of(f[field("started_at")]);
  attempt.finished_at = instant_of(f[field("finished_at")]);
  attempt.label = std::string(text_of(f[field("label")]));
  require(attempt.label == "stable" || attempt.label == "diagnostic");
  object_of(f[field("environment")]);
  attempt.environment = json_of(f[field("environment")]);
  object_of(f[field("configuration")]);
  attempt.configuration = json_of(f[field("configuration")]);
  const std::string_view status = text_of(f[field("status")]);
  require(status == "success" || status == "failure");
  attempt.success = status == "success";
  for (const element error : array_of(f[field("errors")])) {
    const auto e = fields_of(object_of(error), std::array<std::string_view, 2>{"stage", "message"});
    attempt.errors.push_back({std::string(text_of(e[0])), std::string(text_of(e[1]))});
  }
  for (const element name : array_of(f[field("missing_cases")])) {
    attempt.missing_cases.emplace_back(text_of(name));
  }
  std::set<std::string> names;
  for (const element measured : array_of(f[field("cases")])) {
    attempt.cases.push_back(case_of(measured));
    require(names.insert(attempt.cases.back().name).second);
  }
  attempt.raw_path = std::string(text_of(f[field("raw_path")]));
  require(attempt.raw_path == "raw/" + attempt.identity.text() + "/");
  require(!(attempt.success && !attempt.errors.empty()));
  require(!(attempt.success && attempt.cases.empty()));
  require(!(attempt.success && !attempt.missing_cases.empty()));
  require(!(!attempt.success && attempt.errors.empty()));
  return attempt;
}

}  // namespace

std::optional<HistoryAttempt> read_valid_attempt_fast(std::string_view text) {
  // One parser per thread: it keeps its buffers between documents.
  thread_local simdjson::dom::parser parser;
  element root;
  if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  if (root.type() != element_type::OBJECT) return std::nullopt;
  try {
    return attempt_of(simdjson::dom::object(root));
  } catch (const NotTheHappyPath&) {
    return std::nullopt;
  }
}

}  // namespace perfgate::history
