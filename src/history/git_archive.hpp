#pragma once
// The archive on a git branch of the repository (git:BRANCH): each publish is one ordinary
// commit on top of the branch, written without a work tree and moved in with a
// compare-and-swap of the ref. A writer that loses the race reads the new tip, merges its
// change into it and tries again; it never forces, so racing publishers both land.
#include <chrono>
#include <optional>
#include <string>

#include "history/archive.hpp"
#include "model/error.hpp"

namespace perfgate::history {

/// With a remote ([history] remote): reads begin with a fetch of the branch, so a plan sees
/// what every runner published; a publish fetches, builds its commit on the remote's tip
/// and pushes it without force, starting again from a new fetch when the push is refused
/// because another runner got there first (with a growing, random pause).
/// Fetches refs/heads/BRANCH of `remote` into refs/remotes/REMOTE/BRANCH (git's own fetch,
/// GIT_TERMINAL_PROMPT=0, at most 300 s). False when the remote has no such branch;
/// Error(kIoError) naming `what` when git cannot fetch.
bool fetch_remote_branch(const GitRepository& repository, const std::string& remote,
                         const std::string& branch, const std::string& what);

class GitArchive : public Archive {
 public:
  /// `remote` "" for a local archive; else a remote of the repository ("origin").
  GitArchive(std::string url, const std::string& branch, GitRepository& repository,
             std::string remote = "");
  const std::string& url() const override { return url_; }
  bool exists() const override;
  std::unique_ptr<ArchiveSnapshot> snapshot() const override;
  PublishOutcome publish(
      const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare) override;

 private:
  /// How old the branch's lock file is, when there is one.
  std::optional<std::chrono::seconds> lock_age() const;
  /// The lock named, with its age and how to clear it safely.
  Error lock_error(std::chrono::seconds age) const;

  /// Fetches the branch from the remote and moves the local branch to it when the local
  /// one is behind or absent; once per archive object for reads (`always` for a publish).
  /// Error(kIoError) when git cannot fetch, kDataError when the two have diverged.
  void sync(bool always) const;
  /// Pushes `commit` to the remote's branch, never forced: false when the remote refused
  /// it because its branch moved meanwhile; Error(kIoError) for any other failure.
  bool push(const std::string& commit) const;
  /// A change prepared on `tip` and written as a commit on it (not yet on any ref).
  struct ChangeCommit {
    std::string commit;
    std::string message;
  };
  /// Prepares the change against the archive at `tip`, refuses conflicts, sets the
  /// outcome's counts and writes the commit; nullopt when there is nothing to write.
  std::optional<ChangeCommit> commit_change(
      const std::optional<std::string>& tip,
      const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare,
      PublishOutcome& outcome) const;
  PublishOutcome publish_to_remote(
      const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare);

  std::string url_;
  std::string ref_;
  GitRepository& repository_;
  std::string remote_;
  std::string tracking_;  ///< refs/remotes/<remote>/<branch>
  mutable bool synced_ = false;
};

}  // namespace perfgate::history
