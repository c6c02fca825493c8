#pragma once
// `perfgate report`: the records of a store as Markdown, JSON or CSV. One renderer per
// format behind one function; each is pure, so the same records give the same bytes.
#include <string>
#include <vector>

#include "model/json.hpp"
#include "store/store.hpp"

namespace perfgate {

enum class ReportFormat { kMarkdown, kJson, kCsv };

struct ReportContext {
  std::string store_url;
  std::string generated_at;
  Json filter = Json::object();  ///< the filter that selected the records, echoed in JSON
};

/// Markdown: a table per cohort (legacy and incomplete identities labelled), newest first.
std::string render_report_markdown(const std::vector<StoredRecord>& records,
                                   const ReportContext& context);
/// JSON: {"report_schema_version": 1, "generated_at", "store", "filter", "records": [...]},
/// each record its normalised JSON plus "attempt_id" and "eligible".
std::string render_report_json(const std::vector<StoredRecord>& records,
                               const ReportContext& context);
/// CSV (RFC 4180): fixed columns, then one column per metric seen (sorted), values in the
/// metric's unit; fields quoted when they hold a comma, quote or newline; cells that a
/// spreadsheet would run as a formula (=, +, -, @ first) get a leading apostrophe.
std::string render_report_csv(const std::vector<StoredRecord>& records);

std::string render_report(ReportFormat format, const std::vector<StoredRecord>& records,
                          const ReportContext& context);

/// The cohort label of the Markdown report: "workload/variant/vN" with short recipe and
/// profile ids (the store view's labels name only what tells siblings apart:
/// report/cohort_labels.hpp), "Legacy v1 (<benchmark_id>, <device>)" for v1 records, "Invalid v2
/// (<benchmark_id>)" for v2 records with missing identity fields.
std::string cohort_label(const NormalizedRecord& record);

}  // namespace perfgate
