#include "history/archive.hpp"

#include "history/dir_archive.hpp"
#include "history/git_archive.hpp"
#include "history/history_document.hpp"
#include "model/error.hpp"

namespace perfgate::history {

std::unique_ptr<Archive> open_archive(const std::string& url, GitRepository& repository,
                                      const std::filesystem::path& base_dir,
                                      const std::string& remote) {
  if (url.rfind("git:", 0) == 0 && url.size() > 4) {
    return std::make_unique<GitArchive>(url, url.substr(4), repository, remote);
  }
  if (url.rfind("dir:", 0) == 0 && url.size() > 4) {
    if (!remote.empty()) {
      throw Error(ExitCode::kUsage,
                  "[history] remote = \"" + remote + "\" is for a git: archive, and " + url +
                      " is a folder: share the folder itself, or use a git: archive");
    }
    std::filesystem::path folder = url.substr(4);
    if (folder.is_relative()) folder = base_dir / folder;
    return std::make_unique<DirArchive>(url, folder.lexically_normal());
  }
  throw Error(ExitCode::kUsage, "--archive: '" + url +
                                    "' is not an archive URL. Use git:BRANCH (a branch of "
                                    "the repository, e.g. git:perfgate-data) or dir:PATH");
}

std::optional<std::string> recorded_activation(const ArchiveSnapshot& snapshot,
                                               const std::string& url) {
  const auto text = snapshot.read("baseline.json");
  if (!text) return std::nullopt;
  const std::string source = url + "/baseline.json";
  const Json json = parse_history_object(*text, source, "Restore it from the archive's history");
  JsonObjectReader reader(json, source, "");
  return reader.string("baseline");
}

CheckedChange check_against(const ArchiveSnapshot& snapshot, ArchiveChange change) {
  CheckedChange checked;
  for (auto it = change.create.begin(); it != change.create.end();) {
    const std::optional<std::string> existing = snapshot.read(it->first);
    if (!existing) {
      ++it;
      continue;
    }
    if (*existing == it->second) {
      ++checked.skipped;
    } else {
      checked.conflicts.push_back(it->first +
                                  ": the archive already holds different content under this "
                                  "identity; attempts are immutable, so publish it under a new "
                                  "run or attempt number");
    }
    it = change.create.erase(it);
  }
  checked.change = std::move(change);
  return checked;
}

void throw_if_conflicts(const std::string& url, const CheckedChange& checked) {
  if (checked.conflicts.empty()) return;
  std::string message = url + ": nothing was published:";
  for (const std::string& conflict : checked.conflicts) message += "\n  " + conflict;
  throw Error(ExitCode::kDataError, message);
}

}  // namespace perfgate::history
