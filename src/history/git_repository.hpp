#pragma once
// Everything the history pipeline asks of git, behind one small interface (SPEC §9): the
// monitored branch's commit graph, files as a commit has them, a clean copy of a commit to
// build, and the archive branch, written as ordinary commits with a compare-and-swap ref
// update and never through a work tree. The one implementation reads the repository with
// libgit2 (never git's porcelain text); tests build repositories of their own.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::history {

struct CommitInfo {
  std::string sha;                   ///< 40 lowercase hex digits
  std::vector<std::string> parents;  ///< first parent first; empty for a root commit
  std::int64_t time = 0;             ///< committer time, seconds since the epoch (UTC)
  std::string summary;               ///< the first line of the message
  std::string author;                ///< "Name <email>"
};

class GitRepository {
 public:
  virtual ~GitRepository() = default;

  /// The folder of the work tree (or of the bare repository).
  virtual std::filesystem::path root() const = 0;

  /// The full SHA of a revision: a branch name ("main"), a full ref ("refs/heads/main"),
  /// "HEAD", or a full or abbreviated SHA; nullopt when it names no commit.
  virtual std::optional<std::string> resolve(const std::string& revision) const = 0;

  /// Error(kDataError) when `sha` is not a commit of the repository.
  virtual CommitInfo commit(const std::string& sha) const = 0;

  /// The first-parent chain of `tip`, newest first: tip, its first parent, that one's
  /// first parent, ... down to the root commit, or down to and including `stop_at` when it
  /// is on the chain.
  virtual std::vector<std::string> first_parent_chain(
      const std::string& tip, const std::optional<std::string>& stop_at = std::nullopt) const = 0;

  /// Whether `ancestor` is `descendant` or one of its ancestors (through any parent).
  virtual bool is_ancestor(const std::string& ancestor, const std::string& descendant) const = 0;

  /// The id of the blob or tree at `path` ("benchmarks/", "src/a.c"; a trailing slash is
  /// allowed) in `commit`; nullopt when the commit has nothing there.
  virtual std::optional<std::string> object_id_at(const std::string& commit,
                                                  const std::string& path) const = 0;

  /// The content of the file at `path` in `commit`; nullopt when there is no file there.
  virtual std::optional<std::string> read_file_at(const std::string& commit,
                                                  const std::string& path) const = 0;

  /// The names of the entries of the folder at `path` in `commit` (files and folders,
  /// sorted by name); empty when there is no such folder.
  virtual std::vector<std::string> list_folder_at(const std::string& commit,
                                                  const std::string& path) const = 0;

  /// Writes the files of `commit` into `dir` (created; it must not exist or be empty): a
  /// clean, detached copy of exactly what was committed, without .git. Executable bits and
  /// symbolic links are kept. Error(kIoError) when it cannot be written.
  virtual void export_commit(const std::string& commit, const std::filesystem::path& dir) const = 0;

  /// Whether tracked files of the work tree differ from HEAD (staged or not).
  virtual bool has_uncommitted_changes() const = 0;

  /// The commit `ref` ("refs/heads/perfgate-data") points to; nullopt when it does not exist.
  virtual std::optional<std::string> ref_target(const std::string& ref) const = 0;

  /// Writes a commit object whose tree is `parent`'s tree (an empty tree without a parent)
  /// with `files` (path -> content, folders created as needed) added or replaced, and
  /// returns its SHA. Only objects are written: no ref moves and no work tree changes.
  virtual std::string create_commit(const std::optional<std::string>& parent,
                                    const std::map<std::string, std::string>& files,
                                    const std::string& message) = 0;

  /// Points `ref` at `new_target` if it still points at `expected` (nullopt: if it does not
  /// exist yet), atomically. Returns false, changing nothing, when another writer got there
  /// first; the caller re-reads, merges and tries again. It never forces.
  virtual bool compare_and_swap_ref(const std::string& ref, const std::string& new_target,
                                    const std::optional<std::string>& expected,
                                    const std::string& log_message) = 0;

  /// The lock file git takes to move `ref` (<git dir>/refs/heads/x.lock), whether or not
  /// it exists: a git process that died while moving the ref leaves it behind.
  virtual std::filesystem::path ref_lock_file(const std::string& ref) const = 0;
};

/// Opens the repository that holds `dir` (searching upward, as git does).
/// Error(kNoInput) when `dir` is not inside a git repository.
std::unique_ptr<GitRepository> open_git_repository(const std::filesystem::path& dir);

}  // namespace perfgate::history
