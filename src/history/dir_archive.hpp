#pragma once
// The archive as a folder of files (dir:PATH): the layout of a git archive, for machines
// that keep it elsewhere (a shared disk, a separate repository). Publishers take a lock
// file, so two of them at once apply their changes one after the other.
#include <filesystem>
#include <string>

#include "history/archive.hpp"

namespace perfgate::history {

class DirArchive : public Archive {
 public:
  DirArchive(std::string url, std::filesystem::path folder);
  const std::string& url() const override { return url_; }
  bool exists() const override;
  std::unique_ptr<ArchiveSnapshot> snapshot() const override;
  PublishOutcome publish(
      const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare) override;

 private:
  std::string url_;
  std::filesystem::path folder_;
};

}  // namespace perfgate::history
