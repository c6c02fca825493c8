// history publish: a batch into the archive, as one change that lands whole.
#include "history/batch_folder.hpp"
#include "history/commit_measurement.hpp"
#include "history/history_steps.hpp"
#include "history/ledger.hpp"
#include "model/error.hpp"

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

}  // namespace

PublishOutcome publish_batch(const HistorySetup& setup, const std::filesystem::path& batch_dir) {
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
  Ledger observed;
  observed.branch = batch.plan.branch;
  observed.baseline = batch.plan.baseline;
  observed.current = batch.plan.current;
  observed.monitored = batch.plan.monitored;
  for (const BatchAttempt& entry : batch.attempts) {
    const std::string id = entry.attempt.identity.text();
    files["attempts/" + id + ".json"] = entry.text;
    for (auto& [path, content] : read_raw_files(batch, entry.attempt)) files[path] = content;
    observed.attempts[id] = {entry.attempt.success, entry.attempt.started_at};
  }
  const std::string baseline = baseline_document(batch.plan);
  const GitRepository& repository = *setup.repository;
  return setup.archive->publish([&](const ArchiveSnapshot& snapshot) {
    check_baseline(snapshot, setup.archive->url(), batch.plan);
    std::optional<Ledger> previous;
    if (const auto text = snapshot.read("plan.json")) {
      previous = read_ledger(*text, setup.archive->url() + "/plan.json");
    }
    const Ledger merged = merge_ledger(previous, observed, [&](const auto& a, const auto& d) {
      return repository.is_ancestor(a, d);
    });
    ArchiveChange change;
    change.create = files;
    if (!snapshot.read("baseline.json")) change.create["baseline.json"] = baseline;
    change.replace["plan.json"] = pretty_json(to_json(merged));
    change.message = "perfgate history: publish run " + batch.status.run + " attempt " +
                     std::to_string(batch.status.attempt) + " (" +
                     std::to_string(batch.attempts.size()) + " attempts)";
    return change;
  });
}

}  // namespace perfgate::history
