#include "report/history_changes.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <map>

#include "model/error.hpp"
#include "model/metric.hpp"
#include "model/time_window.hpp"

namespace perfgate {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

/// Reads the parts of history.json the analysis needs, naming the field of any fault.
class HistoryReader {
 public:
  explicit HistoryReader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
    throw Error(ExitCode::kDataError,
                source_ + ": " + field + ": " + reason +
                    ". Export it again with perfgate history export, or pass the file it "
                    "wrote");
  }

  element member(element object, const char* key, const std::string& field) const {
    element value;
    if (object.type() != element_type::OBJECT || object[key].get(value) != simdjson::SUCCESS) {
      fail(field.empty() ? std::string(key) : field + "." + key, "missing");
    }
    return value;
  }

  simdjson::dom::array array(element value, const std::string& field) const {
    if (value.type() != element_type::ARRAY) fail(field, "expected an array");
    return simdjson::dom::array(value);
  }

  std::string text(element value, const std::string& field) const {
    if (value.type() != element_type::STRING) fail(field, "expected a string");
    return std::string(std::string_view(value));
  }

  std::size_t index(element value, std::size_t size, const std::string& field) const {
    if (value.type() != element_type::INT64 || std::int64_t(value) < 0 ||
        static_cast<std::uint64_t>(std::int64_t(value)) >= size) {
      fail(field, fmt::format("expected an index below {}", size));
    }
    return static_cast<std::size_t>(std::int64_t(value));
  }

  double number(element value, const std::string& field) const {
    double number = 0;
    if (value.get(number) != simdjson::SUCCESS || !std::isfinite(number)) {
      fail(field, "expected a finite number");
    }
    return number;
  }

 private:
  std::string source_;
};

struct Commit {
  std::string sha;
  std::string time;  ///< UTC text, "" when the export did not know it
};

}  // namespace

std::vector<ChangeSeries> analyse_history_changes(const std::string& text,
                                                  const std::string& source,
                                                  const std::string& metric,
                                                  const stats::ChangePointOptions& options) {
  const HistoryReader r(source);
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(text).get(root) != simdjson::SUCCESS) r.fail("(top level)", "not JSON");
  std::vector<Commit> commits;
  for (const element commit : r.array(r.member(root, "commits", ""), "commits")) {
    const std::string field = fmt::format("commits[{}]", commits.size());
    Commit c{r.text(r.member(commit, "sha", field), field + ".sha"), ""};
    std::int64_t seconds = 0;
    if (r.member(commit, "time", field).get(seconds) == simdjson::SUCCESS) {
      c.time = iso_utc(static_cast<std::time_t>(seconds));
    }
    commits.push_back(std::move(c));
  }
  std::vector<std::string> attempts;
  for (const element attempt : r.array(r.member(root, "attempts", ""), "attempts")) {
    const std::string field = fmt::format("attempts[{}]", attempts.size());
    attempts.push_back(r.text(r.member(attempt, "id", field), field + ".id"));
  }
  std::vector<ChangeSeries> result;
  std::size_t number = 0;
  for (const element series : r.array(r.member(root, "series", ""), "series")) {
    const std::string field = fmt::format("series[{}]", number++);
    ChangeSeries s;
    s.metric = r.text(r.member(series, "metric", field), field + ".metric");
    if (!metric.empty() && s.metric != metric) continue;
    s.cohort = r.text(r.member(series, "id", field), field + ".id");
    std::int64_t threads = 0;
    if (r.member(series, "threads", field).get(threads) != simdjson::SUCCESS) {
      r.fail(field + ".threads", "expected an integer");
    }
    // The machine is part of the name: one case measured on two machines is two series.
    std::string_view machine;
    const element environment = r.member(series, "environment", field);
    if (environment.type() != element_type::OBJECT ||
        environment["id"].get(machine) != simdjson::SUCCESS) {
      r.fail(field + ".environment.id", "expected a string");
    }
    s.label = fmt::format("{} ({}, {} thread{}, on {})",
                          r.text(r.member(series, "case", field), field + ".case"),
                          r.text(r.member(series, "label", field), field + ".label"), threads,
                          threads == 1 ? "" : "s", machine);
    s.unit = r.text(r.member(series, "unit", field), field + ".unit");
    if (const auto standard = standard_metric(s.metric)) s.direction = standard->direction;
    const element points = r.member(series, "points", field);
    const auto commit_column =
        r.array(r.member(points, "commit", field + ".points"), field + ".points.commit");
    const auto median_column =
        r.array(r.member(points, "median", field + ".points"), field + ".points.median");
    const auto attempt_column =
        r.array(r.member(points, "attempt", field + ".points"), field + ".points.attempt");
    if (commit_column.size() != median_column.size() ||
        commit_column.size() != attempt_column.size()) {
      r.fail(field + ".points", "the columns commit, median and attempt differ in length");
    }
    std::vector<double> values;
    auto median = median_column.begin();
    auto attempt = attempt_column.begin();
    for (const element commit_index : commit_column) {
      const std::string at = fmt::format("{}.points[{}]", field, values.size());
      const Commit& commit = commits[r.index(commit_index, commits.size(), at + ".commit")];
      const double value = r.number(*median, at + ".median");
      values.push_back(value);
      s.points.push_back({value, commit.time, commit.sha,
                          attempts[r.index(*attempt, attempts.size(), at + ".attempt")]});
      ++median;
      ++attempt;
    }
    s.changes = stats::find_change_points(values, options);
    result.push_back(std::move(s));
  }
  // Series that still share a name (the same machine id over two kernels, say) are told
  // apart by their ids.
  std::map<std::string, int> uses;
  for (const ChangeSeries& s : result) ++uses[s.label];
  for (ChangeSeries& s : result) {
    if (uses[s.label] > 1) s.label += " [" + s.cohort + "]";
  }
  return result;
}

}  // namespace perfgate
