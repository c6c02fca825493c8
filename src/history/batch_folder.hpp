#pragma once
// A batch: what one `history measure` produced, before it is published (seed 003's
// transport copy). <batch>/plan.json is the plan it measured, <batch>/batch.json says how
// far it got, <batch>/attempts/<identity>.json holds one attempt per selected commit and
// <batch>/raw/<identity>/ their raw output: the archive's layout, so publishing copies it.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "history/commit_plan.hpp"
#include "history/history_attempt.hpp"
#include "model/json.hpp"

namespace perfgate::history {

struct BatchStatus {
  std::string run;
  int attempt = 1;
  std::string started_at;
  std::string finished_at;            ///< "" while it runs
  bool complete = false;              ///< every selected commit has its attempt
  std::string interrupted;            ///< "interrupted by SIGINT" when it was; "" otherwise
  std::vector<std::string> attempts;  ///< identities written so far
  /// The machine the batch was measured on and the setup it was measured in
  /// (series_identity.hpp); "" in a batch an older perfgate wrote.
  std::string environment;
  std::string setup;
  /// Attempts being measured now: written before a commit starts, cleared when its attempt
  /// is kept. An interrupted measure removes their raw folders; after a SIGKILL, batch.json
  /// still names them, so the batch accounts for their partial raw/<id>/ (never published).
  std::vector<std::string> measuring;
};

Json to_json(const BatchStatus& status);

struct BatchAttempt {
  HistoryAttempt attempt;
  std::string text;  ///< the file's bytes, published as they are
};

struct Batch {
  std::filesystem::path folder;
  PlanFile plan;
  std::string plan_text;
  BatchStatus status;
  std::vector<BatchAttempt> attempts;
  /// Attempt files that failed validation: file -> the reasons.
  std::map<std::string, std::string> rejected;
};

/// Reads a batch and validates each attempt (a rejected one is listed, not thrown).
/// Error(kNoInput) when the folder or its plan.json is missing; kDataError when plan.json
/// or batch.json is not what `history measure` writes.
Batch read_batch(const std::filesystem::path& folder);

/// The files of raw/<identity>/ of an attempt, relative to the batch ("raw/<id>/build-1.log").
std::map<std::string, std::string> read_raw_files(const Batch& batch,
                                                  const HistoryAttempt& attempt);

}  // namespace perfgate::history
