// history publish: a batch into the archive, as one change that lands whole.
#include <set>

#include "fleet/work_queue.hpp"
#include "history/batch_folder.hpp"
#include "history/commit_measurement.hpp"
#include "history/history_steps.hpp"
#include "history/ledger.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"

namespace perfgate::history {
namespace {

std::string baseline_document(const PlanFile& plan) {
  return pretty_json(Json{{"schema_version", kHistorySchemaVersion},
                          {"kind", "perfgate-history-baseline"},
                          {"branch", plan.branch},
                          {"baseline", plan.baseline},
                          {"recorded_at", utc_now_with_microseconds()}});
}

void check_baseline(const ArchiveSnapshot& snapshot, const std::string& url, const PlanFile& plan) {
  const std::optional<std::string> recorded_sha = recorded_activation(snapshot, url);
  if (!recorded_sha) return;
  const std::string& recorded = *recorded_sha;
  if (recorded != plan.baseline) {
    throw Error(ExitCode::kDataError,
                url + "/baseline.json: records activation commit '" + recorded +
                    "', but the batch was planned from " + plan.baseline +
                    ". The monitoring baseline is never moved silently: publish it to the "
                    "archive it was planned for");
  }
}

/// What makes a batch stale: attempts of its commits, on its machine in its setup, that
/// other batches started after its plan was made.
struct StaleCheck {
  std::string batch;       ///< the batch folder, for the message
  std::string planned_at;  ///< the plan's created_at
};

// The lines naming each attempt of the batch whose commit was measured again meanwhile.
std::vector<std::string> stale_attempts(const Ledger& archived,
                                        const std::map<std::string, AttemptSummary>& batch,
                                        const std::string& planned_at) {
  std::vector<std::string> lines;
  for (const auto& [id, mine] : batch) {
    for (const auto& [other_id, other] : archived.attempts) {
      if (batch.count(other_id) || other_id.compare(0, 40, id, 0, 40) != 0) continue;
      if (other.environment != mine.environment || other.setup != mine.setup) continue;
      if (!instant_before(planned_at, other.started_at)) continue;
      lines.push_back("  " + id.substr(0, 12) + ": " + other_id + " started " + other.started_at);
      break;
    }
  }
  return lines;
}

// One change that lands whole: the attempts' files, the merged ledger and, the first time,
// the baseline.
PublishOutcome publish_attempts(const HistorySetup& setup, const PlanFile& plan,
                                const std::map<std::string, std::string>& files,
                                const std::map<std::string, AttemptSummary>& attempts,
                                const std::string& message,
                                const std::optional<StaleCheck>& stale = std::nullopt) {
  Ledger observed;
  observed.branch = plan.branch;
  observed.baseline = plan.baseline;
  observed.current = plan.current;
  observed.monitored = plan.monitored;
  observed.attempts = attempts;
  observed.rewrites = plan.rewrites;      // a rewrite the plan accepted lands with the batch
  observed.extensions = plan.extensions;  // and so does an extension further back
  const std::string baseline = baseline_document(plan);
  const GitRepository& repository = *setup.repository;
  return setup.archive->publish([&](const ArchiveSnapshot& snapshot) {
    check_baseline(snapshot, setup.archive->url(), plan);
    std::optional<Ledger> previous;
    if (const auto text = snapshot.read("plan.json")) {
      previous = read_ledger(*text, setup.archive->url() + "/plan.json");
      // A ledger an older perfgate wrote learns each attempt's environment and setup once.
      complete_ledger(*previous, snapshot, setup.archive->url());
      if (stale) {
        const std::vector<std::string> lines =
            stale_attempts(*previous, attempts, stale->planned_at);
        if (!lines.empty()) {
          std::string text = stale->batch + ": nothing was published: its plan (made " +
                             stale->planned_at + ") is stale. Since then, " +
                             std::to_string(lines.size()) +
                             " of its commits were measured on the same machine in the same "
                             "setup by another batch:";
          for (const std::string& line : lines) text += "\n" + line;
          text +=
              "\nPublishing it would give them a second attempt. Plan again and measure the "
              "new plan, or pass --accept-stale to publish it all the same (the newer attempt "
              "wins)";
          throw Error(ExitCode::kDataError, text);
        }
      }
    }
    const Ledger merged = merge_ledger(previous, observed, [&](const auto& a, const auto& d) {
      return repository.is_ancestor(a, d);
    });
    ArchiveChange change;
    change.create = files;
    if (!snapshot.read("baseline.json")) change.create["baseline.json"] = baseline;
    change.replace["plan.json"] = pretty_json(to_json(merged));
    change.message = message;
    return change;
  });
}

}  // namespace

PublishOutcome publish_batch(const HistorySetup& setup, const std::filesystem::path& batch_dir,
                             bool accept_stale) {
  const Batch batch = read_batch(batch_dir);
  if (!batch.rejected.empty()) {
    std::string message = batch_dir.string() + ": nothing was published; invalid attempts:";
    for (const auto& [file, reason] : batch.rejected) message += "\n  " + reason;
    throw Error(ExitCode::kDataError, message);
  }
  if (batch.plan.branch != setup.config.branch) {
    throw Error(ExitCode::kDataError, batch_dir.string() + ": measured branch '" +
                                          batch.plan.branch + "', but perfgate.toml monitors '" +
                                          setup.config.branch + "'. Publish it to its own archive");
  }
  std::map<std::string, std::string> files;
  std::map<std::string, AttemptSummary> attempts;
  for (const BatchAttempt& entry : batch.attempts) {
    const std::string id = entry.attempt.identity.text();
    files["attempts/" + id + ".json"] = entry.text;
    for (auto& [path, content] : read_raw_files(batch, entry.attempt)) files[path] = content;
    attempts[id] = summary_of(entry.attempt);
  }
  std::optional<StaleCheck> stale;
  if (!accept_stale) stale = StaleCheck{batch_dir.string(), batch.plan.created_at};
  return publish_attempts(setup, batch.plan, files, attempts,
                          "perfgate history: publish run " + batch.status.run + " attempt " +
                              std::to_string(batch.status.attempt) + " (" +
                              std::to_string(batch.attempts.size()) + " attempts)",
                          stale);
}

PublishOutcome publish_measured(const HistorySetup& setup,
                                const std::vector<HistoryAttempt>& attempts,
                                const std::filesystem::path& folder, const std::string& message,
                                std::size_t& left_out) {
  const PlanFile plan = plan_history(setup, PlanOptions{});
  const std::set<std::string> monitored(plan.monitored.begin(), plan.monitored.end());
  Batch raw;
  raw.folder = folder;
  std::map<std::string, std::string> files;
  std::map<std::string, AttemptSummary> summaries;
  left_out = 0;
  for (const HistoryAttempt& attempt : attempts) {
    if (!monitored.contains(attempt.identity.sha)) {
      ++left_out;
      continue;
    }
    const std::string id = attempt.identity.text();
    files["attempts/" + id + ".json"] = pretty_json(to_json(attempt));
    for (auto& [path, content] : read_raw_files(raw, attempt)) files[path] = content;
    summaries[id] = summary_of(attempt);
  }
  if (summaries.empty()) return {};
  return publish_attempts(setup, plan, files, summaries, message);
}

PublishOutcome publish_queue(const HistorySetup& setup, const std::string& store_url) {
  WorkQueue queue(store_url);
  // The branch as this checkout sees it now: what the ledger records beside the attempts.
  const PlanFile plan = plan_history(setup, PlanOptions{});
  const std::set<std::string> monitored(plan.monitored.begin(), plan.monitored.end());
  std::map<std::string, std::string> files;
  std::map<std::string, AttemptSummary> attempts;
  for (const WorkItemStatus& status : queue.list()) {
    if (status.item.suite != setup.config.suite || !monitored.contains(status.item.commit_sha)) {
      continue;
    }
    for (const std::string& text : queue.attempt_documents(status.item.item_id)) {
      const std::string source =
          queue.url() + " (work item " + std::to_string(status.item.item_id) + ")";
      const HistoryAttempt attempt = read_attempt_strict(text, source);
      if (attempt.identity.sha != status.item.commit_sha) {
        throw Error(ExitCode::kDataError, source + ": holds an attempt of " + attempt.identity.sha +
                                              ", not of the item's commit " +
                                              status.item.commit_sha +
                                              ". Nothing was published; check who writes to the "
                                              "queue");
      }
      const std::string id = attempt.identity.text();
      files["attempts/" + id + ".json"] = text;
      attempts[id] = summary_of(attempt);
    }
  }
  return publish_attempts(setup, plan, files, attempts,
                          "perfgate history: publish " + std::to_string(attempts.size()) +
                              " attempts of the work queue of " + queue.url());
}

}  // namespace perfgate::history
