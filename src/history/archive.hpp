#pragma once
// The history archive (SPEC §9, seed 003): baseline.json, the plan.json ledger, immutable
// attempts/<sha>-<run>-<attempt>.json and raw/<sha>-<run>-<attempt>/ files. It lives on a
// git branch of the repository ("git:BRANCH") or in a folder ("dir:PATH"); both behave the
// same: files are created once, re-creating one with the same bytes is a no-op, different
// bytes under a name that exists is an error that changes nothing, and a publish lands
// whole or not at all.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::history {

class GitRepository;

/// One consistent view of the archive. Paths are relative to its root ("plan.json",
/// "attempts/<id>.json").
class ArchiveSnapshot {
 public:
  virtual ~ArchiveSnapshot() = default;
  /// A file's bytes; nullopt when it is not there.
  virtual std::optional<std::string> read(const std::string& path) const = 0;
  /// The names in a folder ("attempts"), sorted; empty when the folder is not there.
  virtual std::vector<std::string> list(const std::string& folder) const = 0;
  /// Whether read() may be called from several threads at once (a folder: yes; a git
  /// branch reads through one repository object, which is not shared between threads).
  virtual bool reads_in_parallel() const { return false; }
};

/// What one publish writes.
struct ArchiveChange {
  /// Created once: a file already there with the same bytes is skipped, one with other
  /// bytes makes the whole publish fail (Error kDataError) before anything is written.
  std::map<std::string, std::string> create;
  /// Written whatever is there (the ledger and the baseline, which `prepare` merges).
  std::map<std::string, std::string> replace;
  std::string message;  ///< the archive branch's commit message
};

struct PublishOutcome {
  int created = 0;   ///< files of `create` that were new
  int skipped = 0;   ///< files of `create` that were there with the same bytes
  int replaced = 0;  ///< files of `replace` whose bytes changed
  int retries = 0;   ///< times another writer got there first and the change was redone
  bool changed() const { return created > 0 || replaced > 0; }
};

class Archive {
 public:
  virtual ~Archive() = default;
  /// "git:perfgate-data" or "dir:/abs/path", as given.
  virtual const std::string& url() const = 0;
  /// Whether anything was ever published there.
  virtual bool exists() const = 0;
  virtual std::unique_ptr<ArchiveSnapshot> snapshot() const = 0;
  /// Computes a change from the archive as it is (`prepare` may throw to refuse) and
  /// applies it. When another writer publishes meanwhile, it reads the archive again and
  /// calls `prepare` again: writers merge, they never overwrite each other.
  virtual PublishOutcome publish(
      const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare) = 0;
};

/// Opens "git:BRANCH" (a branch of `repository`; refs/heads/BRANCH) or "dir:PATH" (relative
/// to `base_dir`). Error(kUsage) for another form. A dir: archive whose folder is missing
/// reads as empty and is created by the first publish, but only inside an existing folder,
/// so a mistyped path does not grow a tree of folders. `remote` (a git remote of the
/// repository, [history] remote) makes a git: archive shared: fetched before it is read,
/// pushed (never forced) when published; Error(kUsage) with a dir: archive.
std::unique_ptr<Archive> open_archive(const std::string& url, GitRepository& repository,
                                      const std::filesystem::path& base_dir,
                                      const std::string& remote = "");

/// The activation commit recorded in the archive's baseline.json; nullopt before the
/// first publish. Error(kDataError) "<url>/baseline.json: ..." when the file is damaged.
std::optional<std::string> recorded_activation(const ArchiveSnapshot& snapshot,
                                               const std::string& url);

/// The conflicts `change.create` has with `snapshot` (one message per file), and the
/// `change` with files already there with the same bytes moved out of `create`.
struct CheckedChange {
  ArchiveChange change;
  int skipped = 0;
  std::vector<std::string> conflicts;
};
CheckedChange check_against(const ArchiveSnapshot& snapshot, ArchiveChange change);
/// Error(kDataError) "<url>: nothing was published:" and each conflict, when there is one.
void throw_if_conflicts(const std::string& url, const CheckedChange& checked);

}  // namespace perfgate::history
