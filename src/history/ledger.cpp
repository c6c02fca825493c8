#include "history/ledger.hpp"

#include <unordered_map>
#include <unordered_set>

#include "history/history_attempt.hpp"
#include "history/history_document.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"
#include "model/json_reader.hpp"

namespace perfgate::history {

Json to_json(const Ledger& ledger) {
  Json attempts = Json::object();
  for (const auto& [id, summary] : ledger.attempts) {
    attempts[id] = {{"status", summary.success ? "success" : "failure"},
                    {"started_at", summary.started_at}};
  }
  return {{"schema_version", kHistorySchemaVersion},
          {"kind", "perfgate-history-ledger"},
          {"branch", ledger.branch},
          {"baseline", ledger.baseline},
          {"current", ledger.current},
          {"monitored", ledger.monitored},
          {"attempts", attempts}};
}

Ledger read_ledger(const std::string& text, const std::string& source) {
  const Json json = parse_history_object(
      text, source, "The ledger is damaged; restore plan.json from the archive's history");
  JsonObjectReader reader(json, source, "");
  check_history_schema(reader, "a newer perfgate wrote this archive; upgrade perfgate");
  Ledger ledger;
  ledger.branch = reader.string("branch");
  ledger.baseline = reader.string("baseline");
  ledger.current = reader.string("current");
  const Json& monitored = reader.array("monitored");
  ledger.monitored.reserve(monitored.size());
  for (const Json& sha : monitored) {
    if (!sha.is_string()) reader.fail("monitored", "holds a value that is not a SHA", "Restore it");
    ledger.monitored.push_back(sha.get<std::string>());
  }
  for (const auto& [id, summary] : reader.object("attempts").items()) {
    JsonObjectReader item(summary, source, "attempts." + id);
    const std::string status = item.string("status");
    if (status != "success" && status != "failure") {
      item.fail("attempts." + id + ".status", "'" + status + "' is neither success nor failure",
                "Restore plan.json from the archive's history");
    }
    ledger.attempts[id] = {status == "success", item.string("started_at")};
  }
  return ledger;
}

Ledger merge_ledger(const std::optional<Ledger>& previous, Ledger observed,
                    const AncestryCheck& is_ancestor) {
  if (!previous) return observed;
  if (previous->baseline != observed.baseline) {
    throw Error(ExitCode::kDataError,
                "the archive's activation commit is " + previous->baseline + ", not " +
                    observed.baseline +
                    ". The monitoring baseline is never moved silently: start a new archive for "
                    "another activation commit");
  }
  Ledger merged = *previous;
  if (observed.current != previous->current) {
    if (is_ancestor(previous->current, observed.current)) {
      merged.current = observed.current;
    } else if (!is_ancestor(observed.current, previous->current)) {
      throw Error(ExitCode::kDataError,
                  "branch '" + previous->branch + "' moved from " + previous->current + " to " +
                      observed.current +
                      ", which does not contain it: the history was rewritten (a force push). "
                      "A person must review it; perfgate never resets the monitored history");
    }
  }
  std::unordered_set<std::string> known(merged.monitored.begin(), merged.monitored.end());
  std::vector<std::string> result;
  result.reserve(merged.monitored.size() + observed.monitored.size());
  // New commits go after the commit that precedes them in the observed path: walk the
  // observed path and splice in front of the next known commit.
  std::unordered_map<std::string, std::vector<std::string>> after;
  std::vector<std::string> before_all;
  const std::string* last_known = nullptr;
  for (const std::string& sha : observed.monitored) {
    if (known.count(sha)) {
      last_known = &sha;
    } else if (last_known == nullptr) {
      before_all.push_back(sha);
    } else {
      after[*last_known].push_back(sha);
    }
  }
  result.insert(result.end(), before_all.begin(), before_all.end());
  for (const std::string& sha : merged.monitored) {
    result.push_back(sha);
    if (auto it = after.find(sha); it != after.end()) {
      result.insert(result.end(), it->second.begin(), it->second.end());
    }
  }
  merged.monitored = std::move(result);
  for (const auto& [id, summary] : observed.attempts) merged.attempts.emplace(id, summary);
  return merged;
}

std::map<std::string, CommitState> commit_states(const Ledger& ledger) {
  // The winner per commit: the latest start; at the same instant the greater identity, as
  // the export decides, so that plan and history.json never disagree.
  struct Latest {
    std::string started_at;
    std::optional<AttemptIdentity> identity;
    bool success = false;
  };
  std::map<std::string, Latest> latest;
  for (const auto& [id, summary] : ledger.attempts) {
    const std::string sha = id.substr(0, 40);
    Latest candidate{summary.started_at, parse_attempt_identity(id), summary.success};
    auto it = latest.find(sha);
    if (it == latest.end()) {
      latest.emplace(sha, std::move(candidate));
      continue;
    }
    const Latest& held = it->second;
    const bool later = instant_before(held.started_at, candidate.started_at);
    const bool same_instant = !later && !instant_before(candidate.started_at, held.started_at);
    if (later || (same_instant && held.identity < candidate.identity)) it->second = candidate;
  }
  std::map<std::string, CommitState> states;
  for (const auto& [sha, state] : latest) {
    states[sha] = state.success ? CommitState::kMeasured : CommitState::kFailed;
  }
  return states;
}

}  // namespace perfgate::history
