#include "ab/ab_results.hpp"

#include <string.h>

#include <cmath>

namespace perfgate {
namespace {

Json rules_json(const VerdictRules& rules) {
  Json budgets = Json::object();
  for (const AbMetric metric : kAbMetrics) {
    budgets[std::string(metric_key(metric))] = {{"relative", rules.budgets[metric].relative},
                                                {"absolute", rules.budgets[metric].absolute},
                                                {"unit", metric_unit(metric)}};
  }
  Json out = {{"budgets", budgets}, {"noise_limit", rules.noise_limit}};
  out["method"] = rules.method == AbMethod::kStat ? "stat" : "pairs";
  if (rules.method == AbMethod::kStat) {
    out["alpha"] = rules.alpha;
    out["max_pairs"] = rules.max_pairs;
  }
  return out;
}

Json sample_json(const AbRunSample& run) {
  return {{"side", side_name(run.side)},
          {"pair", run.pair},
          {"warmup", run.warmup()},
          {"sequence", run.sequence},
          {"duration_s", run.duration_s},
          {"cpu_s", run.cpu_s},
          {"rss_bytes", run.rss_bytes},
          {"outcome", run.outcome},
          {"failed_checks", run.failed_checks},
          {"log", run.log_path}};
}

Json noise_json(const SideNoise& noise) {
  Json out = {{"median", noise.median}, {"range", noise.range}, {"noisy", noise.noisy}};
  out["discarded_pair"] = noise.discarded ? Json(*noise.discarded + 1) : Json(nullptr);
  return out;
}

Json evidence_json(const MetricEvidence& evidence) {
  Json out = {{"pair_over_budget", evidence.pair_over_budget},
              {"pairs_over_budget", evidence.pairs_over_budget},
              {"base_median", evidence.base_median},
              {"head_median", evidence.head_median},
              {"median_over_budget", evidence.median_over_budget},
              {"base_noise", noise_json(evidence.base_noise)},
              {"head_noise", noise_json(evidence.head_noise)}};
  if (evidence.change) {
    // Infinite bounds (too few pairs for a bounded interval) are written as null.
    const auto bound = [](double value) { return std::isfinite(value) ? Json(value) : Json(); };
    out["change"] = {{"estimate", evidence.change->estimate},
                     {"lower", bound(evidence.change->lower)},
                     {"upper", bound(evidence.change->upper)},
                     {"budget", evidence.change->threshold}};
  }
  return out;
}

Json counts_json(const AbCounts& counts) {
  Json runs = Json::array();
  for (const auto& run : counts.runs) {
    runs.push_back({{"side", side_name(run.side)},
                    {"round", run.round},
                    {"counts", run.counts},
                    {"outcome", run.outcome},
                    {"log", run.log_path}});
  }
  Json out = {
      {"backend", counts.backend},
      {"counter", counts.counter},
      {"budget", {{"relative", counts.budget.relative}, {"absolute", counts.budget.absolute}}},
      {"runs", runs},
      {"verdict", nullptr}};
  if (counts.verdict) {
    const CountVerdict& v = *counts.verdict;
    const auto bound = [](double value) { return std::isfinite(value) ? Json(value) : Json(); };
    out["verdict"] = {{"kind", verdict_name(v.kind)}, {"deterministic", v.deterministic},
                      {"rounds", v.rounds},           {"base_mean", v.base_mean},
                      {"head_mean", v.head_mean},     {"base_spread", v.base_spread},
                      {"head_spread", v.head_spread}, {"change", v.change},
                      {"lower", bound(v.lower)},      {"upper", bound(v.upper)},
                      {"threshold", v.threshold},     {"reasons", v.reasons}};
  }
  return out;
}

Json scenario_json(const AbScenarioResult& scenario) {
  Json out = {{"name", scenario.name},
              {"status", status_name(scenario.status())},
              {"rules", rules_json(scenario.rules)},
              {"argv", {{"base", scenario.argv[0]}, {"head", scenario.argv[1]}}}};
  Json runs = Json::array();
  for (const auto& run : scenario.runs) runs.push_back(sample_json(run));
  out["runs"] = runs;
  if (scenario.verdict) {
    Json metrics = Json::object();
    for (const auto& evidence : scenario.verdict->metrics) {
      metrics[std::string(metric_key(evidence.metric))] = evidence_json(evidence);
    }
    out["metrics"] = metrics;
    out["reasons"] = scenario.verdict->reasons;
    out["pairs_judged"] = scenario.verdict->metrics.empty()
                              ? 0
                              : scenario.verdict->metrics.front().pair_over_budget.size();
  }
  out["error"] = scenario.error.empty() ? Json(nullptr) : Json(scenario.error);
  out["timeout"] = {{"seconds", scenario.timeout_s ? Json(*scenario.timeout_s) : Json(nullptr)},
                    {"source", scenario.timeout_source}};
  out["warnings"] = scenario.warnings;
  out["timed"] = scenario.timed;
  out["counts"] = scenario.counts ? counts_json(*scenario.counts) : Json(nullptr);
  if (scenario.profile) {
    out["profile"] = {{"tool", scenario.profile->tool},
                      {"path", scenario.profile->path},
                      {"note", scenario.profile->note}};
  } else {
    out["profile"] = nullptr;
  }
  return out;
}

}  // namespace

double AbRunSample::value(AbMetric metric) const {
  switch (metric) {
    case AbMetric::kDuration:
      return duration_s;
    case AbMetric::kCpu:
      return cpu_s;
    case AbMetric::kRss:
      return rss_bytes;
  }
  return 0;
}

std::string_view status_name(ScenarioStatus status) {
  switch (status) {
    case ScenarioStatus::kRunning:
      return "RUNNING";
    case ScenarioStatus::kPass:
      return "PASS";
    case ScenarioStatus::kRegression:
      return "REGRESSION";
    case ScenarioStatus::kInconclusive:
      return "INCONCLUSIVE";
    case ScenarioStatus::kError:
      return "ERROR";
    case ScenarioStatus::kInterrupted:
      return "INTERRUPTED";
    case ScenarioStatus::kNotRun:
      return "NOT RUN";
  }
  return "UNKNOWN";
}

ScenarioStatus AbScenarioResult::status() const {
  if (!error.empty()) return ScenarioStatus::kError;
  if (interrupted) return started() ? ScenarioStatus::kInterrupted : ScenarioStatus::kNotRun;
  if (!finished || !verdict) return ScenarioStatus::kRunning;
  switch (verdict->kind) {
    case VerdictKind::kPass:
      return ScenarioStatus::kPass;
    case VerdictKind::kRegression:
      return ScenarioStatus::kRegression;
    case VerdictKind::kInconclusive:
    case VerdictKind::kNeedsConfirmation:
      break;
  }
  return ScenarioStatus::kInconclusive;
}

std::vector<double> AbCounts::instructions(AbSide side) const {
  std::vector<double> out;
  for (const auto& run : runs) {
    if (run.side != side) continue;
    const auto it = run.counts.find("instructions");
    out.push_back(it == run.counts.end() ? 0 : it->second);
  }
  return out;
}

PairedRuns AbScenarioResult::measured() const {
  PairedRuns paired;
  for (const auto& run : runs) {
    if (run.warmup()) continue;
    for (const AbMetric metric : kAbMetrics) {
      PairedSamples& samples = paired[metric];
      auto& side = run.side == AbSide::kBase ? samples.base : samples.head;
      if (side.size() < run.pair) side.resize(run.pair);
      side[run.pair - 1] = run.value(metric);
    }
  }
  return paired;
}

int ab_exit_code(const std::vector<ScenarioStatus>& statuses) {
  bool inconclusive = false;
  for (const ScenarioStatus status : statuses) {
    if (status != ScenarioStatus::kPass && status != ScenarioStatus::kInconclusive) {
      return 1;
    }
    if (status == ScenarioStatus::kInconclusive) inconclusive = true;
  }
  return inconclusive ? 2 : 0;
}

int AbReport::exit_code() const {
  std::vector<ScenarioStatus> statuses;
  for (const auto& scenario : scenarios) statuses.push_back(scenario.status());
  return ab_exit_code(statuses);
}

Json to_json(const AbReport& report) {
  Json scenarios = Json::array();
  for (const auto& scenario : report.scenarios) scenarios.push_back(scenario_json(scenario));
  Json out = {{"schema_version", kAbResultsSchemaVersion},
              {"complete", report.complete},
              {"machine", report.machine},
              {"method", report.method},
              {"scenarios", scenarios}};
  if (!report.scenario_file.empty()) {
    out["scenario_file"] = {{"path", report.scenario_file},
                            {"sha256", report.scenario_file_sha256}};
  } else {
    out["scenario_file"] = nullptr;
  }
  if (report.complete) out["verdict_exit_code"] = report.exit_code();
  if (report.interrupted_signal != 0) {
    const char* name = sigabbrev_np(report.interrupted_signal);
    out["interrupted"] = {{"signal", name == nullptr ? std::to_string(report.interrupted_signal)
                                                     : std::string("SIG") + name},
                          {"reason", report.interrupted_reason}};
  } else {
    out["interrupted"] = nullptr;
  }
  out["git"] = report.git;
  if (!report.scenario_file.empty()) out["scenario_file"]["copy"] = report.scenario_file_copy;
  return out;
}

}  // namespace perfgate
