#include "report/diff_json.hpp"

#include <cmath>

#include "report/diff_display.hpp"
#include "report/diff_format.hpp"

namespace perfgate {
namespace {

/// JSON has no NaN or infinity: such a number is written as null.
Json number(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

Json side_json(const std::optional<diff::SideEstimate>& side) {
  if (!side) return nullptr;
  Json json = {{"center", number(side->center)}, {"noise", number(side->noise)}};
  json["interval"] =
      side->interval ? Json::array({number(side->interval->lower), number(side->interval->upper)})
                     : Json(nullptr);
  return json;
}

Json coverage_json(const std::optional<diff::CoverageFigures>& coverage) {
  if (!coverage) return nullptr;
  return {{"sample_reference_in_compare", number(coverage->sample_ref_in_cmp)},
          {"sample_compare_in_reference", number(coverage->sample_cmp_in_ref)},
          {"support_reference_in_compare", number(coverage->support_ref_in_cmp)},
          {"support_compare_in_reference", number(coverage->support_cmp_in_ref)}};
}

Json device_json(const std::optional<ingest::ResultDevice>& device) {
  if (!device) return nullptr;
  return {{"id", device->id}, {"name", device->name}};
}

/// One decision: status, reason, estimates, evidence and the change it proves.
Json comparison_json(const diff::StateComparison& c) {
  Json json = {{"status", std::string(diff::to_string(c.status))},
               {"reason",
                {{"code", c.reason.code},
                 {"short_code", std::string(diff::short_reason_code(c.reason.code))},
                 {"message", c.reason.message}}},
               {"estimator", c.robust ? "robust" : "classical"},
               {"reference", side_json(c.reference)},
               {"compare", side_json(c.compare)},
               {"difference", number(c.difference)},
               {"relative_difference", number(c.relative_difference)},
               {"evidence", std::string(diff::to_string(c.evidence))},
               {"decided_without_clock", c.decided_without_clock},
               {"time_coverage", coverage_json(c.time_coverage)},
               {"cycle_coverage", coverage_json(c.cycle_coverage)}};
  json["u_test"] = c.u_test ? Json{{"p_value", c.u_test->p_value},
                                   {"u", c.u_test->u},
                                   {"exact", c.u_test->exact},
                                   {"reference_count", c.u_test->reference_count},
                                   {"compare_count", c.u_test->compare_count}}
                            : Json(nullptr);
  const auto bounds = proven_change_bounds(c);
  json["proven_change"] =
      bounds && (c.status == diff::DiffStatus::kFast || c.status == diff::DiffStatus::kSlow)
          ? Json::array({number(bounds->first), number(bounds->second)})
          : Json(nullptr);
  return json;
}

Json row_json(const diff::DiffRow& row) {
  const auto& state = row.match.reference ? *row.match.reference : *row.match.compare;
  Json axes = Json::array();
  for (const auto& [name, value] : state.axis_values) {
    axes.push_back({{"name", name}, {"value", value}});
  }
  Json json = {{"state_key", state.state_key},
               {"axis_values", axes},
               {"occurrence", row.match.occurrence},
               {"occurrence_count", row.match.occurrence_count},
               {"in_reference", row.match.reference != nullptr},
               {"in_compare", row.match.compare != nullptr}};
  json.update(comparison_json(row.comparison));
  json["cpu_time"] = row.cpu ? comparison_json(*row.cpu) : Json(nullptr);
  return json;
}

Json reasons_json(const std::map<std::string, diff::ReasonCount>& reasons) {
  Json json = Json::object();
  for (const auto& [code, reason] : reasons) {
    json[code] = {{"count", reason.count}, {"message", reason.message}};
  }
  return json;
}

}  // namespace

Json diff_to_json(const diff::DiffOutcome& outcome, const diff::DiffConfig& config,
                  const std::string& reference_path, const std::string& compare_path,
                  double threshold) {
  const auto& t = config.thresholds;
  Json sections = Json::array();
  for (const auto& section : outcome.sections) {
    Json rows = Json::array();
    for (const auto& row : section.rows) {
      if (row_displayed(row, threshold)) rows.push_back(row_json(row));
    }
    sections.push_back({{"benchmark", section.benchmark},
                        {"reference_device", device_json(section.reference_device)},
                        {"compare_device", device_json(section.compare_device)},
                        {"axis_names", section.axis_names},
                        {"rows", rows}});
  }
  const auto& counts = outcome.counts;
  return {{"diff_schema_version", kDiffJsonSchemaVersion},
          {"reference", reference_path},
          {"compare", compare_path},
          {"config",
           {{"preset", config.preset},
            {"clear_gap", {{"relative", t.clear_gap_relative}}},
            {"same",
             {{"center_relative", t.same_center_relative},
              {"overlap_fraction", t.same_overlap_fraction},
              {"relative_dispersion_ceiling", t.same_relative_dispersion_ceiling}}},
            {"bulk",
             {{"sample_coverage", t.bulk_sample_coverage},
              {"support_coverage", t.bulk_support_coverage},
              {"rare_support",
               {{"sample_fraction", t.rare_support_sample_fraction},
                {"max_removed_sample_fraction", t.rare_support_max_removed_sample_fraction}}}}}}},
          {"sections", sections},
          {"summary",
           {{"total", counts.total},
            {"same", counts.same},
            {"fast", counts.fast},
            {"slow", counts.slow},
            {"ambiguous", counts.ambiguous},
            {"unknown", counts.unknown},
            {"only_in_reference", counts.only_in_reference},
            {"only_in_compare", counts.only_in_compare},
            {"ambiguous_reasons", reasons_json(counts.ambiguous_reasons)},
            {"cpu_time",
             {{"total", counts.cpu.total},
              {"same", counts.cpu.same},
              {"fast", counts.cpu.fast},
              {"slow", counts.cpu.slow},
              {"ambiguous", counts.cpu.ambiguous},
              {"unknown", counts.cpu.unknown}}}}},
          {"warnings", outcome.warnings}};
}

}  // namespace perfgate
