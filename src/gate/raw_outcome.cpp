#include "gate/raw_outcome.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <string>
#include <vector>
#include "report/units.hpp"

namespace perfgate {
namespace {

const Json* member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string text_member(const Json& object, const char* key) {
  const Json* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

double number_member(const Json& object, const char* key) {
  const Json* value = member(object, key);
  return value && value->is_number() ? value->get<double>() : 0.0;
}

// "latency mean 2.1 s > 2 s" for one breached check; the unit comes from the metric.
std::string describe_breach(const Json& raw, const Json& check) {
  const std::string metric = text_member(check, "metric");
  const Json* metrics = member(raw, "metrics");
  const Json* series = metrics ? member(*metrics, metric.c_str()) : nullptr;
  const std::string unit = series ? text_member(*series, "unit") : std::string();
  const double value = number_member(check, "value");
  const double limit = number_member(check, "limit");
  // The table's units: "latency mean 567 ns > 500 ns", not "5.67e-07 s > 5e-07 s".
  const DisplayUnit display =
      choose_display_unit(std::max(std::fabs(value), std::fabs(limit)), unit);
  return fmt::format("{} {} {} {} {}", metric, text_member(check, "statistic"),
                     format_in(value, display), text_member(check, "kind") == "min" ? "<" : ">",
                     format_in(limit, display));
}

}  // namespace

bool raw_record_breached_static_threshold(const Json& raw) {
  const Json* verdict = member(raw, "static_thresholds");
  const Json* status = verdict ? member(*verdict, "status") : nullptr;
  return status && status->is_string() && status->get<std::string>() == "REGRESSION";
}

ClassificationInputs raw_record_outcome(const Json& raw) {
  ClassificationInputs outcome;
  const Json* success = member(raw, "success");
  outcome.run_succeeded = !(success && success->is_boolean() && !success->get<bool>());
  if (!outcome.run_succeeded) {
    const Json* reason = member(raw, "failure_reason");
    outcome.run_failure = reason && reason->is_string() ? reason->get<std::string>()
                                                        : "no failure reason was recorded";
  }
  outcome.static_breach = raw_record_breached_static_threshold(raw);
  if (!outcome.static_breach) return outcome;

  std::vector<std::string> breaches;
  const Json* verdict = member(raw, "static_thresholds");
  const Json* checks = verdict ? member(*verdict, "checks") : nullptr;
  for (const Json& check : checks && checks->is_array() ? *checks : Json::array()) {
    const Json* breached = member(check, "breached");
    if (breached && breached->is_boolean() && breached->get<bool>() &&
        !text_member(check, "metric").empty()) {
      breaches.push_back(describe_breach(raw, check));
    }
  }
  // A verdict that lists no usable breached check still says where the breach was read.
  outcome.static_breach_detail = breaches.empty() ? "static_thresholds.status is REGRESSION"
                                                  : fmt::format("{}", fmt::join(breaches, "; "));
  return outcome;
}

}  // namespace perfgate
