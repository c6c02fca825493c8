// history validate: the step that fails when the target commit has no valid measurement.
// Failures of older commits (a backfill) are reported, and do not fail a newer target.
#include <fmt/format.h>

#include "history/batch_folder.hpp"
#include "history/history_steps.hpp"
#include "history/ledger.hpp"
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
  // The target's latest attempt, whether in the batch or already published.
  std::optional<AttemptSummary> latest;
  const auto consider = [&](const AttemptSummary& summary) {
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
      consider({attempt.success, attempt.started_at});
    }
  }
  if (setup.archive->exists()) {
    if (const auto text = setup.archive->snapshot()->read("plan.json")) {
      const Ledger ledger = read_ledger(*text, setup.archive->url() + "/plan.json");
      for (const auto& [id, summary] : ledger.attempts) {
        if (id.compare(0, 40, batch.plan.target) == 0) consider(summary);
      }
    }
  }
  if (!batch.status.complete) {
    verdict.lines.push_back(
        "note: the batch is incomplete" +
        (batch.status.interrupted.empty() ? std::string() : " (" + batch.status.interrupted + ")"));
  }
  verdict.target_measured = latest && latest->success;
  verdict.lines.push_back(verdict.target_measured
                              ? "target " + batch.plan.target.substr(0, 12) +
                                    " has a valid measurement"
                              : "target " + batch.plan.target.substr(0, 12) +
                                    (latest ? " failed: its latest attempt is a failure"
                                            : " has no measurement in the batch or the archive"));
  return verdict;
}

}  // namespace perfgate::history
