#include "report/store_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "model/compact_json.hpp"
#include "model/instant.hpp"
#include "model/metric.hpp"
#include "report/cohort_labels.hpp"
#include "stats/change_points_json.hpp"
#include "stats/summary.hpp"

namespace perfgate {
namespace {

/// A record with the instant it was taken at, parsed once for the sort.
struct Entry {
  const StoredRecord* stored;
  std::int64_t instant;  ///< microseconds since the epoch
  std::size_t order;     ///< position in the store's listing
  std::string utc;       ///< the timestamp as UTC text, as the viewer reads it
};

/// An attempt or record id as people quote it, like a short git SHA: 64 hex digits per
/// record in two columns were most of a 100,000-record document.
std::string short_id(const std::string& id) {
  return id.substr(0, 12);
}

struct CohortGroup {
  std::string id;
  std::string label;  ///< store_view_labels: told apart from its siblings
  std::string kind;
  std::vector<Entry> entries;  ///< oldest first once sorted
};

std::string kind_of(const NormalizedRecord& record) {
  if (record.cohort()) return "v2";
  return record.config_schema_version < 2 ? "legacy_v1" : "invalid_v2";
}

/// nullopt for an absent or empty text field: the viewer shows "–" for both.
std::optional<std::string> filled(const std::optional<std::string>& text) {
  if (text && !text->empty()) return text;
  return std::nullopt;
}

void optional_text(CompactJsonWriter& json, const std::optional<std::string>& text) {
  if (text && !text->empty()) {
    json.value(*text);
  } else {
    json.null();
  }
}

/// The unit and direction a metric is drawn with: those of its newest value; for a metric
/// without values, the built-in definition of a standard metric, else no unit.
struct MetricShape {
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
  bool has_value = false;
};

std::map<std::string, MetricShape> metric_shapes(const std::vector<Entry>& entries) {
  std::map<std::string, MetricShape> shapes;
  for (const Entry& entry : entries) {  // oldest first: later values overwrite
    const NormalizedRecord& record = entry.stored->record;
    for (const auto& [name, value] : record.metrics) {
      shapes[name] = {value.unit, value.direction, true};
    }
    const auto named = [&](const std::string& name) {
      if (shapes.count(name)) return;
      MetricShape shape;
      if (const auto standard = standard_metric(name)) {
        shape.unit = standard->unit;
        shape.direction = standard->direction;
      }
      shapes.emplace(name, shape);
    };
    for (const auto& [name, policy] : record.regression_thresholds) named(name);
    for (const auto& comparison : record.comparisons) named(comparison.metric);
  }
  return shapes;
}

/// The change points of one metric of the cohort (docs/changes.md), as `perfgate history
/// changes` finds them: over the records that succeeded with a finite value, each change's
/// index mapped back to the record's position in the cohort's columns.
/// Returns the changes' positions.
std::vector<std::size_t> write_changes(CompactJsonWriter& json, const CohortGroup& group,
                                       const std::string& name, Direction direction) {
  std::vector<double> values;
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < group.entries.size(); ++i) {
    const NormalizedRecord& record = group.entries[i].stored->record;
    const auto found = record.metrics.find(name);
    if (!record.success || found == record.metrics.end() || !std::isfinite(found->second.value)) {
      continue;
    }
    values.push_back(found->second.value);
    positions.push_back(i);
  }
  json.key("changes");
  return stats::write_change_points(json, values, positions,
                                    direction == Direction::kLowerIsBetter);
}

/// The spread of a record's runs of one metric, which the viewer draws as a band around
/// the line of values (the mean of the runs): min, median and max of its finite samples,
/// the median as the history export takes a commit's (type 7 quantile). nullopt for a
/// record without the metric or with fewer than 2 samples, where there is no spread.
struct RunSpread {
  double min;
  double median;
  double max;
};

std::optional<RunSpread> run_spread(const NormalizedRecord& record, const std::string& name) {
  const auto found = record.metrics.find(name);
  if (found == record.metrics.end()) return std::nullopt;
  std::vector<double> sorted;
  sorted.reserve(found->second.samples.size());
  for (const double sample : found->second.samples) {
    if (std::isfinite(sample)) sorted.push_back(sample);
  }
  if (sorted.size() < 2) return std::nullopt;
  std::sort(sorted.begin(), sorted.end());
  return RunSpread{sorted.front(), quantile_sorted(sorted, 0.5), sorted.back()};
}

/// The significant digits of the spread in store.json: the viewer shows 4.
constexpr int kSpreadDigits = 4;

/// `number` rounded to `digits` significant digits, written in that short form.
double round_significant(double number, int digits) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, number);
  return std::strtod(text, nullptr);
}

/// Each record's spread of one metric's runs, oldest first; empty when no record has one.
std::vector<std::optional<RunSpread>> spreads_of(const CohortGroup& group,
                                                 const std::string& name) {
  std::vector<std::optional<RunSpread>> spreads;
  spreads.reserve(group.entries.size());
  bool any = false;
  for (const Entry& entry : group.entries) {
    spreads.push_back(run_spread(entry.stored->record, name));
    any |= spreads.back().has_value();
  }
  if (!any) spreads.clear();
  return spreads;
}

/// "spread": {"max", "median", "min"}, one entry per record, null where it has none; left
/// out when no record has one (imported aggregates), which keeps such documents small.
/// Rounded to the 4 significant digits the viewer shows: a band needs no more, and a
/// store of 100,000 records loads 3.5 MB lighter (docs/store-json.md).
void write_spread(CompactJsonWriter& json, const std::vector<std::optional<RunSpread>>& spreads) {
  if (spreads.empty()) return;
  const auto column = [&](const char* key, double RunSpread::*field) {
    json.key(key).begin_array();
    for (const auto& spread : spreads) {
      if (spread) {
        json.value(round_significant((*spread).*field, kSpreadDigits));
      } else {
        json.null();
      }
    }
    json.end_array();
  };
  json.key("spread").begin_object();
  column("max", &RunSpread::max);
  column("median", &RunSpread::median);
  column("min", &RunSpread::min);
  json.end_object();
}

/// A column of texts that repeat from record to record as a dictionary: each distinct
/// text once, then one small index per record (docs/store-json.md).
void write_dictionary(CompactJsonWriter& json, const char* key,
                      const std::vector<std::optional<std::string>>& texts) {
  std::vector<const std::optional<std::string>*> values;
  std::map<std::optional<std::string>, std::size_t> code_of;
  json.key(key).begin_object().key("codes").begin_array();
  for (const auto& text : texts) {
    const auto [it, added] = code_of.emplace(text, values.size());
    if (added) values.push_back(&it->first);
    json.value(static_cast<std::uint64_t>(it->second));
  }
  json.end_array().key("values").begin_array();
  for (const auto* value : values) {
    if (*value) {
      json.value(**value);  // an empty text stays "", as in a plain column
    } else {
      json.null();
    }
  }
  json.end_array().end_object();
}

/// The verdict of one metric of a record, as its chart marks it: "regressed",
/// "inconclusive", "not_gated" (beyond the threshold, but not gated or under the floor),
/// "not_measured", "ok"; nullopt when the record was not compared on it.
std::optional<std::string> metric_verdict(const NormalizedRecord& record,
                                          const std::string& metric) {
  const auto comparison =
      std::find_if(record.comparisons.begin(), record.comparisons.end(),
                   [&](const MetricComparison& c) { return c.metric == metric; });
  if (comparison == record.comparisons.end()) return std::nullopt;
  if (comparison->regressed) return "regressed";
  if (comparison->inconclusive) return "inconclusive";
  if (!comparison->not_gated.empty() || comparison->threshold_exceeded) return "not_gated";
  if (!comparison->current) return "not_measured";
  return "ok";
}

/// The records whose commit and record id the viewer names before a cohort's details are
/// loaded ("what changed": REGRESSION, INCONCLUSIVE and INFRA_ERROR records, failed ones,
/// and the first record after a change point), as positions in the cohort, ascending.
std::vector<std::size_t> named_rows(const CohortGroup& group,
                                    const std::set<std::size_t>& change_rows) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < group.entries.size(); ++i) {
    const NormalizedRecord& record = group.entries[i].stored->record;
    const std::string& status = record.comparison_status;
    if (status == "REGRESSION" || status == "INCONCLUSIVE" || status == "INFRA_ERROR" ||
        !record.success || change_rows.count(i)) {
      rows.push_back(i);
    }
  }
  return rows;
}

/// "details" of a cohort written apart: which file holds them, and the commit and record id
/// of the records "what changed" names, so that the first screen needs no cohort's details.
void write_details_reference(CompactJsonWriter& json, const CohortGroup& group,
                             const std::set<std::size_t>& change_rows, std::size_t number) {
  const std::vector<std::size_t> rows = named_rows(group, change_rows);
  json.key("details").begin_object();
  json.key("commit").begin_array();
  for (const std::size_t row : rows)
    optional_text(json, group.entries[row].stored->record.commit_sha);
  json.end_array();
  json.key("file").value(static_cast<std::uint64_t>(number));
  json.key("record").begin_array();
  for (const std::size_t row : rows)
    json.value(short_id(group.entries[row].stored->record.record_id));
  json.end_array();
  json.key("rows").begin_array();
  for (const std::size_t row : rows) json.value(static_cast<std::uint64_t>(row));
  json.end_array();
  json.end_object();
}

/// `details`: nullptr for a cohort written whole; otherwise the cohort's detail columns are
/// written there (its details document, docs/store-json.md "Details apart") and the cohort
/// says which file holds them, `details_number`.
void write_cohort(CompactJsonWriter& json, const CohortGroup& group, std::string* details,
                  std::size_t details_number) {
  const NormalizedRecord& newest = group.entries.back().stored->record;
  std::set<std::string> benchmarks;
  std::set<std::string> devices;
  for (const Entry& entry : group.entries) {
    benchmarks.insert(entry.stored->record.benchmark_id);
    devices.insert(entry.stored->record.device);
  }

  // The metrics first, into their own text: the change points they find name the records
  // of "details", which comes before them in key order.
  const auto shapes = metric_shapes(group.entries);
  std::string metrics_text;
  CompactJsonWriter metrics(metrics_text);
  std::set<std::size_t> change_rows;
  std::vector<std::pair<std::string, std::vector<std::optional<RunSpread>>>> apart_spreads;
  metrics.begin_array();
  for (const auto& [name, shape] : shapes) {
    if (!shape.has_value) continue;
    metrics.begin_object();
    for (const std::size_t row : write_changes(metrics, group, name, shape.direction))
      change_rows.insert(row);
    metrics.key("direction").value(to_string(shape.direction));
    metrics.key("name").value(name);
    auto spreads = spreads_of(group, name);
    if (details == nullptr) {
      write_spread(metrics, spreads);
    } else if (!spreads.empty()) {
      apart_spreads.emplace_back(name, std::move(spreads));
    }
    metrics.key("unit").value(shape.unit);
    metrics.key("values").begin_array();
    for (const Entry& entry : group.entries) {
      const auto& values = entry.stored->record.metrics;
      const auto found = values.find(name);
      if (found == values.end()) {
        metrics.null();
      } else {
        metrics.value(found->second.value);  // NaN or an infinity becomes null, as missing
      }
    }
    metrics.end_array();
    // Each chart marks its own metric's verdict, not the record's status: a record that
    // regressed on latency is not a regression on the memory chart.
    std::vector<std::optional<std::string>> verdicts;
    verdicts.reserve(group.entries.size());
    for (const Entry& entry : group.entries)
      verdicts.push_back(metric_verdict(entry.stored->record, name));
    write_dictionary(metrics, "verdicts", verdicts);
    metrics.end_object();
  }
  metrics.end_array();

  // Columns in sorted key order, as every document perfgate writes.
  const auto column = [&](CompactJsonWriter& out, const char* key, auto&& write) {
    out.key(key).begin_array();
    for (const Entry& entry : group.entries) write(out, *entry.stored);
    out.end_array();
  };
  // Texts that repeat from record to record (statuses, reasons, run sources) as a
  // dictionary: each distinct text once, then one small index per record.
  const auto dictionary = [&](CompactJsonWriter& out, const char* key, auto&& text_of) {
    std::vector<std::optional<std::string>> texts;
    texts.reserve(group.entries.size());
    for (const Entry& entry : group.entries) texts.push_back(text_of(*entry.stored));
    write_dictionary(out, key, texts);
  };
  const auto always = [](const std::string& text) { return std::optional<std::string>(text); };
  // What only a chosen cohort shows (its charts' bands, its records table and tooltips):
  // apart, the viewer loads it when the cohort is opened.
  const auto detail_columns = [&](CompactJsonWriter& out) {
    column(out, "attempt",
           [&](CompactJsonWriter& o, const StoredRecord& s) { o.value(short_id(s.attempt_id)); });
    dictionary(out, "baseline_status",
               [&](const StoredRecord& s) { return always(s.record.baseline_status); });
    dictionary(out, "benchmark",
               [&](const StoredRecord& s) { return always(s.record.benchmark_id); });
    dictionary(out, "branch", [&](const StoredRecord& s) { return filled(s.record.branch); });
    column(out, "commit", [&](CompactJsonWriter& o, const StoredRecord& s) {
      optional_text(o, s.record.commit_sha);
    });
  };
  const auto detail_columns_after = [&](CompactJsonWriter& out) {
    column(out, "eligible",
           [&](CompactJsonWriter& o, const StoredRecord& s) { o.value(s.eligible); });
    column(out, "record", [&](CompactJsonWriter& o, const StoredRecord& s) {
      o.value(short_id(s.record.record_id));
    });
  };

  json.begin_object();
  json.key("benchmarks").begin_array();
  for (const auto& name : benchmarks) json.value(name);
  json.end_array();
  if (details != nullptr) write_details_reference(json, group, change_rows, details_number);
  json.key("devices").begin_array();
  for (const auto& name : devices) json.value(name);
  json.end_array();
  json.key("id").value(group.id);

  json.key("identity").begin_object();
  json.key("benchmark_version");
  if (newest.benchmark_version) {
    json.value(static_cast<std::int64_t>(*newest.benchmark_version));
  } else {
    json.null();
  }
  json.key("hardware_profile_id");
  optional_text(json, newest.hardware_profile_id);
  json.key("recipe_fingerprint");
  optional_text(json, newest.recipe_fingerprint);
  json.key("software_profile_id");
  optional_text(json, newest.software_profile_id);
  json.key("variant_id");
  optional_text(json, filled(newest.variant_id));
  json.key("workload_id");
  optional_text(json, filled(newest.workload_id));
  json.end_object();

  json.key("kind").value(group.kind);
  json.key("label").value(group.label);
  json.key("metrics").raw(metrics_text);

  json.key("records").begin_object();
  if (details == nullptr) detail_columns(json);
  dictionary(json, "comparison_reason",
             [&](const StoredRecord& s) { return always(s.record.comparison_status_reason); });
  dictionary(json, "comparison_status",
             [&](const StoredRecord& s) { return always(s.record.comparison_status); });
  if (details == nullptr) detail_columns_after(json);
  dictionary(json, "run_source",
             [&](const StoredRecord& s) { return always(s.record.run_source); });
  column(json, "success",
         [&](CompactJsonWriter& o, const StoredRecord& s) { o.value(s.record.success); });
  json.key("timestamp").begin_array();
  for (const Entry& entry : group.entries) json.value(entry.utc);
  json.end_array();
  json.end_object();

  json.key("skipped_metrics").begin_array();
  for (const auto& [name, shape] : shapes) {
    if (shape.has_value) continue;
    json.begin_object();
    json.key("direction").value(to_string(shape.direction));
    json.key("name").value(name);
    json.key("unit").value(shape.unit);
    json.end_object();
  }
  json.end_array();
  json.end_object();

  if (details == nullptr) return;
  CompactJsonWriter apart(*details);
  apart.begin_object();
  apart.key("id").value(group.id);
  apart.key("kind").value(kCohortDetailsKind);
  apart.key("metrics").begin_array();
  for (const auto& [name, spreads] : apart_spreads) {
    apart.begin_object();
    apart.key("name").value(name);
    write_spread(apart, spreads);
    apart.end_object();
  }
  apart.end_array();
  apart.key("records").begin_object();
  detail_columns(apart);
  detail_columns_after(apart);
  apart.end_object();
  apart.end_object();
  *details += '\n';
}

}  // namespace

std::string store_view_cohort_id(const NormalizedRecord& record) {
  if (const auto cohort = record.cohort()) return cohort->to_string();
  if (record.config_schema_version < 2) {
    return "legacy-v1/" + record.benchmark_id + "/" + record.device;
  }
  return "invalid-v2/" + record.benchmark_id;
}

namespace {

/// The records by cohort, each oldest first; cohorts with the most records first, then the
/// newest last record, then the id (the chooser's order, docs/store-json.md).
std::vector<CohortGroup> group_records(const std::vector<StoredRecord>& records,
                                       std::vector<const StoredRecord*>& unplaced) {
  std::map<std::string, CohortGroup> groups;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const NormalizedRecord& record = records[i].record;
    const auto instant = parse_instant_us(record.timestamp);
    if (!instant) {
      // A store normalises timestamps on the way in, so only a damaged or hand-made record
      // gets here; it cannot be placed on a time axis, and the document says so.
      unplaced.push_back(&records[i]);
      continue;
    }
    const std::string id = store_view_cohort_id(record);
    CohortGroup& group = groups[id];
    if (group.entries.empty()) {
      group.id = id;
      group.kind = kind_of(record);
    }
    group.entries.push_back({&records[i], *instant, i, *normalize_utc_timestamp(record.timestamp)});
  }
  std::vector<CohortGroup> order;
  order.reserve(groups.size());
  for (auto& [id, group] : groups) {
    // Oldest first; at the same instant the store's later listing position first, since a
    // store lists newest first.
    std::sort(group.entries.begin(), group.entries.end(), [](const Entry& a, const Entry& b) {
      if (a.instant != b.instant) return a.instant < b.instant;
      return a.order > b.order;
    });
    order.push_back(std::move(group));
  }
  std::sort(order.begin(), order.end(), [](const CohortGroup& a, const CohortGroup& b) {
    if (a.entries.size() != b.entries.size()) return a.entries.size() > b.entries.size();
    if (a.entries.back().instant != b.entries.back().instant) {
      return a.entries.back().instant > b.entries.back().instant;
    }
    return a.id < b.id;
  });
  // Each label depends on the cohort's siblings in this document, so all are made at once.
  std::vector<const NormalizedRecord*> newest;
  newest.reserve(order.size());
  for (const CohortGroup& group : order) newest.push_back(&group.entries.back().stored->record);
  const std::vector<std::string> labels = store_view_labels(newest);
  for (std::size_t i = 0; i < order.size(); ++i) order[i].label = labels[i];
  return order;
}

/// `record_count` counts the records in the document's cohorts.
void write_context(CompactJsonWriter& json, const StoreViewContext& context, const char* kind,
                   std::size_t record_count, const std::vector<const StoredRecord*>& unplaced) {
  json.key("commit_url");
  optional_text(json, context.commit_url);
  json.key("filter").begin_object();
  json.key("benchmark");
  optional_text(json, context.benchmark_glob);
  json.key("since");
  optional_text(json, context.since);
  json.end_object();
  json.key("generated_at").value(context.generated_at);
  json.key("kind").value(kind);
  json.key("record_count").value(static_cast<std::uint64_t>(record_count));
  json.key("schema_version").value(1);
  json.key("store").value(context.store_url);
  json.key("unplaced_records").begin_array();
  for (const StoredRecord* stored : unplaced) {
    json.begin_object();
    json.key("benchmark").value(stored->record.benchmark_id);
    json.key("record").value(short_id(stored->record.record_id));
    json.key("timestamp").value(stored->record.timestamp);
    json.end_object();
  }
  json.end_array();
}

}  // namespace

namespace {

/// write_store_view, with each cohort's details apart into `details` when it is not null.
std::string store_view(const std::vector<StoredRecord>& records, const StoreViewContext& context,
                       std::vector<std::string>* details) {
  std::vector<const StoredRecord*> unplaced;
  // Every cohort is grouped, even when one is asked for: its label is made among them all.
  const std::vector<CohortGroup> groups = group_records(records, unplaced);
  const auto selected = [&](const std::string& id) {
    return context.cohort.empty() || id == context.cohort;
  };
  std::erase_if(unplaced, [&](const StoredRecord* stored) {
    return !selected(store_view_cohort_id(stored->record));
  });
  std::string out;
  out.reserve(256 + records.size() * (details ? 80 : 200));
  CompactJsonWriter json(out);
  json.begin_object();
  json.key("cohorts").begin_array();
  std::size_t record_count = 0;
  for (const CohortGroup& group : groups) {
    if (!selected(group.id)) continue;
    if (details != nullptr) {
      details->emplace_back();
      write_cohort(json, group, &details->back(), details->size());
    } else {
      write_cohort(json, group, nullptr, 0);
    }
    record_count += group.entries.size();
  }
  json.end_array();
  write_context(json, context, "perfgate-store-view", record_count, unplaced);
  json.end_object();
  out += '\n';
  return out;
}

}  // namespace

std::string write_store_view(const std::vector<StoredRecord>& records,
                             const StoreViewContext& context) {
  return store_view(records, context, nullptr);
}

StoreViewApart write_store_view_apart(const std::vector<StoredRecord>& records,
                                      const StoreViewContext& context) {
  StoreViewApart apart;
  apart.document = store_view(records, context, &apart.details);
  return apart;
}

std::string write_store_cohort_index(const std::vector<StoredRecord>& records,
                                     const StoreViewContext& context) {
  std::vector<const StoredRecord*> unplaced;
  const std::vector<CohortGroup> groups = group_records(records, unplaced);
  std::string out;
  CompactJsonWriter json(out);
  json.begin_object();
  json.key("cohorts").begin_array();
  for (const CohortGroup& group : groups) {
    std::set<std::string> benchmarks;
    for (const Entry& entry : group.entries) benchmarks.insert(entry.stored->record.benchmark_id);
    json.begin_object();
    json.key("benchmarks").begin_array();
    for (const auto& name : benchmarks) json.value(name);
    json.end_array();
    json.key("first").value(group.entries.front().utc);
    json.key("id").value(group.id);
    json.key("kind").value(group.kind);
    json.key("label").value(group.label);
    json.key("last").value(group.entries.back().utc);
    json.key("metrics").begin_array();
    for (const auto& [name, shape] : metric_shapes(group.entries)) {
      if (shape.has_value) json.value(name);
    }
    json.end_array();
    json.key("record_count").value(static_cast<std::uint64_t>(group.entries.size()));
    json.end_object();
  }
  json.end_array();
  write_context(json, context, "perfgate-store-cohorts", records.size() - unplaced.size(),
                unplaced);
  json.end_object();
  out += '\n';
  return out;
}

}  // namespace perfgate
