#include "bisect/archived_runs.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "history/archive.hpp"
#include "history/history_attempt.hpp"
#include "history/series_identity.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"
#include "model/normalize.hpp"

namespace perfgate::bisect {
namespace {

/// An attempt of one of the path's commits, read from the archive.
struct ArchivedAttempt {
  std::size_t index = 0;
  history::HistoryAttempt attempt;
};

bool in_series(const history::HistoryAttempt& attempt, const ArchiveMatch& match) {
  if (!attempt.success || history::environment_id(attempt) != match.environment ||
      history::setup_id(attempt) != match.setup) {
    return false;
  }
  return std::any_of(
      attempt.cases.begin(), attempt.cases.end(), [&](const history::MeasuredCase& measured) {
        return measured.name == match.case_name && measured.metrics.count(match.metric) > 0;
      });
}

/// The samples of the case's metric in the attempt's published raw records; nullopt when
/// none of them is the case's (raw files are optional in an archive).
std::optional<std::vector<double>> raw_samples(const history::ArchiveSnapshot& snapshot,
                                               const std::string& url,
                                               const history::HistoryAttempt& attempt,
                                               const ArchiveMatch& match) {
  const std::string folder = attempt.raw_path + "results";
  for (const std::string& name : snapshot.list(folder)) {
    if (!name.ends_with(".json")) continue;
    const std::string path = folder + "/" + name;
    const std::optional<std::string> text = snapshot.read(path);
    if (!text) continue;
    // Worker logs and other JSON share the folder: only a raw record of the case counts.
    const Json raw = Json::parse(*text, nullptr, false);
    if (raw.is_discarded() || !raw.is_object() ||
        raw.value("benchmark_id", Json()) != match.case_name) {
      continue;
    }
    const NormalizedRecord record = normalize_raw_record(raw, url + "/" + path, "", {});
    const auto metric = record.metrics.find(match.metric);
    if (!record.success || metric == record.metrics.end() || metric->second.samples.empty()) {
      return std::nullopt;
    }
    return metric->second.samples;
  }
  return std::nullopt;
}

}  // namespace

std::size_t ArchivedRuns::total() const {
  return std::accumulate(
      runs.begin(), runs.end(), std::size_t{0},
      [](std::size_t sum, const auto& entry) { return sum + entry.second.size(); });
}

ArchivedRuns archived_runs(const history::ArchiveSnapshot& snapshot, const std::string& url,
                           const std::vector<std::string>& shas, const ArchiveMatch& match) {
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < shas.size(); ++i) index_of.emplace(shas[i], i);

  ArchivedRuns found;
  std::vector<ArchivedAttempt> attempts;
  for (const std::string& name : snapshot.list("attempts")) {
    if (!name.ends_with(".json")) continue;
    const auto identity = history::parse_attempt_identity(name.substr(0, name.size() - 5));
    if (!identity) continue;
    const auto index = index_of.find(identity->sha);
    if (index == index_of.end()) continue;
    const std::string path = "attempts/" + name;
    const std::optional<std::string> text = snapshot.read(path);
    if (!text) continue;
    try {
      history::HistoryAttempt attempt = history::read_attempt(*text, url + "/" + path);
      if (in_series(attempt, match)) attempts.push_back({index->second, std::move(attempt)});
    } catch (const Error& error) {
      found.notes.push_back(std::string(error.what()) + ": not counted");
    }
  }
  // Oldest first, so that the runs of a commit come in the order they were taken.
  std::stable_sort(attempts.begin(), attempts.end(),
                   [](const ArchivedAttempt& a, const ArchivedAttempt& b) {
                     return instant_before(a.attempt.started_at, b.attempt.started_at);
                   });
  for (const ArchivedAttempt& archived : attempts) {
    const std::string identity = archived.attempt.identity.text();
    std::optional<std::vector<double>> samples;
    try {
      samples = raw_samples(snapshot, url, archived.attempt, match);
    } catch (const Error& error) {
      found.notes.push_back(std::string(error.what()) + ": attempt " + identity + " not counted");
      continue;
    }
    if (samples &&
        std::any_of(samples->begin(), samples->end(), [](double v) { return !(v > 0); })) {
      found.notes.push_back("attempt " + identity + ": a run's " + match.metric +
                            " is not above 0, which a bisection cannot compare: not counted");
      continue;
    }
    if (!samples) {
      found.notes.push_back("attempt " + identity + ": its raw record of " + match.case_name +
                            " with the runs' " + match.metric +
                            " is not in the archive: not counted");
      continue;
    }
    std::deque<double>& runs = found.runs[archived.index];
    runs.insert(runs.end(), samples->begin(), samples->end());
    found.attempts.push_back(identity);
  }
  return found;
}

}  // namespace perfgate::bisect
