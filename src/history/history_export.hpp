#pragma once
// history.json: the derived export the dashboard reads (SPEC §9, seed 003). It lists every
// monitored commit with its coverage, every attempt (failures with their errors and missing
// cases, superseded ones too), the attempt files that failed validation, and the
// compatibility series of the winning successful measurements with their regression flags.
// Missing commits get no fabricated rows and an unavailable value is null, never zero.
// Pure: no file, git or clock access of its own; the caller gathers the values, and lends a
// reader (ExportInput::run_samples) for the few raw runs that confirmations pair. Format,
// schema version 1: docs/history-json.md.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/history_config.hpp"
#include "history/git_repository.hpp"
#include "history/history_attempt.hpp"
#include "history/ledger.hpp"
#include "model/json.hpp"

namespace perfgate::history {

inline constexpr int kHistoryExportSchemaVersion = 1;

/// An attempt file that failed validation: shown as an explanation, never as data.
struct RejectedAttempt {
  std::string identity;  ///< from the file name; "" when the name is not an identity
  std::string path;      ///< relative to the archive
  std::string reason;
};

struct ExportInput {
  std::string source_sha;  ///< the checkout that exported
  std::string branch;
  std::string archive;       ///< archive URL
  std::string generated_at;  ///< ISO 8601, passed in
  std::string perfgate_version;
  Ledger ledger;                          ///< baseline, current, monitored (oldest first)
  std::vector<HistoryAttempt> attempts;   ///< every valid attempt in the archive
  std::vector<RejectedAttempt> rejected;  ///< attempt files that failed validation
  std::map<std::string, CommitInfo>
      commits;  ///< monitored commits' time and summary; may lack some
  RegressionFlagRule flags;
  std::string commit_url;  ///< [history] commit_url: "…{sha}…", "" for none
  std::string raw_url;     ///< [history] raw_url, "" for none
  /// The runs of a case's metric in an attempt, in the order they were measured (its raw
  /// record's samples); nullopt when they cannot be read. Asked only for a flag whose two
  /// commits were measured again together, to compare their runs round by round. Empty:
  /// every confirmation is decided on the points' medians and MADs.
  std::function<std::optional<std::vector<double>>(
      const HistoryAttempt& attempt, const std::string& case_name, const std::string& metric)>
      run_samples;
};

/// How far a flag is confirmed (issue 34, docs/history-json.md): `history plan
/// --confirm-flags` measures a flagged commit and the commit before it again, together; the
/// flag is confirmed when the first measurement raised it and the re-measurement shows the
/// rise too: round by round where both commits' runs can be read (paired_rise), else by the
/// rule on their medians and MADs. Unconfirmed when only one of the two does.
enum class FlagConfirmation { kNotRemeasured, kConfirmed, kUnconfirmed };
/// "not_remeasured", "confirmed", "unconfirmed".
const char* to_string(FlagConfirmation confirmation);

/// A flag not yet re-measured: its two commits, and where it was measured.
struct FlagToConfirm {
  std::string previous;  ///< the commit before the flagged one in its series
  std::string flagged;
  std::string environment;  ///< environment_id of the series' attempts
  std::string setup;        ///< setup_id of them
  bool operator==(const FlagToConfirm&) const = default;
};

/// What an export holds, for the command's one-line summary.
struct ExportSummary {
  std::size_t monitored = 0;
  std::size_t measured = 0;
  std::size_t failed = 0;
  std::size_t missing = 0;
  std::size_t series = 0;
  std::size_t flags = 0;
  std::size_t confirmed_flags = 0;
  std::size_t unconfirmed_flags = 0;
  /// Each flag not yet re-measured, in the order of the flags; a pair of commits may repeat
  /// (several series flag one commit).
  std::vector<FlagToConfirm> flags_to_confirm;
};

/// Appends the history.json document to `out`, compact and ending with a newline, written
/// as it is computed rather than built as a tree first: a real history holds millions of
/// numbers. A commit is measured per measurement slot, an environment and a setup
/// (series_identity.hpp): in each slot the attempt with the latest started_at wins, a
/// failure included (an older success never hides a newer failure); among attempts
/// started at the same instant the greatest identity (sha, run, attempt number) wins.
/// Series come only from winning successful attempts of monitored commits, so a second
/// machine or a new configuration never removes a point. A commit's `environments` give
/// its state on each machine (its newest winner there); its `status` is measured when any
/// machine measured it, failed when every machine's newest winner failed.
ExportSummary write_history(const ExportInput& input, std::string& out);

/// A commit's page: `url` ([history] commit_url) with every "{sha}" replaced by the SHA.
std::string commit_link(const std::string& url, const std::string& sha);

}  // namespace perfgate::history
