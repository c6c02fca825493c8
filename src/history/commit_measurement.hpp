#pragma once
// Measuring one commit (seed 003): a clean copy of exactly what was committed, the build
// commands of [history] in order, then the commit's own suite, in-process with the same
// executor as `perfgate run`. Whatever goes wrong with the commit (it does not build, a case
// fails, its suite is invalid) becomes a failed attempt with its errors, missing cases and
// raw output; only perfgate's own I/O errors throw. The raw output goes to
// <batch>/raw/<identity>/.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/history_config.hpp"
#include "history/history_attempt.hpp"
#include "model/raw_record.hpp"

namespace perfgate {
class Executor;
}

namespace perfgate::history {

class GitRepository;

struct MeasureSettings {
  HistoryConfig config;     ///< [history] of the checkout that drives the pipeline
  std::string harness_sha;  ///< that checkout's commit
  std::string run;          ///< run id of the batch
  int attempt = 1;
  std::string environment_id;  ///< --environment; "" for the machine's hardware profile id
  bool stable = false;         ///< --stable: a dedicated machine; otherwise diagnostic
  std::string image;           ///< --image: container digest or installation id, if any
};

/// What an attempt records as its `configuration`: [history] build, suite, sources and
/// timeout_s, and CFLAGS, CXXFLAGS, LDFLAGS and CMAKE_BUILD_TYPE when this process has them.
/// setup_id of it is what `history plan` plans for.
Json configuration_of(const HistoryConfig& config);

/// Measures `sha`. nullopt when perfgate was interrupted meanwhile: an interruption is not
/// the commit's fault and leaves no attempt (the next plan lists the commit again).
std::optional<HistoryAttempt> measure_commit(const GitRepository& repository,
                                             const std::string& sha,
                                             const MeasureSettings& settings, Executor& executor,
                                             const std::filesystem::path& batch_dir);

/// Measures `shas` in alternation (the confirming commits of a plan, docs/history.md): each
/// copied and built first, then each case run by run, round-robin over the commits that have
/// it, so that a busy moment of the machine meets all of them alike. Each commit's runs of a
/// case become one raw record and one case, as measure_commit makes them. The attempts are
/// in the order of `shas`; nullopt when interrupted (no attempt is kept).
std::optional<std::vector<HistoryAttempt>> measure_commits_alternating(
    const GitRepository& repository, const std::vector<std::string>& shas,
    const MeasureSettings& settings, Executor& executor, const std::filesystem::path& batch_dir);

/// A commit copied and built, its suite loaded, kept until destroyed, whose cases run a round
/// at a time as the caller asks (`perfgate bisect`, docs/bisect.md): the caller chooses
/// which commits meet which moments of the machine. The copy is removed when it is
/// destroyed; the build logs stay in <batch>/raw/<identity>/.
class CommitUnderTest {
 public:
  /// What a round measures: one timed run, or one counted run (instructions) alone.
  enum class RoundKind { kTimed, kCounted };

  /// Copies and builds `sha`; nullptr when perfgate was interrupted meanwhile. A commit that
  /// does not build, or whose suite cannot be loaded, is returned not ready().
  static std::unique_ptr<CommitUnderTest> prepare(const GitRepository& repository,
                                                  const std::string& sha,
                                                  const MeasureSettings& settings,
                                                  Executor& executor,
                                                  const std::filesystem::path& batch_dir);
  virtual ~CommitUnderTest() = default;

  /// Built, and its suite loaded.
  virtual bool ready() const = 0;
  /// Why it is not ready (the first error, its first line); "" when it is.
  virtual std::string failure() const = 0;
  /// One round of the case `name`: one measured run, with the config's warmups before the
  /// first round only. nullopt when the suite has no such case; a failed run is a record
  /// with success false. Check interruption_signal() after it.
  virtual std::optional<RawRecord> run_round(const std::string& name, RoundKind kind) = 0;
  /// The commit's attempt, as `history measure` would record it (so that it can be
  /// published): a case's timed rounds stand for its runs (the first of them, as many as
  /// its config measures), and every other case of the suite is measured now in full. A
  /// commit that did not build gets its failed attempt. nullopt when interrupted.
  virtual std::optional<HistoryAttempt> attempt() = 0;
};

/// Now as ISO 8601 UTC with microseconds ("2026-12-02T06:00:00.123456Z"), so that attempts
/// started within one second still order by start.
std::string utc_now_with_microseconds();

}  // namespace perfgate::history
