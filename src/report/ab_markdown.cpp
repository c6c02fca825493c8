#include "report/ab_markdown.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

#include "report/count_note.hpp"
#include "report/markdown.hpp"

namespace perfgate {
namespace {

std::string text_of(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end()) return "unknown";
  return found->is_string() ? found->get<std::string>() : found->dump();
}

std::string overall_status(const AbReport& report) {
  if (report.interrupted_signal != 0) return "INTERRUPTED";
  if (!report.complete) return "incomplete";
  // The worst scenario decides, as for the exit code.
  std::string_view worst = "PASS";
  for (const auto& scenario : report.scenarios) {
    const ScenarioStatus status = scenario.status();
    if (status == ScenarioStatus::kError) return "ERROR";
    if (status == ScenarioStatus::kRegression) worst = "REGRESSION";
    if (status == ScenarioStatus::kInconclusive && worst == "PASS") worst = "INCONCLUSIVE";
  }
  return std::string(worst);
}

// With enough digits to differ visibly from the relative budget in the next column.
std::string percent_delta(double base, double head, double budget) {
  if (base == 0) return head == 0 ? "+0.0%" : "n/a";
  const double change = (head - base) / base;
  return (change < 0 ? "-" : "+") + percent_beside(std::abs(change), budget, 1) + "%";
}

std::string signed_value(AbMetric metric, double delta) {
  return (delta < 0 ? "-" : "+") + format_metric_value(metric, delta < 0 ? -delta : delta);
}

void machine_table(const AbReport& report, std::string& out) {
  const Json& hw =
      report.machine.contains("hardware") ? report.machine["hardware"] : Json::object();
  const Json& sw =
      report.machine.contains("software") ? report.machine["software"] : Json::object();
  const Json& method = report.method;
  out += "| Machine and method | |\n|---|---|\n";
  const auto row = [&](const std::string& name, const std::string& value) {
    out += "| " + name + " | " + markdown_cell(value) + " |\n";
  };
  row("CPU", fmt::format("{} ({}, {} logical cores, {} GiB)", text_of(hw, "cpu_model"),
                         text_of(hw, "architecture"), text_of(hw, "logical_cores"),
                         text_of(hw, "memory_gb")));
  row("OS", fmt::format("{}, kernel {}", text_of(sw, "os"), text_of(sw, "kernel")));
  row("Mode", text_of(method, "mode"));
  row("Base", text_of(method, "base"));
  row("Head", text_of(method, "head"));
  row("Suite", text_of(method, "suite"));
  row("Protocol", text_of(method, "protocol"));
  row("Sampler", text_of(method, "sampler"));
  if (method.contains("counts")) row("Counted runs", text_of(method, "counts"));
  row("Scenario file", report.scenario_file.empty() ? "none (one ad-hoc scenario)"
                                                    : report.scenario_file + " (sha256 " +
                                                          report.scenario_file_sha256 + ")");
  for (const char* side : {"base", "head"}) {
    if (!report.git.contains(side)) continue;
    const Json& git = report.git[side];
    const bool dirty = git.value("dirty", Json(false)) == Json(true);
    row(std::string(side == std::string("base") ? "Base" : "Head") + " commit",
        text_of(git, "commit") + (dirty ? " (dirty: tracked files differ from the commit)" : ""));
  }
  row("Complete", report.complete                  ? "yes"
                  : report.interrupted_signal != 0 ? "no: " + report.interrupted_reason
                                                   : "no: still running, or perfgate was killed");
  out += "\n";
}

/// Up to this many pairs the per-pair differences fit in their table cell; more (--method
/// stat runs up to 60 by default) go to a table of their own, a row per pair, below it.
constexpr std::size_t kPairsInCell = 8;

void comparison_table(const AbScenarioResult& scenario, std::string& out) {
  const PairedVerdict& verdict = *scenario.verdict;
  const PairedRuns runs = scenario.measured();
  std::size_t pair_count = 0;
  for (const auto& evidence : verdict.metrics)
    pair_count = std::max(pair_count, evidence.pair_over_budget.size());
  const bool in_cell = pair_count <= kPairsInCell;
  const auto pair_text = [&](const auto& evidence, std::size_t i) {
    const PairedSamples& samples = runs[evidence.metric];
    return fmt::format("{}{}", signed_value(evidence.metric, samples.head[i] - samples.base[i]),
                       evidence.pair_over_budget[i] ? " (over)" : "");
  };
  out +=
      std::string("| Metric | Base median | Head median | Delta | Budget | Pairs over budget |") +
      (in_cell ? " Per pair: head - base |\n|---|---|---|---|---|---|---|\n"
               : "\n|---|---|---|---|---|---|\n");
  for (const auto& evidence : verdict.metrics) {
    std::vector<std::string> pairs;
    for (std::size_t i = 0; i < evidence.pair_over_budget.size(); ++i)
      pairs.push_back(pair_text(evidence, i));
    out += fmt::format(
        "| {} | {} | {} | {} ({}) | {} | {} of {} |", metric_key(evidence.metric),
        format_metric_value(evidence.metric, evidence.base_median),
        format_metric_value(evidence.metric, evidence.head_median),
        signed_value(evidence.metric, evidence.head_median - evidence.base_median),
        percent_delta(evidence.base_median, evidence.head_median, evidence.budget.relative),
        describe_budget(evidence.metric, evidence.budget), evidence.pairs_over_budget,
        evidence.pair_over_budget.size());
    out += in_cell ? " " + markdown_cell(fmt::format("{}", fmt::join(pairs, ", "))) + " |\n" : "\n";
  }
  out += "\n";
  if (in_cell) return;
  // A row per pair, folded away: 60 values in one cell wrap into a column nobody reads.
  out += fmt::format("<details><summary>Per pair: head - base ({} pairs)</summary>\n\n| Pair |",
                     pair_count);
  for (const auto& evidence : verdict.metrics)
    out += " " + std::string(metric_key(evidence.metric)) + " |";
  out += "\n|---:|";
  for (std::size_t m = 0; m < verdict.metrics.size(); ++m) out += "---:|";
  out += "\n";
  for (std::size_t i = 0; i < pair_count; ++i) {
    out += fmt::format("| {} |", i + 1);
    for (const auto& evidence : verdict.metrics) {
      out += " " +
             (i < evidence.pair_over_budget.size() ? markdown_cell(pair_text(evidence, i))
                                                   : std::string()) +
             " |";
    }
    out += "\n";
  }
  out += "\n</details>\n\n";
}

/// The counted rounds (ab --measure instructions): each side's counts and the verdict.
void counts_table(const AbCounts& counts, std::string& out) {
  const auto count_list = [&](AbSide side) {
    std::vector<std::string> values;
    for (const double value : counts.instructions(side))
      values.push_back(fmt::format("{:.0f}", value));
    return fmt::format("{}", fmt::join(values, ", "));
  };
  out += fmt::format("Instructions ({}: {}), counted in runs of their own, never timed:\n\n",
                     counts.backend,
                     counts.backend == "valgrind" ? "callgrind, every process of the run"
                                                  : "hardware counters, user space");
  out += "| Side | Counts by round | Spread |\n|---|---|---|\n";
  if (counts.verdict) {
    out += fmt::format("| base | {} | {:.4f}% |\n| head | {} | {:.4f}% |\n\n",
                       count_list(AbSide::kBase), counts.verdict->base_spread * 100,
                       count_list(AbSide::kHead), counts.verdict->head_spread * 100);
    const CountVerdict& v = *counts.verdict;
    out += fmt::format(
        "Change {:+.3f}% (interval {:+.3f}% to {:+.3f}%), budget +{:g}%: **{}** after {} "
        "round(s){}.\n\n",
        v.change * 100, v.lower * 100, v.upper * 100, v.threshold * 100, verdict_name(v.kind),
        v.rounds,
        v.deterministic ? ", deterministic (one round and its confirmation)"
                        : ", not deterministic: judged as pairs");
  } else {
    out += fmt::format("| base | {} | |\n| head | {} | |\n\n", count_list(AbSide::kBase),
                       count_list(AbSide::kHead));
  }
  out += count_proxy_note() + "\n";
}

/// What a pull request's reader needs first (perfgate comment shows it above the fold):
/// how many scenarios ended how, then each one that did not pass with its first reason,
/// which holds the change and, under --method stat, its interval.
void short_top(const AbReport& report, std::string& out) {
  std::map<std::string_view, std::size_t> counts;
  for (const auto& scenario : report.scenarios) ++counts[status_name(scenario.status())];
  std::vector<std::string> parts;
  for (const auto& [status, count] : counts) parts.push_back(fmt::format("{} {}", count, status));
  out += fmt::format("{} scenario(s): {}.\n\n", report.scenarios.size(), fmt::join(parts, ", "));
  bool listed = false;
  for (const auto& scenario : report.scenarios) {
    const ScenarioStatus status = scenario.status();
    if (status == ScenarioStatus::kPass) continue;
    std::string reason = scenario.error;
    if (reason.empty() && scenario.verdict && !scenario.verdict->reasons.empty())
      reason = scenario.verdict->reasons.front();
    out += fmt::format("- **{}: {}**{}\n", markdown_cell(scenario.name), status_name(status),
                       reason.empty() ? "" : ": " + markdown_cell(reason));
    listed = true;
  }
  if (listed) out += "\n";
}

void scenario_section(const AbScenarioResult& scenario, std::string& out) {
  out += fmt::format("## {}: {}\n\n", markdown_cell(scenario.name), status_name(scenario.status()));
  if (!scenario.error.empty()) out += "- Error: " + markdown_cell(scenario.error) + "\n";
  if (scenario.verdict) {
    // After an error the verdict on record is the one that asked for confirmation pairs.
    const std::string prefix = scenario.error.empty() ? "" : "Confirmation pairs were needed: ";
    for (const auto& reason : scenario.verdict->reasons)
      out += "- " + prefix + markdown_cell(reason) + "\n";
  }
  if (scenario.status() == ScenarioStatus::kInconclusive) {
    out += "- Neither a regression nor a pass: rerun on a quieter machine before relying on it.\n";
  }
  for (const auto& warning : scenario.warnings)
    out += "- Warning: " + markdown_cell(warning) + "\n";
  if (scenario.rules.method == AbMethod::kStat) {
    out += fmt::format("- Rule: --method stat, {:g}% confidence, at most {} pairs\n",
                       (1 - scenario.rules.alpha) * 100, scenario.rules.max_pairs);
  } else {
    out += fmt::format("- Noise limit: {:g}% of the median\n", scenario.rules.noise_limit * 100);
  }
  out += "- Time limit per run: " +
         (scenario.timeout_s ? fmt::format("{:g} s", *scenario.timeout_s) : std::string("none")) +
         (scenario.timeout_source == "--timeout"   ? " (--timeout)"
          : scenario.timeout_source == "timeout_s" ? " (timeout_s of the scenario)"
          : scenario.timeout_source == "default"
              ? " (default: 10 times the slowest warmup, at least 60 s; the base warmup has none)"
              : "") +
         "\n\n";
  if (scenario.verdict && !scenario.verdict->metrics.empty()) comparison_table(scenario, out);
  if (scenario.counts) counts_table(*scenario.counts, out);
  if (scenario.profile) {
    out += scenario.profile->path.empty()
               ? "Profile: " + markdown_cell(scenario.profile->note) + "\n\n"
               : fmt::format("Profile ({}, excluded from the comparison): `{}`; {}\n\n",
                             scenario.profile->tool, scenario.profile->path,
                             markdown_cell(scenario.profile->note));
  }
}

}  // namespace

std::string render_ab_markdown(const AbReport& report) {
  std::string out = "# perfgate ab: " + overall_status(report) + "\n\n";
  if (report.interrupted_signal != 0) {
    out += "**Interrupted**: " + markdown_cell(report.interrupted_reason) +
           ". Scenarios marked INTERRUPTED or NOT RUN have no verdict.\n\n";
  }
  short_top(report, out);
  out += std::string(kReportDetailsMarker) + "\n\n";
  machine_table(report, out);
  for (const auto& scenario : report.scenarios) scenario_section(scenario, out);
  return out;
}

}  // namespace perfgate
