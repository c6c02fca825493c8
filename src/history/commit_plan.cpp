#include "history/commit_plan.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "history/history_attempt.hpp"
#include "history/history_document.hpp"
#include "model/compact_json.hpp"
#include "model/error.hpp"
#include "model/json_reader.hpp"

namespace perfgate::history {
namespace {

CommitState state_of(const PlanRequest& request, const std::string& sha) {
  const auto it = request.states.find(sha);
  return it == request.states.end() ? CommitState::kMissing : it->second;
}

std::vector<std::string> strings(JsonObjectReader& reader, const std::string& key) {
  std::vector<std::string> list;
  for (const Json& item : reader.array(key)) {
    if (!item.is_string()) reader.fail(key, "holds a value that is not a SHA", "Plan again");
    list.push_back(item.get<std::string>());
  }
  return list;
}

template <class Item>
Json to_json_array(const std::vector<Item>& items) {
  Json array = Json::array();
  for (const Item& item : items) array.push_back(to_json(item));
  return array;
}

/// A new commit's flags compare it with the nearest commits on either side that have a
/// successful measurement. Measured in another batch, at another moment of the machine, a
/// load that came and went between the two would flag a commit that changes nothing. So
/// those neighbours are measured again beside the new commits, next to them in the order
/// (one alternation group), with what the budget has left after every commit it chose: a
/// bridge never displaces a missing commit.
void add_bridges(const PlanRequest& request, std::set<std::string>& chosen, CommitPlan& plan) {
  // Where the chosen commits are: one pass, a lookup among the few chosen per commit (a long
  // history monitors hundreds of thousands).
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < request.monitored.size(); ++i) {
    if (chosen.count(request.monitored[i])) position.emplace(request.monitored[i], i);
  }
  const auto neighbour = [&](const std::string& sha, bool later) -> std::optional<std::string> {
    const auto at = position.find(sha);
    if (at == position.end()) return std::nullopt;
    for (std::size_t i = at->second; later ? i + 1 < request.monitored.size() : i > 0;) {
      i = later ? i + 1 : i - 1;
      const std::string& other = request.monitored[i];
      if (chosen.count(other)) return std::nullopt;  // measured in this batch anyway
      const CommitState state = state_of(request, other);
      if (state == CommitState::kMeasured) return other;
      if (state == CommitState::kMissing) return std::nullopt;  // its neighbour will change
    }
    return std::nullopt;  // only failed commits up to the end
  };
  const std::vector<std::string> fresh = plan.selected;  // confirming pairs need no bridge
  for (const std::string& sha : fresh) {
    if (std::find(plan.confirming.begin(), plan.confirming.end(), sha) != plan.confirming.end())
      continue;
    for (const bool later : {false, true}) {
      if (static_cast<int>(plan.selected.size()) >= request.max) return;
      const std::optional<std::string> other = neighbour(sha, later);
      if (!other) continue;
      chosen.insert(*other);
      const auto at = std::find(plan.selected.begin(), plan.selected.end(), sha);
      plan.selected.insert(later ? std::next(at) : at, *other);
      plan.bridging.push_back(*other);
    }
  }
}

}  // namespace

CommitPlan plan_commits(const PlanRequest& request) {
  std::set<std::string> chosen;
  CommitPlan plan;
  const auto choose = [&](const std::string& sha) {
    if (chosen.insert(sha).second) plan.selected.push_back(sha);
  };
  if (request.commit) {
    if (std::find(request.monitored.begin(), request.monitored.end(), *request.commit) ==
        request.monitored.end()) {
      throw Error(ExitCode::kUsage, "--commit: " + *request.commit +
                                        " is not a monitored commit of the branch. Name a full "
                                        "SHA between the activation commit and the target");
    }
    choose(*request.commit);
  } else {
    const auto wanted = [&](const std::string& sha) {
      const CommitState state = state_of(request, sha);
      return state == CommitState::kMissing || (request.retry && state == CommitState::kFailed);
    };
    // A flag is confirmed by measuring both of its commits again: a pair at a time, so that
    // the budget never buys half a confirmation.
    const auto monitored = [&](const std::string& sha) {
      return std::find(request.monitored.begin(), request.monitored.end(), sha) !=
             request.monitored.end();
    };
    for (const std::string& sha : request.backfill) {
      if (static_cast<int>(plan.selected.size()) >= request.max) break;
      if (wanted(sha)) choose(sha);
    }
    if (request.max > 0 && request.backfill.empty() && wanted(request.target)) {
      choose(request.target);
    }
    for (const auto& [previous, flagged] : request.confirm) {
      if (!monitored(previous) || !monitored(flagged)) continue;
      const int cost = static_cast<int>(!chosen.count(previous)) + !chosen.count(flagged);
      if (static_cast<int>(plan.selected.size()) + cost > request.max) break;
      for (const std::string* sha : {&previous, &flagged}) {
        if (chosen.count(*sha)) continue;
        choose(*sha);
        plan.confirming.push_back(*sha);
      }
    }

    for (const std::string& sha : request.monitored) {
      if (!request.backfill.empty()) break;  // a backfill is all this plan measures
      if (static_cast<int>(plan.selected.size()) >= request.max) break;
      if (wanted(sha)) choose(sha);
    }
    if (request.bridge && request.backfill.empty()) add_bridges(request, chosen, plan);
  }
  for (const std::string& sha : request.monitored) {
    if (chosen.count(sha)) continue;
    switch (state_of(request, sha)) {
      case CommitState::kMissing:
        plan.missing.push_back(sha);
        break;
      case CommitState::kFailed:
        plan.failed.push_back(sha);
        break;
      case CommitState::kMeasured:
        plan.measured.push_back(sha);
        break;
    }
  }
  return plan;
}

Json to_json(const PlanFile& file) {
  Json json = {{"schema_version", kHistorySchemaVersion},
               {"kind", "perfgate-history-plan"},
               {"branch", file.branch},
               {"archive", file.archive},
               {"baseline", file.baseline},
               {"target", file.target},
               {"current", file.current},
               {"harness_sha", file.harness_sha},
               {"harness_version", file.harness_version},
               {"environment", file.environment},
               {"setup", file.setup},
               {"created_at", file.created_at},
               {"retry", file.retry},
               {"monitored", file.monitored},
               {"selected", file.plan.selected},
               {"confirming", file.plan.confirming},
               {"bridging", file.plan.bridging},
               {"missing", file.plan.missing},
               {"failed", file.plan.failed},
               {"measured", file.plan.measured}};
  write_history_changes(json, file.rewrites, file.extensions);
  return json;
}

std::string plan_file_text(const PlanFile& file) {
  // nlohmann's indented layout: two spaces per level, one member or item per line, an
  // empty array as [], members in sorted key order.
  std::string out = "{";
  bool first = true;
  const auto key = [&](std::string_view name) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    append_json_string(name, out);
    out += ": ";
  };
  const auto text = [&](std::string_view name, std::string_view value) {
    key(name);
    append_json_string(value, out);
  };
  const auto list = [&](std::string_view name, const std::vector<std::string>& items) {
    key(name);
    if (items.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      out += i == 0 ? "\n    " : ",\n    ";
      append_json_string(items[i], out);
    }
    out += "\n  ]";
  };
  // Few and small: nlohmann's layout of them, re-indented one level.
  const auto nested = [&](const Json& items) {
    std::string text_of = items.dump(2);
    for (std::size_t at = text_of.find('\n'); at != std::string::npos;
         at = text_of.find('\n', at + 1)) {
      text_of.insert(at + 1, "  ");
    }
    out += text_of;
  };
  text("archive", file.archive);
  text("baseline", file.baseline);
  text("branch", file.branch);
  list("bridging", file.plan.bridging);
  list("confirming", file.plan.confirming);
  text("created_at", file.created_at);
  text("current", file.current);
  text("environment", file.environment);
  if (!file.extensions.empty()) {
    key("extensions");
    nested(to_json_array(file.extensions));
  }
  list("failed", file.plan.failed);
  text("harness_sha", file.harness_sha);
  key("harness_version");
  out += std::to_string(file.harness_version);
  text("kind", "perfgate-history-plan");
  list("measured", file.plan.measured);
  list("missing", file.plan.missing);
  list("monitored", file.monitored);
  key("retry");
  out += file.retry ? "true" : "false";
  if (!file.rewrites.empty()) {
    key("rewrites");
    nested(to_json_array(file.rewrites));
  }
  key("schema_version");
  out += std::to_string(kHistorySchemaVersion);
  list("selected", file.plan.selected);
  text("setup", file.setup);
  text("target", file.target);
  out += "\n}\n";
  return out;
}

PlanFile read_plan_file(const std::string& text, const std::string& source) {
  const Json json = parse_history_object(
      text, source, "Write the plan with 'perfgate history plan -o plan.json'");
  JsonObjectReader reader(json, source, "");
  if (reader.optional_string("kind").value_or("") != "perfgate-history-plan") {
    reader.fail("kind", "this is not a history plan",
                "Write the plan with 'perfgate history plan -o plan.json'");
  }
  check_history_schema(reader, "plan again with this perfgate");
  PlanFile file;
  file.branch = reader.string("branch");
  file.archive = reader.string("archive");
  file.baseline = reader.string("baseline");
  file.target = reader.string("target");
  file.current = reader.string("current");
  file.harness_sha = reader.string("harness_sha");
  file.harness_version = static_cast<int>(reader.integer("harness_version"));
  file.created_at = reader.string("created_at");
  file.retry = reader.boolean("retry");
  file.monitored = strings(reader, "monitored");
  file.plan.selected = strings(reader, "selected");
  file.plan.missing = strings(reader, "missing");
  file.plan.failed = strings(reader, "failed");
  file.plan.measured = strings(reader, "measured");
  // Plans written before environments and setups were planned for have neither.
  file.environment = reader.optional_string("environment").value_or("");
  file.setup = reader.optional_string("setup").value_or("");
  read_history_changes(json, source, file.rewrites, file.extensions);
  // Plans written before --confirm-flags have no "confirming".
  if (json.contains("confirming")) file.plan.confirming = strings(reader, "confirming");
  // Nor before bridges.
  if (json.contains("bridging")) file.plan.bridging = strings(reader, "bridging");
  return file;
}

}  // namespace perfgate::history
