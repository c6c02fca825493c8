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

class GitArchive : public Archive {
 public:
  GitArchive(std::string url, const std::string& branch, GitRepository& repository);
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

  std::string url_;
  std::string ref_;
  GitRepository& repository_;
};

}  // namespace perfgate::history
