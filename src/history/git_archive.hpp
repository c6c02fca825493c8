#pragma once
// The archive on a git branch of the repository (git:BRANCH): each publish is one ordinary
// commit on top of the branch, written without a work tree and moved in with a
// compare-and-swap of the ref. A writer that loses the race reads the new tip, merges its
// change into it and tries again; it never forces, so racing publishers both land.
#include <string>

#include "history/archive.hpp"

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
  std::string url_;
  std::string ref_;
  GitRepository& repository_;
};

}  // namespace perfgate::history
