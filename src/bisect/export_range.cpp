#include "bisect/export_range.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "config/key_suggestion.hpp"
#include "model/error.hpp"

namespace perfgate::bisect {
namespace {

Error export_error(const std::string& message) {
  return Error(ExitCode::kDataError, message);
}

const Json& series_of(const Json& history, const std::string& id) {
  std::vector<std::string> ids;
  if (history.contains("series") && history["series"].is_array()) {
    for (const Json& series : history["series"]) {
      if (!series.is_object()) continue;
      if (series.value("id", "") == id) return series;
      ids.push_back(series.value("id", ""));
    }
  }
  throw export_error(
      "--series " + id + ": the export has no such series. " +
      (ids.empty() ? std::string("It has no series at all") : unknown_key_fix(id, ids)));
}

std::string commit_sha(const Json& history, const Json& index) {
  const Json& commits = history.at("commits");
  return commits.at(index.get<std::size_t>()).at("sha").get<std::string>();
}

}  // namespace

ExportRange range_from_export(const Json& history, const std::string& series_id,
                              std::optional<int> change, const std::string& flag) {
  try {
    const Json& series = series_of(history, series_id);
    ExportRange range;
    range.case_name = series.at("case").get<std::string>();
    range.metric = series.at("metric").get<std::string>();
    if (change) {
      const Json changes = series.value("changes", Json::array());
      if (*change < 1 || *change > static_cast<int>(changes.size())) {
        throw export_error(fmt::format(
            "--change {}: series {} has {} change point{}. Give a number from 1 (the oldest){}",
            *change, series_id, changes.size(), changes.size() == 1 ? "" : "s",
            changes.empty() ? ", or bisect a flag with --flag" : ""));
      }
      const Json& points = series.at("points").at("commit");
      const int last = static_cast<int>(points.size()) - 1;
      const int at = changes[static_cast<std::size_t>(*change - 1)].at("index").get<int>();
      range.good = commit_sha(history, points.at(std::max(0, at - 1 - kChangeMargin)));
      range.bad = commit_sha(history, points.at(std::min(last, at + kChangeMargin)));
      return range;
    }
    if (history.contains("flags") && history["flags"].is_array() && flag.size() >= 7) {
      for (const Json& entry : history["flags"]) {
        if (entry.value("series", "") != series_id) continue;
        const std::string commit = entry.value("commit", "");
        if (commit.compare(0, flag.size(), flag) != 0) continue;
        range.good = entry.at("previous_commit").get<std::string>();
        range.bad = commit;
        return range;
      }
    }
    throw export_error("--flag " + flag + ": series " + series_id +
                       " has no flag at that commit. Give the SHA (7 digits at least) of a "
                       "flagged point of the series: the export's flags list them");
  } catch (const Json::exception& error) {
    throw export_error(std::string("the export is not a history.json perfgate wrote: ") +
                       error.what() + ". Export it again with 'perfgate history export'");
  }
}

}  // namespace perfgate::bisect
