#include "history/history_export.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "history/regression_flags.hpp"
#include "history/series_identity.hpp"
#include "model/instant.hpp"

namespace perfgate::history {
namespace {

/// One compatibility series while it is gathered, its points in commit order.
struct SeriesColumns {
  std::string id;
  const HistoryAttempt* first_attempt = nullptr;
  const MeasuredCase* first_case = nullptr;
  std::string metric;
  std::string unit;
  std::vector<std::size_t> commit;   ///< index into the commits array
  std::vector<std::size_t> attempt;  ///< index into the attempts array
  std::vector<double> median, mad, min, max;
  std::vector<bool> flags;
};

/// The attempts' indices ordered by started_at (as instant_before orders it), then identity.
std::vector<std::size_t> attempts_in_start_order(const std::vector<HistoryAttempt>& attempts) {
  std::vector<std::optional<std::int64_t>> start_us;
  start_us.reserve(attempts.size());
  for (const HistoryAttempt& a : attempts) start_us.push_back(parse_instant_us(a.started_at));
  std::vector<std::size_t> order(attempts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Instants parsed once: the same order as instant_before, without parsing per comparison.
  const auto before = [&](std::size_t x, std::size_t y) {
    if (start_us[x] && start_us[y]) {
      if (*start_us[x] != *start_us[y]) return *start_us[x] < *start_us[y];
    } else {
      if (instant_before(attempts[x].started_at, attempts[y].started_at)) return true;
      if (instant_before(attempts[y].started_at, attempts[x].started_at)) return false;
    }
    return attempts[x].identity < attempts[y].identity;
  };
  std::sort(order.begin(), order.end(), before);
  return order;
}

Json attempt_json(const HistoryAttempt& a, bool superseded) {
  Json errors = Json::array();
  for (const AttemptError& error : a.errors) {
    errors.push_back({{"stage", error.stage}, {"message", error.message}});
  }
  return {{"id", a.identity.text()},
          {"sha", a.identity.sha},
          {"run", a.identity.run},
          {"attempt", a.identity.attempt},
          {"started_at", a.started_at},
          {"finished_at", a.finished_at},
          {"status", a.success ? "success" : "failure"},
          {"label", a.label},
          {"harness_sha", a.harness_sha},
          {"harness_version", a.harness_version},
          {"environment", a.environment},
          {"configuration", a.configuration},
          {"benchmark_sources", a.benchmark_sources},
          {"errors", std::move(errors)},
          {"missing_cases", a.missing_cases},
          {"case_count", a.cases.size()},
          {"raw_path", a.raw_path},
          {"superseded", superseded}};
}

/// An injective key of everything series_id hashes besides the attempt part, so that
/// series_id runs once per series instead of once per point.
std::string series_key(const std::string& attempt_part, const MeasuredCase& measured,
                       const std::string& metric, const std::string& unit) {
  std::string key = attempt_part;
  for (const std::string* part : {&measured.name, &measured.source_id, &metric, &unit}) {
    key += std::to_string(part->size());
    key += ':';
    key += *part;
  }
  key += std::to_string(measured.threads);
  key += ':';
  key += std::to_string(measured.repetitions);
  return key;
}

/// The series of the winning successful attempts, gathered commit by commit (oldest first).
class SeriesSet {
 public:
  void add(const HistoryAttempt& winner, std::size_t attempt_pos, std::size_t commit) {
    const std::string attempt_part = series_attempt_part(winner);
    for (const MeasuredCase& c : winner.cases) {
      for (const auto& [metric, value] : c.metrics) {
        auto [found, added] =
            by_key_.emplace(series_key(attempt_part, c, metric, value.unit), series_.size());
        if (added) {
          SeriesColumns s;
          s.id = series_id(attempt_part, c, metric);
          s.first_attempt = &winner;
          s.first_case = &c;
          s.metric = metric;
          s.unit = value.unit;
          series_.push_back(std::move(s));
        }
        SeriesColumns& s = series_[found->second];
        s.commit.push_back(commit);
        s.attempt.push_back(attempt_pos);
        s.median.push_back(value.median);
        s.mad.push_back(value.mad);
        s.min.push_back(value.min);
        s.max.push_back(value.max);
      }
    }
  }

  /// Flags each series and orders them: most points first, then the newest last commit,
  /// then id.
  std::vector<SeriesColumns> finish(const RegressionFlagRule& rule) && {
    std::vector<SeriesPoint> points;
    for (SeriesColumns& s : series_) {
      points.clear();
      for (std::size_t i = 0; i < s.median.size(); ++i) points.push_back({s.median[i], s.mad[i]});
      s.flags = regression_flags(points, rule, s.unit);
    }
    std::sort(series_.begin(), series_.end(), [](const SeriesColumns& a, const SeriesColumns& b) {
      if (a.commit.size() != b.commit.size()) return a.commit.size() > b.commit.size();
      if (a.commit.back() != b.commit.back()) return a.commit.back() > b.commit.back();
      return a.id < b.id;
    });
    return std::move(series_);
  }

 private:
  std::vector<SeriesColumns> series_;
  std::unordered_map<std::string, std::size_t> by_key_;
};

/// The monitored commits, oldest first, each once.
std::vector<std::string> monitored_commits(const Ledger& ledger) {
  std::unordered_set<std::string> seen;
  seen.reserve(ledger.monitored.size());
  std::vector<std::string> shas;
  shas.reserve(ledger.monitored.size());
  for (const std::string& sha : ledger.monitored) {
    if (seen.insert(sha).second) shas.push_back(sha);
  }
  return shas;
}

/// Ordered by path, which names each file once.
Json rejected_json(const std::vector<RejectedAttempt>& rejected) {
  std::vector<const RejectedAttempt*> sorted;
  sorted.reserve(rejected.size());
  for (const RejectedAttempt& r : rejected) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const RejectedAttempt* a, const RejectedAttempt* b) { return a->path < b->path; });
  Json list = Json::array();
  for (const RejectedAttempt* r : sorted) {
    list.push_back({{"id", r->identity}, {"path", r->path}, {"reason", r->reason}});
  }
  return list;
}

Json series_json(const SeriesColumns& s, const std::vector<std::string>& shas) {
  std::vector<int> flag(s.flags.begin(), s.flags.end());
  return {{"id", s.id},
          {"case", s.first_case->name},
          {"metric", s.metric},
          {"unit", s.unit},
          {"label", s.first_attempt->label},
          {"environment", s.first_attempt->environment},
          {"harness_version", s.first_attempt->harness_version},
          {"threads", s.first_case->threads},
          {"count", s.commit.size()},
          {"first_commit", shas[s.commit.front()]},
          {"last_commit", shas[s.commit.back()]},
          {"points",
           {{"commit", s.commit},
            {"median", s.median},
            {"mad", s.mad},
            {"min", s.min},
            {"max", s.max},
            {"attempt", s.attempt},
            {"flag", flag}}}};
}

Json flag_json(const SeriesColumns& s, std::size_t i, const std::vector<std::string>& shas) {
  const double previous = s.median[i - 1];
  const double rise = s.median[i] - previous;
  return {{"series", s.id},
          {"commit", shas[s.commit[i]]},
          {"previous_commit", shas[s.commit[i - 1]]},
          {"median", s.median[i]},
          {"previous_median", previous},
          {"change_percent", previous > 0 ? Json(rise * 100 / previous) : Json(nullptr)}};
}

}  // namespace

Json export_history(const ExportInput& input) {
  const std::vector<HistoryAttempt>& attempts = input.attempts;
  const std::vector<std::size_t> order = attempts_in_start_order(attempts);

  // Each sha's attempts as positions in `order`, oldest start first: the last one wins.
  std::unordered_map<std::string, std::vector<std::size_t>> by_sha;
  by_sha.reserve(attempts.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    by_sha[attempts[order[pos]].identity.sha].push_back(pos);
  }

  Json attempts_json = Json::array();
  attempts_json.get_ref<Json::array_t&>().reserve(order.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    const HistoryAttempt& a = attempts[order[pos]];
    attempts_json.push_back(attempt_json(a, by_sha.at(a.identity.sha).back() != pos));
  }

  const std::vector<std::string> shas = monitored_commits(input.ledger);
  Json commits_json = Json::array();
  std::size_t measured = 0;
  std::size_t failed = 0;
  SeriesSet series;
  for (std::size_t index = 0; index < shas.size(); ++index) {
    const std::string& sha = shas[index];
    const auto info = input.commits.find(sha);
    const bool known = info != input.commits.end();
    Json commit = {{"sha", sha},
                   {"time", known ? Json(info->second.time) : Json(nullptr)},
                   {"summary", known ? Json(info->second.summary) : Json(nullptr)},
                   {"status", "missing"},
                   {"attempt", nullptr},
                   {"attempts", Json::array()}};
    const auto tried = by_sha.find(sha);
    if (tried != by_sha.end()) {
      for (const std::size_t pos : tried->second) {
        commit["attempts"].push_back(attempts[order[pos]].identity.text());
      }
      const std::size_t winner_pos = tried->second.back();
      const HistoryAttempt& winner = attempts[order[winner_pos]];
      commit["attempt"] = winner.identity.text();
      commit["status"] = winner.success ? "measured" : "failed";
      ++(winner.success ? measured : failed);
      if (winner.success) series.add(winner, winner_pos, index);
    }
    commits_json.push_back(std::move(commit));
  }

  Json series_array = Json::array();
  Json flags_array = Json::array();
  for (const SeriesColumns& s : std::move(series).finish(input.flags)) {
    series_array.push_back(series_json(s, shas));
    for (std::size_t i = 1; i < s.flags.size(); ++i) {
      if (s.flags[i]) flags_array.push_back(flag_json(s, i, shas));
    }
  }

  return {{"schema_version", kHistoryExportSchemaVersion},
          {"kind", "perfgate-history"},
          {"generated_at", input.generated_at},
          {"generated_by", "perfgate " + input.perfgate_version},
          {"source_sha", input.source_sha},
          {"branch", input.branch},
          {"archive", input.archive},
          {"baseline", input.ledger.baseline},
          {"current", input.ledger.current},
          {"commits", std::move(commits_json)},
          {"coverage",
           {{"monitored", shas.size()},
            {"measured", measured},
            {"failed", failed},
            {"missing", shas.size() - measured - failed}}},
          {"attempts", std::move(attempts_json)},
          {"rejected", rejected_json(input.rejected)},
          {"series", std::move(series_array)},
          {"flags", std::move(flags_array)}};
}

}  // namespace perfgate::history
