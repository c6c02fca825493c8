#include "history/history_attempt.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "config/error_list.hpp"
#include "history/attempt_fast_reader.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"
#include "model/json_reader.hpp"
#include "model/metric.hpp"

namespace perfgate::history {
namespace {

Json case_to_json(const MeasuredCase& c) {
  Json metrics = Json::object();
  for (const auto& [name, m] : c.metrics) {
    metrics[name] = {{"unit", m.unit}, {"median", m.median}, {"mad", m.mad},
                     {"min", m.min},   {"max", m.max},       {"count", m.count}};
  }
  return {{"name", c.name},           {"config", c.config},
          {"source_id", c.source_id}, {"repetitions", c.repetitions},
          {"threads", c.threads},     {"metrics", metrics}};
}

/// A finite, non-negative number.
double measurement(JsonObjectReader& reader, const std::string& key) {
  const double value = reader.number(key);
  if (!std::isfinite(value) || value < 0) {
    reader.fail(reader.path_of(key), "must be a finite number of at least 0",
                "Re-measure the commit; a measurement cannot be negative or infinite");
  }
  return value;
}

// CPU time is counted in the kernel's ticks: a short run may well show none, so only its
// wall time and the timings a program reports must be above zero.
CaseMetric read_metric(const Json& json, const std::string& source, const std::string& path,
                       const std::string& name, int repetitions) {
  JsonObjectReader reader(json, source, path);
  CaseMetric metric;
  metric.unit = reader.string("unit");
  metric.median = measurement(reader, "median");
  metric.mad = measurement(reader, "mad");
  metric.min = measurement(reader, "min");
  metric.max = measurement(reader, "max");
  metric.count = static_cast<int>(reader.integer("count"));
  if (is_time_unit(metric.unit) && metric.median == 0 && name != "cpu_time") {
    reader.fail(reader.path_of("median"), "a time's median is zero",
                "A run cannot take no time: the measurement is broken; re-measure the commit");
  }
  // A count (instructions, ...) has a sample per counted run, not per repetition.
  if (count_metric(name) ? metric.count < 1 : metric.count != repetitions) {
    reader.fail(reader.path_of("count"),
                std::to_string(metric.count) + " samples for " +
                    (count_metric(name) ? std::string("a count of work (at least 1)")
                                        : std::to_string(repetitions) + " repetitions"),
                "Every repetition (every counted run, for a count) gives one sample; "
                "re-measure the commit");
  }
  if (metric.min > metric.median || metric.median > metric.max) {
    reader.fail(path, "median outside min..max",
                "The summary is inconsistent; re-measure the commit");
  }
  return metric;
}

MeasuredCase read_case(const Json& json, const std::string& source, const std::string& path) {
  JsonObjectReader reader(json, source, path);
  MeasuredCase measured;
  measured.name = reader.string("name");
  if (measured.name.empty()) reader.fail(reader.path_of("name"), "is empty", "Name the case");
  measured.config = reader.string("config");
  measured.source_id = reader.string("source_id");
  measured.repetitions = static_cast<int>(reader.integer("repetitions"));
  if (measured.repetitions < 1) {
    reader.fail(reader.path_of("repetitions"), "must be at least 1", "Re-measure the commit");
  }
  measured.threads = static_cast<int>(reader.integer("threads"));
  if (measured.threads < 1) {
    reader.fail(reader.path_of("threads"), "must be at least 1", "Re-measure the commit");
  }
  const Json& metrics = reader.object("metrics");
  if (metrics.empty()) {
    reader.fail(reader.path_of("metrics"), "is empty", "A measured case has at least one metric");
  }
  for (const auto& [name, metric] : metrics.items()) {
    measured.metrics[name] = read_metric(metric, source, reader.path_of("metrics") + "." + name,
                                         name, measured.repetitions);
  }
  return measured;
}

std::string checked_instant(JsonObjectReader& reader, const std::string& key) {
  const std::string text = reader.string(key);
  const auto utc = normalize_utc_timestamp(text);
  if (!utc) {
    reader.fail(reader.path_of(key), "'" + text + "' is not an ISO 8601 date and time",
                "Write it as 2026-05-08T13:00:00Z");
  }
  return *utc;
}

}  // namespace

bool is_full_sha(std::string_view text) {
  if (text.size() != 40) return false;
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

bool is_time_unit(std::string_view unit) {
  return unit == "s" || unit == "ms" || unit == "us" || unit == "µs" || unit == "ns";
}

std::string AttemptIdentity::text() const {
  return sha + "-" + run + "-" + std::to_string(attempt);
}

bool valid_run_id(std::string_view run) {
  if (run.empty() || run.size() > 100) return false;
  for (const char c : run) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::optional<AttemptIdentity> parse_attempt_identity(std::string_view text) {
  if (text.size() < 44 || text[40] != '-') return std::nullopt;
  const auto last = text.rfind('-');
  if (last <= 41 || last + 1 >= text.size()) return std::nullopt;
  AttemptIdentity identity;
  identity.sha = std::string(text.substr(0, 40));
  identity.run = std::string(text.substr(41, last - 41));
  const std::string_view number = text.substr(last + 1);
  if (!is_full_sha(identity.sha) || !valid_run_id(identity.run) || number.size() > 9 ||
      number.front() == '0') {
    return std::nullopt;
  }
  int value = 0;
  for (const char c : number) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  identity.attempt = value;
  return identity;
}

Json to_json(const HistoryAttempt& attempt) {
  Json json = attempt.unknown_fields.is_object() ? attempt.unknown_fields : Json::object();
  Json errors = Json::array();
  for (const AttemptError& error : attempt.errors) {
    errors.push_back({{"stage", error.stage}, {"message", error.message}});
  }
  Json cases = Json::array();
  for (const MeasuredCase& c : attempt.cases) cases.push_back(case_to_json(c));
  json["schema_version"] = kHistorySchemaVersion;
  json["kind"] = "perfgate-history-attempt";
  json["sha"] = attempt.identity.sha;
  json["run"] = attempt.identity.run;
  json["attempt"] = attempt.identity.attempt;
  json["harness_sha"] = attempt.harness_sha;
  json["harness_version"] = attempt.harness_version;
  json["benchmark_sources"] = attempt.benchmark_sources;
  json["started_at"] = attempt.started_at;
  json["finished_at"] = attempt.finished_at;
  json["label"] = attempt.label;
  json["environment"] = attempt.environment;
  json["configuration"] = attempt.configuration;
  json["status"] = attempt.success ? "success" : "failure";
  json["errors"] = errors;
  json["missing_cases"] = attempt.missing_cases;
  json["cases"] = cases;
  json["raw_path"] = attempt.raw_path;
  return json;
}

HistoryAttempt read_attempt(const std::string& text, const std::string& source) {
  if (std::optional<HistoryAttempt> valid = read_valid_attempt_fast(text)) return std::move(*valid);
  return read_attempt_strict(text, source);
}

HistoryAttempt read_attempt_strict(const std::string& text, const std::string& source) {
  const Json json = parse_history_object(text, source,
                                         "The attempt file is damaged; restore it from the "
                                         "archive's history or re-measure the commit");
  JsonObjectReader reader(json, source, "");
  HistoryAttempt attempt;
  ErrorList errors;
  errors.check(
      [&] { check_history_schema(reader, "a newer perfgate wrote it, so upgrade perfgate"); });
  errors.check([&] {
    attempt.identity.sha = reader.string("sha");
    if (!is_full_sha(attempt.identity.sha)) {
      reader.fail("sha", "'" + attempt.identity.sha + "' is not a full commit SHA",
                  "Use the 40 hex digits of the commit");
    }
  });
  errors.check([&] {
    attempt.identity.run = reader.string("run");
    if (!valid_run_id(attempt.identity.run)) {
      reader.fail("run", "'" + attempt.identity.run + "' is not a run id",
                  "Use letters, digits, '.', '_' and '-' only");
    }
  });
  errors.check([&] {
    const long long number = reader.integer("attempt");
    if (number < 1 || number > 999999999) {
      reader.fail("attempt", "must be a number from 1", "Number attempts 1, 2, 3, ...");
    }
    attempt.identity.attempt = static_cast<int>(number);
  });
  errors.check([&] { attempt.harness_sha = reader.string("harness_sha"); });
  errors.check([&] {
    const long long version = reader.integer("harness_version");
    if (version < 1 || version > 1000000) {
      reader.fail("harness_version", "must be a number from 1", "Copy [history] harness_version");
    }
    attempt.harness_version = static_cast<int>(version);
  });
  errors.check([&] {
    const Json& sources = reader.object("benchmark_sources");
    for (const auto& [path, id] : sources.items()) {
      if (!id.is_string()) {
        reader.fail("benchmark_sources." + path, "must be a string", "Use the git object id");
      }
      attempt.benchmark_sources[path] = id.get<std::string>();
    }
  });
  errors.check([&] { attempt.started_at = checked_instant(reader, "started_at"); });
  errors.check([&] { attempt.finished_at = checked_instant(reader, "finished_at"); });
  errors.check([&] {
    attempt.label = reader.string("label");
    if (attempt.label != "stable" && attempt.label != "diagnostic") {
      reader.fail("label", "'" + attempt.label + "' is neither stable nor diagnostic",
                  "Use \"stable\" or \"diagnostic\"");
    }
  });
  errors.check([&] { attempt.environment = reader.object("environment"); });
  errors.check([&] { attempt.configuration = reader.object("configuration"); });
  errors.check([&] {
    const std::string status = reader.string("status");
    if (status != "success" && status != "failure") {
      reader.fail("status", "'" + status + "' is neither success nor failure",
                  "Use \"success\" or \"failure\"");
    }
    attempt.success = status == "success";
  });
  errors.check([&] {
    const Json& list = reader.array("errors");
    for (std::size_t i = 0; i < list.size(); ++i) {
      JsonObjectReader item(list[i], source, "errors[" + std::to_string(i) + "]");
      attempt.errors.push_back({item.string("stage"), item.string("message")});
    }
  });
  errors.check([&] {
    const Json& list = reader.array("missing_cases");
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) {
        reader.fail("missing_cases[" + std::to_string(i) + "]", "must be a string",
                    "List the names of the cases that gave no measurement");
      }
      attempt.missing_cases.push_back(list[i].get<std::string>());
    }
  });
  errors.check([&] {
    const Json& list = reader.array("cases");
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "cases[" + std::to_string(i) + "]";
      errors.check([&] {
        MeasuredCase measured = read_case(list[i], source, path);
        if (!names.insert(measured.name).second) {
          reader.fail(path + ".name", "'" + measured.name + "' is measured twice",
                      "Each case appears once in an attempt");
        }
        attempt.cases.push_back(std::move(measured));
      });
    }
  });
  errors.check([&] {
    attempt.raw_path = reader.string("raw_path");
    const std::string expected = "raw/" + attempt.identity.text() + "/";
    if (attempt.raw_path != expected) {
      reader.fail("raw_path", "'" + attempt.raw_path + "' is not this attempt's raw folder",
                  "It is \"" + expected + "\"");
    }
  });
  errors.check([&] {
    const auto kind = reader.optional_string("kind");
    if (kind && *kind != "perfgate-history-attempt") {
      reader.fail("kind", "'" + *kind + "' is not a history attempt",
                  "An attempt file says \"perfgate-history-attempt\"");
    }
    if (attempt.success && !attempt.errors.empty()) {
      reader.fail("status", "a success that lists errors", "A failure's status is \"failure\"");
    }
    if (attempt.success && attempt.cases.empty()) {
      reader.fail("cases", "a success without a measured case",
                  "Record it as a failure with the reason");
    }
    if (attempt.success && !attempt.missing_cases.empty()) {
      reader.fail("missing_cases", "a success with missing cases",
                  "A missing case makes the attempt a failure");
    }
    if (!attempt.success && attempt.errors.empty()) {
      reader.fail("errors", "a failure without an error", "Say why the attempt failed");
    }
  });
  errors.throw_if_any();
  for (const auto& [key, value] : json.items()) {
    if (std::find(kAttemptFields.begin(), kAttemptFields.end(), key) == kAttemptFields.end()) {
      attempt.unknown_fields[key] = value;
    }
  }
  return attempt;
}

}  // namespace perfgate::history
