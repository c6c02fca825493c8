#include "report/diff_json.hpp"

#include <cstdint>
#include <utility>

#include "model/indented_json.hpp"
#include "report/diff_display.hpp"
#include "report/diff_format.hpp"

namespace perfgate {
namespace {

using Writer = IndentedJsonWriter;

/// JSON has no NaN or infinity: such a number is written as null.
void number(Writer& w, std::optional<double> value) {
  if (value) {
    w.value(*value);
  } else {
    w.null();
  }
}

void count(Writer& w, std::size_t value) {
  w.value(static_cast<std::uint64_t>(value));
}

void side_json(Writer& w, const std::optional<diff::SideEstimate>& side) {
  if (!side) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("center").value(side->center);
  w.key("interval");
  if (side->interval) {
    w.begin_array().value(side->interval->lower).value(side->interval->upper).end_array();
  } else {
    w.null();
  }
  w.key("noise");
  number(w, side->noise);
  w.end_object();
}

void coverage_json(Writer& w, const std::optional<diff::CoverageFigures>& coverage) {
  if (!coverage) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("sample_compare_in_reference").value(coverage->sample_cmp_in_ref);
  w.key("sample_reference_in_compare").value(coverage->sample_ref_in_cmp);
  w.key("support_compare_in_reference").value(coverage->support_cmp_in_ref);
  w.key("support_reference_in_compare").value(coverage->support_ref_in_cmp);
  w.end_object();
}

void device_json(Writer& w, const std::optional<ingest::ResultDevice>& device) {
  if (!device) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("id").value(static_cast<std::int64_t>(device->id));
  w.key("name").value(device->name);
  w.end_object();
}

void u_test_json(Writer& w, const std::optional<diff::StateComparison::UTest>& u_test) {
  if (!u_test) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("compare_count");
  count(w, u_test->compare_count);
  w.key("exact").value(u_test->exact);
  w.key("p_value").value(u_test->p_value);
  w.key("reference_count");
  count(w, u_test->reference_count);
  w.key("u").value(u_test->u);
  w.end_object();
}

void proven_change_json(Writer& w, const diff::StateComparison& c) {
  const auto bounds = proven_change_bounds(c);
  if (bounds && (c.status == diff::DiffStatus::kFast || c.status == diff::DiffStatus::kSlow)) {
    w.begin_array().value(bounds->first).value(bounds->second).end_array();
  } else {
    w.null();
  }
}

/// One decision's members (status, reason, estimates, evidence and the change it proves),
/// with a row's own members (`row`, when given) among them: every object's members are
/// written in nlohmann's order, sorted by key, so that the text is what dump() wrote.
void comparison_members(Writer& w, const diff::StateComparison& c, const diff::DiffRow* row);

void comparison_json(Writer& w, const diff::StateComparison& c) {
  w.begin_object();
  comparison_members(w, c, nullptr);
  w.end_object();
}

void comparison_members(Writer& w, const diff::StateComparison& c, const diff::DiffRow* row) {
  const ingest::ResultState* state = nullptr;
  if (row != nullptr) {
    state = row->match.reference ? row->match.reference : row->match.compare;
    w.key("axis_values").begin_array();
    for (const auto& [name, value] : state->axis_values) {
      w.begin_object().key("name").value(name).key("value").value(value).end_object();
    }
    w.end_array();
  }
  w.key("compare");
  side_json(w, c.compare);
  if (row != nullptr) {
    w.key("cpu_time");
    if (row->cpu) {
      comparison_json(w, *row->cpu);
    } else {
      w.null();
    }
  }
  w.key("cycle_coverage");
  coverage_json(w, c.cycle_coverage);
  w.key("decided_without_clock").value(c.decided_without_clock);
  w.key("difference");
  number(w, c.difference);
  w.key("estimator").value(c.robust ? "robust" : "classical");
  w.key("evidence").value(diff::to_string(c.evidence));
  if (row != nullptr) {
    w.key("in_compare").value(row->match.compare != nullptr);
    w.key("in_reference").value(row->match.reference != nullptr);
    w.key("instructions");
    if (row->instructions) {
      comparison_json(w, *row->instructions);
    } else {
      w.null();
    }
    w.key("occurrence");
    count(w, row->match.occurrence);
    w.key("occurrence_count");
    count(w, row->match.occurrence_count);
  }
  w.key("proven_change");
  proven_change_json(w, c);
  w.key("reason").begin_object();
  w.key("code").value(c.reason.code);
  w.key("message").value(c.reason.message);
  w.key("short_code").value(diff::short_reason_code(c.reason.code));
  w.end_object();
  w.key("reference");
  side_json(w, c.reference);
  w.key("relative_difference");
  number(w, c.relative_difference);
  if (row != nullptr) w.key("state_key").value(state->state_key);
  w.key("status").value(diff::to_string(c.status));
  w.key("time_coverage");
  coverage_json(w, c.time_coverage);
  w.key("u_test");
  u_test_json(w, c.u_test);
}

void config_json(Writer& w, const diff::DiffConfig& config) {
  const auto& t = config.thresholds;
  w.begin_object();
  w.key("bulk").begin_object();
  w.key("rare_support").begin_object();
  w.key("max_removed_sample_fraction").value(t.rare_support_max_removed_sample_fraction);
  w.key("sample_fraction").value(t.rare_support_sample_fraction);
  w.end_object();
  w.key("sample_coverage").value(t.bulk_sample_coverage);
  w.key("support_coverage").value(t.bulk_support_coverage);
  w.end_object();
  w.key("clear_gap").begin_object().key("relative").value(t.clear_gap_relative).end_object();
  w.key("preset").value(config.preset);
  w.key("same").begin_object();
  w.key("center_relative").value(t.same_center_relative);
  w.key("overlap_fraction").value(t.same_overlap_fraction);
  w.key("relative_dispersion_ceiling").value(t.same_relative_dispersion_ceiling);
  w.end_object();
  w.end_object();
}

void geometric_mean_json(Writer& w, const std::optional<GeometricMeanRatio>& mean) {
  if (!mean) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("matches");
  count(w, mean->matches);
  w.key("ratio").value(mean->ratio);
  w.end_object();
}

void beside_counts_json(Writer& w, const diff::DiffCounts::Beside& counts) {
  w.begin_object();
  for (const auto& [name, value] :
       {std::pair{"ambiguous", counts.ambiguous}, std::pair{"fast", counts.fast},
        std::pair{"same", counts.same}, std::pair{"slow", counts.slow},
        std::pair{"total", counts.total}, std::pair{"unknown", counts.unknown}}) {
    w.key(name);
    count(w, value);
  }
  w.end_object();
}

void summary_json(Writer& w, const diff::DiffOutcome& outcome) {
  const diff::DiffCounts& counts = outcome.counts;
  w.begin_object();
  w.key("ambiguous");
  count(w, counts.ambiguous);
  w.key("ambiguous_reasons").begin_object();
  for (const auto& [code, reason] : counts.ambiguous_reasons) {
    w.key(code).begin_object();
    w.key("count");
    count(w, reason.count);
    w.key("message").value(reason.message);
    w.end_object();
  }
  w.end_object();
  w.key("cpu_time");
  beside_counts_json(w, counts.cpu);
  w.key("fast");
  count(w, counts.fast);
  // compare.py's OVERALL_GEOMEAN, of the primary timing, the CPU time and the instructions.
  w.key("geometric_mean").begin_object();
  w.key("cpu_time");
  geometric_mean_json(w, geometric_mean_ratio(outcome, diff::BesideMetric::kCpuTime));
  w.key("instructions");
  geometric_mean_json(w, geometric_mean_ratio(outcome, diff::BesideMetric::kInstructions));
  w.key("primary");
  geometric_mean_json(w, geometric_mean_ratio(outcome));
  w.end_object();
  w.key("instructions");
  beside_counts_json(w, counts.instructions);
  for (const auto& [name, value] :
       {std::pair{"only_in_compare", counts.only_in_compare},
        std::pair{"only_in_reference", counts.only_in_reference}, std::pair{"same", counts.same},
        std::pair{"slow", counts.slow}, std::pair{"total", counts.total},
        std::pair{"unknown", counts.unknown}}) {
    w.key(name);
    count(w, value);
  }
  w.end_object();
}

}  // namespace

std::string diff_json_text(const diff::DiffOutcome& outcome, const diff::DiffConfig& config,
                           const std::string& reference_path, const std::string& compare_path,
                           double threshold) {
  std::string out;
  Writer w(out);
  w.begin_object();
  w.key("compare").value(compare_path);
  w.key("config");
  config_json(w, config);
  w.key("diff_schema_version").value(kDiffJsonSchemaVersion);
  w.key("reference").value(reference_path);
  w.key("sections").begin_array();
  for (const auto& section : outcome.sections) {
    w.begin_object();
    w.key("axis_names").begin_array();
    for (const auto& name : section.axis_names) w.value(name);
    w.end_array();
    w.key("benchmark").value(section.benchmark);
    w.key("compare_device");
    device_json(w, section.compare_device);
    w.key("reference_device");
    device_json(w, section.reference_device);
    w.key("rows").begin_array();
    for (const auto& row : section.rows) {
      if (!row_displayed(row, threshold)) continue;
      w.begin_object();
      comparison_members(w, row.comparison, &row);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("summary");
  summary_json(w, outcome);
  w.key("warnings").begin_array();
  for (const auto& warning : outcome.warnings) w.value(warning);
  w.end_array();
  w.end_object();
  return out;
}

Json diff_to_json(const diff::DiffOutcome& outcome, const diff::DiffConfig& config,
                  const std::string& reference_path, const std::string& compare_path,
                  double threshold) {
  return Json::parse(diff_json_text(outcome, config, reference_path, compare_path, threshold));
}

}  // namespace perfgate
