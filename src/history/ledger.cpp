#include "history/ledger.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "history/archive.hpp"
#include "history/history_attempt.hpp"
#include "history/history_document.hpp"
#include "history/series_identity.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"
#include "model/json_reader.hpp"

namespace perfgate::history {

Json to_json(const AcceptedRewrite& rewrite) {
  return {{"old_tip", rewrite.old_tip},
          {"new_tip", rewrite.new_tip},
          {"accepted_at", rewrite.accepted_at},
          {"by", rewrite.by}};
}

AcceptedRewrite read_rewrite(const Json& json, const std::string& source, const std::string& key) {
  JsonObjectReader item(json, source, key);
  AcceptedRewrite rewrite;
  rewrite.old_tip = item.string("old_tip");
  rewrite.new_tip = item.string("new_tip");
  rewrite.accepted_at = item.string("accepted_at");
  rewrite.by = item.string("by");
  return rewrite;
}

Json to_json(const HistoryExtension& extension) {
  return {{"from", extension.from},
          {"to", extension.to},
          {"commits", extension.commits},
          {"extended_at", extension.extended_at},
          {"by", extension.by}};
}

HistoryExtension read_extension(const Json& json, const std::string& source,
                                const std::string& key) {
  JsonObjectReader item(json, source, key);
  HistoryExtension extension;
  extension.from = item.string("from");
  extension.to = item.string("to");
  extension.commits = static_cast<int>(item.integer("commits"));
  extension.extended_at = item.string("extended_at");
  extension.by = item.string("by");
  return extension;
}

void read_history_changes(const Json& json, const std::string& source,
                          std::vector<AcceptedRewrite>& rewrites,
                          std::vector<HistoryExtension>& extensions) {
  JsonObjectReader reader(json, source, "");
  if (json.contains("extensions")) {
    const Json& items = reader.array("extensions");
    for (std::size_t i = 0; i < items.size(); ++i) {
      extensions.push_back(
          read_extension(items[i], source, "extensions[" + std::to_string(i) + "]"));
    }
  }
  if (json.contains("rewrites")) {
    const Json& items = reader.array("rewrites");
    for (std::size_t i = 0; i < items.size(); ++i) {
      rewrites.push_back(read_rewrite(items[i], source, "rewrites[" + std::to_string(i) + "]"));
    }
  }
}

void write_history_changes(Json& json, const std::vector<AcceptedRewrite>& rewrites,
                           const std::vector<HistoryExtension>& extensions) {
  if (!extensions.empty()) {
    json["extensions"] = Json::array();
    for (const HistoryExtension& extension : extensions) {
      json["extensions"].push_back(to_json(extension));
    }
  }
  if (!rewrites.empty()) {
    json["rewrites"] = Json::array();
    for (const AcceptedRewrite& rewrite : rewrites) json["rewrites"].push_back(to_json(rewrite));
  }
}

Json to_json(const Ledger& ledger) {
  Json attempts = Json::object();
  for (const auto& [id, summary] : ledger.attempts) {
    attempts[id] = {{"status", summary.success ? "success" : "failure"},
                    {"started_at", summary.started_at}};
    if (!summary.environment.empty()) attempts[id]["environment"] = summary.environment;
    if (!summary.setup.empty()) attempts[id]["setup"] = summary.setup;
  }
  Json json = {{"schema_version", kHistorySchemaVersion},
               {"kind", "perfgate-history-ledger"},
               {"branch", ledger.branch},
               {"baseline", ledger.baseline},
               {"current", ledger.current},
               {"monitored", ledger.monitored},
               {"attempts", attempts}};
  write_history_changes(json, ledger.rewrites, ledger.extensions);
  return json;
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
    AttemptSummary& entry = ledger.attempts[id];
    entry.success = status == "success";
    entry.started_at = item.string("started_at");
    // Absent in a ledger an older perfgate wrote: complete_ledger reads them.
    entry.environment = item.optional_string("environment").value_or("");
    entry.setup = item.optional_string("setup").value_or("");
  }
  read_history_changes(json, source, ledger.rewrites, ledger.extensions);
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
      const bool accepted = std::any_of(observed.rewrites.begin(), observed.rewrites.end(),
                                        [&](const AcceptedRewrite& rewrite) {
                                          return rewrite.old_tip == previous->current &&
                                                 (rewrite.new_tip == observed.current ||
                                                  is_ancestor(rewrite.new_tip, observed.current));
                                        });
      if (!accepted) {
        throw Error(ExitCode::kDataError,
                    "branch '" + previous->branch + "' moved from " + previous->current + " to " +
                        observed.current +
                        ", which does not contain it: the history was rewritten (a force "
                        "push). A person must review it; perfgate never resets the monitored "
                        "history. Once reviewed, 'perfgate history plan --accept-rewrite' "
                        "records the rewrite and monitors the new path, keeping every attempt "
                        "and every commit monitored so far");
      }
      merged.current = observed.current;
    }
  }
  for (const HistoryExtension& extension : observed.extensions) {
    if (std::find(merged.extensions.begin(), merged.extensions.end(), extension) ==
        merged.extensions.end()) {
      merged.extensions.push_back(extension);
    }
  }
  for (const AcceptedRewrite& rewrite : observed.rewrites) {
    if (std::find(merged.rewrites.begin(), merged.rewrites.end(), rewrite) ==
        merged.rewrites.end()) {
      merged.rewrites.push_back(rewrite);
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

AttemptSummary summary_of(const HistoryAttempt& attempt) {
  AttemptSummary summary;
  summary.success = attempt.success;
  summary.started_at = attempt.started_at;
  summary.environment = environment_id(attempt);
  summary.setup = setup_id(attempt);
  return summary;
}

std::size_t complete_ledger(Ledger& ledger, const ArchiveSnapshot& snapshot,
                            const std::string& archive_url) {
  std::size_t filled = 0;
  for (auto& [id, summary] : ledger.attempts) {
    if (!summary.environment.empty() && !summary.setup.empty()) continue;
    const std::string path = "attempts/" + id + ".json";
    const std::optional<std::string> text = snapshot.read(path);
    if (!text) continue;
    try {
      const HistoryAttempt attempt = read_attempt(*text, archive_url + "/" + path);
      summary.environment = environment_id(attempt);
      summary.setup = setup_id(attempt);
      ++filled;
    } catch (const Error&) {
      // An attempt that fails validation is the export's to report; here it counts for no
      // environment, so no plan takes it for a measurement.
    }
  }
  return filled;
}

std::map<std::string, CommitState> commit_states(const Ledger& ledger,
                                                 const std::string& environment,
                                                 const std::string& setup) {
  // The winner per commit: the latest start; at the same instant the greater identity, as
  // the export decides, so that plan and history.json never disagree.
  struct Latest {
    std::string started_at;
    std::optional<AttemptIdentity> identity;
    bool success = false;
  };
  std::map<std::string, Latest> latest;
  for (const auto& [id, summary] : ledger.attempts) {
    if (summary.environment != environment || summary.setup != setup) continue;
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
