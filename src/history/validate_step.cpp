// history validate: the step that fails when the target commit has no valid measurement.
// Failures of older commits (a backfill) are reported, and do not fail a newer target.
#include <fmt/format.h>

#include "history/batch_folder.hpp"
#include "history/commit_measurement.hpp"
#include "history/history_steps.hpp"
#include "history/ledger.hpp"
#include "history/series_identity.hpp"
#include "model/error.hpp"
#include "model/instant.hpp"

namespace perfgate::history {

BatchVerdict validate_batch(const HistorySetup& setup, const std::filesystem::path& batch_dir) {
  const Batch batch = read_batch(batch_dir);
  BatchVerdict verdict;
  if (!batch.rejected.empty()) {
    std::string message = batch_dir.string() + ": invalid attempt files:";
    for (const auto& [file, reason] : batch.rejected) message += "\n  " + reason;
    throw Error(ExitCode::kDataError, message);
  }
  // The target's latest attempt on the batch's machine in the setup perfgate.toml gives
  // now, whether in the batch or already published: another machine's or an old
  // configuration's measurement does not validate it (issue 35). A batch an older perfgate
  // wrote does not name its machine: then any machine's counts.
  const std::string setup_key =
      setup_id(configuration_of(setup.config), setup.config.harness_version);
  const std::string& environment = batch.status.environment;
  std::optional<AttemptSummary> latest;
  std::size_t elsewhere = 0;
  const auto consider = [&](const AttemptSummary& summary) {
    if (summary.setup != setup_key ||
        (!environment.empty() && summary.environment != environment)) {
      ++elsewhere;
      return;
    }
    if (!latest || instant_before(latest->started_at, summary.started_at)) latest = summary;
  };
  for (const BatchAttempt& entry : batch.attempts) {
    const HistoryAttempt& attempt = entry.attempt;
    std::string line =
        fmt::format("{} {} {}", attempt.success ? "ok     " : "FAILED ", attempt.identity.text(),
                    attempt.success ? fmt::format("{} cases", attempt.cases.size())
                                    : attempt.errors.front().stage);
    if (!attempt.success) {
      const std::string& message = attempt.errors.front().message;
      line += ": " + message.substr(0, message.find('\n'));
    }
    verdict.lines.push_back(line);
    if (attempt.identity.sha == batch.plan.target) {
      consider(summary_of(attempt));
    }
  }
  if (setup.archive->exists()) {
    const auto snapshot = setup.archive->snapshot();
    if (const auto text = snapshot->read("plan.json")) {
      Ledger ledger = read_ledger(*text, setup.archive->url() + "/plan.json");
      complete_ledger(ledger, *snapshot, setup.archive->url());
      for (const auto& [id, summary] : ledger.attempts) {
        if (id.compare(0, 40, batch.plan.target) == 0) consider(summary);
      }
    }
  }
  if (!batch.status.measuring.empty()) {
    std::string ids;
    for (const std::string& id : batch.status.measuring) ids += " raw/" + id + "/";
    verdict.lines.push_back("note: measure was stopped (killed) while it measured " +
                            std::to_string(batch.status.measuring.size()) +
                            " commit(s); their partial raw output is never published:" + ids);
  }
  if (!batch.status.complete) {
    verdict.lines.push_back(
        "note: the batch is incomplete" +
        (batch.status.interrupted.empty() ? std::string() : " (" + batch.status.interrupted + ")"));
  }
  verdict.target_measured = latest && latest->success;
  if (elsewhere > 0 && !verdict.target_measured) {
    verdict.lines.push_back(fmt::format(
        "note: {} attempt(s) of the target were measured on another machine or in another "
        "setup (this perfgate.toml's [history] gives setup {}{}); they do not validate it",
        elsewhere, setup_key,
        environment.empty() ? "" : ", the batch's machine is " + environment));
  }
  verdict.lines.push_back(verdict.target_measured
                              ? "target " + batch.plan.target.substr(0, 12) +
                                    " has a valid measurement"
                              : "target " + batch.plan.target.substr(0, 12) +
                                    (latest ? " failed: its latest attempt is a failure"
                                            : " has no measurement in the batch or the archive"));
  return verdict;
}

}  // namespace perfgate::history
