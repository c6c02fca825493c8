#include "report/store_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "report/count_note.hpp"
#include "report/markdown.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

std::string csv_field(std::string text) {
  if (!text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@')) {
    // A number such as -1.5 is data, not a formula: only text gets the apostrophe.
    const bool numeric = text.find_first_not_of("+-0123456789.eE") == std::string::npos;
    if (!numeric) text = "'" + text;
  }
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string number_text(double value) {
  return fmt::format("{}", value);
}

std::vector<std::string> metric_columns(const std::vector<StoredRecord>& records) {
  std::set<std::string> names;
  for (const auto& stored : records) {
    for (const auto& [name, value] : stored.record.metrics) names.insert(name);
  }
  return {names.begin(), names.end()};
}

}  // namespace

std::string cohort_label(const NormalizedRecord& record) {
  if (const auto cohort = record.cohort()) {
    return fmt::format("{}/{}/v{} (recipe {}, {}, {})", cohort->workload_id, cohort->variant_id,
                       cohort->benchmark_version, cohort->recipe_fingerprint.substr(0, 12),
                       cohort->hardware_profile_id, cohort->software_profile_id);
  }
  if (record.config_schema_version < 2)
    return "Legacy v1 (" + record.benchmark_id + ", " + record.device + ")";
  return "Invalid v2 (" + record.benchmark_id + ")";
}

std::string render_report_markdown(const std::vector<StoredRecord>& records,
                                   const ReportContext& context) {
  std::string out = "# perfgate report\n\nStore `" + markdown_cell(context.store_url) +
                    "`, generated " + markdown_cell(context.generated_at) + ", " +
                    std::to_string(records.size()) + " record" + (records.size() == 1 ? "" : "s") +
                    ".\n";
  // Group by cohort, keeping the order in which cohorts first appear (newest record first).
  std::vector<std::string> order;
  std::map<std::string, std::vector<const StoredRecord*>> groups;
  for (const auto& stored : records) {
    const std::string label = cohort_label(stored.record);
    if (groups.find(label) == groups.end()) order.push_back(label);
    groups[label].push_back(&stored);
  }
  for (const auto& label : order) {
    std::vector<StoredRecord> group;
    for (const auto* stored : groups[label]) group.push_back(*stored);
    const std::vector<std::string> metrics = metric_columns(group);
    out +=
        "\n## " + markdown_cell(label) + "\n\n| timestamp | benchmark | commit | source | status |";
    for (const auto& metric : metrics) out += " " + markdown_cell(metric) + " |";
    out += " eligible | reason |\n|---|---|---|---|---|";
    for (std::size_t i = 0; i < metrics.size(); ++i) out += "---|";
    out += "---|---|\n";
    for (const auto& stored : group) {
      const NormalizedRecord& r = stored.record;
      out += "| " + markdown_cell(r.timestamp) + " | " + markdown_cell(r.benchmark_id) + " | " +
             markdown_cell(r.commit_sha ? r.commit_sha->substr(0, 12) : "—") + " | " +
             markdown_cell(r.run_source) + " | " + markdown_cell(r.comparison_status) + " |";
      for (const auto& metric : metrics) {
        const auto it = r.metrics.find(metric);
        out += " " +
               (it == r.metrics.end()
                    ? "—"
                    : markdown_cell(format_quantity(it->second.value, it->second.unit))) +
               " |";
      }
      out += std::string(" ") + (stored.eligible ? "yes" : "no") + " | " +
             markdown_cell(r.comparison_status_reason) + " |\n";
    }
  }
  std::vector<NormalizedRecord> shown;
  for (const auto& stored : records) shown.push_back(stored.record);
  if (any_count_metric(shown)) out += "\n" + count_proxy_note();
  return out;
}

std::string render_report_json(const std::vector<StoredRecord>& records,
                               const ReportContext& context) {
  Json list = Json::array();
  for (const auto& stored : records) {
    Json entry = to_json(stored.record);
    entry["attempt_id"] = stored.attempt_id;
    entry["eligible"] = stored.eligible;
    list.push_back(std::move(entry));
  }
  const Json report = {{"report_schema_version", 1},
                       {"generated_at", context.generated_at},
                       {"store", context.store_url},
                       {"filter", context.filter},
                       {"records", list}};
  return pretty_json(report);
}

std::string render_report_csv(const std::vector<StoredRecord>& records) {
  const std::vector<std::string> metrics = metric_columns(records);
  std::vector<std::string> header{"timestamp",
                                  "benchmark_id",
                                  "workload_id",
                                  "variant_id",
                                  "benchmark_version",
                                  "recipe_fingerprint",
                                  "hardware_profile_id",
                                  "software_profile_id",
                                  "commit_sha",
                                  "run_source",
                                  "comparison_status",
                                  "baseline_status",
                                  "eligible",
                                  "success",
                                  "record_id"};
  // Each metric's column says its unit, "latency (s)", as the records give it (the first
  // that has the metric; a metric whose records disagree says "mixed units").
  for (const auto& metric : metrics) {
    std::optional<std::string> unit;
    bool mixed = false;
    for (const auto& stored : records) {
      const auto it = stored.record.metrics.find(metric);
      if (it == stored.record.metrics.end()) continue;
      if (!unit) unit = it->second.unit;
      mixed |= *unit != it->second.unit;
    }
    header.push_back(mixed                    ? metric + " (mixed units)"
                     : unit && !unit->empty() ? metric + " (" + *unit + ")"
                                              : metric);
  }
  std::string out;
  for (std::size_t i = 0; i < header.size(); ++i) out += (i ? "," : "") + csv_field(header[i]);
  out += "\r\n";
  for (const auto& stored : records) {
    const NormalizedRecord& r = stored.record;
    std::vector<std::string> row{r.timestamp,
                                 r.benchmark_id,
                                 r.workload_id.value_or(""),
                                 r.variant_id.value_or(""),
                                 r.benchmark_version ? std::to_string(*r.benchmark_version) : "",
                                 r.recipe_fingerprint,
                                 r.hardware_profile_id,
                                 r.software_profile_id,
                                 r.commit_sha.value_or(""),
                                 r.run_source,
                                 r.comparison_status,
                                 r.baseline_status,
                                 stored.eligible ? "true" : "false",
                                 r.success ? "true" : "false",
                                 r.record_id};
    for (const auto& metric : metrics) {
      const auto it = r.metrics.find(metric);
      row.push_back(it == r.metrics.end() ? "" : number_text(it->second.value));
    }
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_field(row[i]);
    out += "\r\n";
  }
  return out;
}

std::string render_report(ReportFormat format, const std::vector<StoredRecord>& records,
                          const ReportContext& context) {
  switch (format) {
    case ReportFormat::kMarkdown:
      return render_report_markdown(records, context);
    case ReportFormat::kJson:
      return render_report_json(records, context);
    case ReportFormat::kCsv:
      return render_report_csv(records);
  }
  return "";
}

}  // namespace perfgate
