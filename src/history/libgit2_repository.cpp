// GitRepository on libgit2: reads objects and refs directly, never git's porcelain text.
#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "history/git_repository.hpp"
#include "model/error.hpp"

namespace perfgate::history {
namespace {

/// Owns one libgit2 object and frees it with the library's own function.
template <auto Free>
struct Freer {
  template <typename T>
  void operator()(T* object) const {
    Free(object);
  }
};
template <typename T, auto Free>
using Owned = std::unique_ptr<T, Freer<Free>>;

using RepositoryPtr = Owned<git_repository, git_repository_free>;
using ObjectPtr = Owned<git_object, git_object_free>;
using CommitPtr = Owned<git_commit, git_commit_free>;
using TreePtr = Owned<git_tree, git_tree_free>;
using TreeEntryPtr = Owned<git_tree_entry, git_tree_entry_free>;
using BlobPtr = Owned<git_blob, git_blob_free>;
using ReferencePtr = Owned<git_reference, git_reference_free>;
using SignaturePtr = Owned<git_signature, git_signature_free>;
using StatusListPtr = Owned<git_status_list, git_status_list_free>;
using OdbPtr = Owned<git_odb, git_odb_free>;
using OdbObjectPtr = Owned<git_odb_object, git_odb_object_free>;

/// libgit2's global state, set up once per process and torn down at exit.
void ensure_libgit2() {
  static const struct Runtime {
    Runtime() {
      git_libgit2_init();
      // Like git, which checks object hashes in fsck rather than on every read: a fifth of
      // the time of a long first-parent walk. zlib's checksum still catches a damaged object.
      git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
      // perfgate reads each commit once (a walk, an export's lookups): caching them only
      // costs an insertion per commit and a long free when the repository closes.
      git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT, std::size_t{0});
    }
    ~Runtime() { git_libgit2_shutdown(); }
  } runtime;
}

std::string libgit2_message() {
  const git_error* error = git_error_last();
  return error != nullptr && error->message != nullptr ? error->message : "unknown libgit2 error";
}

std::string hex(const git_oid& id) {
  char text[GIT_OID_HEXSZ + 1];
  git_oid_tostr(text, sizeof text, &id);
  return text;
}

/// The first parent a raw commit object names: its header is "tree <sha>\n", then one
/// "parent <sha>\n" line per parent, the first parent first. nullopt for a root commit.
std::optional<git_oid> first_parent(git_odb_object& commit) {
  const std::string_view text(static_cast<const char*>(git_odb_object_data(&commit)),
                              git_odb_object_size(&commit));
  constexpr std::string_view kParent = "parent ";
  const std::size_t line = text.find('\n');
  if (line == std::string_view::npos) return std::nullopt;
  const std::string_view rest = text.substr(line + 1);
  if (!rest.starts_with(kParent)) return std::nullopt;
  git_oid id;
  if (rest.size() < kParent.size() + GIT_OID_HEXSZ ||
      git_oid_fromstrn(&id, rest.data() + kParent.size(), GIT_OID_HEXSZ) != 0) {
    throw Error(ExitCode::kDataError, "commit " + hex(*git_odb_object_id(&commit)) +
                                          " is damaged: its parent line is not a SHA. Run "
                                          "git fsck, and fetch the repository again");
  }
  return id;
}

/// A path as libgit2 names tree entries: no trailing slash; empty for the root tree.
std::string tree_path(std::string path) {
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path == "." ? std::string() : path;
}

/// A path create_commit may write: relative, with no empty, ".", ".." or ".git" component.
bool is_plain_relative_path(const std::string& path) {
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view part(path.data() + start, end - start);
    if (part.empty() || part == "." || part == ".." || part == ".git") return false;
    if (end == path.size()) return true;
    start = end + 1;
  }
}

/// Writes `size` bytes at `data` to a new file of that mode (exactly; the umask is ignored).
void write_new_file(const std::filesystem::path& file, const char* data, std::size_t size,
                    mode_t mode) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  bool ok = fd >= 0 && ::fchmod(fd, mode) == 0;
  while (ok && size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    ok = written > 0;
    if (!ok) break;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  const int error = errno;
  if (fd >= 0 && ::close(fd) != 0) ok = false;
  if (!ok) {
    throw Error(ExitCode::kIoError, file.string() + ": cannot write: " + std::strerror(error) +
                                        ". Check the free space and permissions of that folder");
  }
}

class Libgit2Repository : public GitRepository {
 public:
  explicit Libgit2Repository(RepositoryPtr repository) : repository_(std::move(repository)) {
    const char* workdir = git_repository_workdir(repository_.get());
    std::string root = workdir != nullptr ? workdir : git_repository_path(repository_.get());
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    root_ = root;
  }

  std::filesystem::path root() const override { return root_; }

  std::optional<std::string> resolve(const std::string& revision) const override {
    if (revision.empty()) return std::nullopt;
    git_object* found = nullptr;
    if (git_revparse_single(&found, repository_.get(), revision.c_str()) != 0) {
      return std::nullopt;
    }
    const ObjectPtr object(found);
    git_object* peeled = nullptr;
    if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) != 0) return std::nullopt;
    const ObjectPtr commit(peeled);
    return hex(*git_object_id(commit.get()));
  }

  CommitInfo commit(const std::string& sha) const override {
    const CommitPtr found = lookup_commit(sha);
    CommitInfo info;
    info.sha = hex(*git_commit_id(found.get()));
    for (unsigned i = 0; i < git_commit_parentcount(found.get()); ++i) {
      info.parents.push_back(hex(*git_commit_parent_id(found.get(), i)));
    }
    info.time = git_commit_time(found.get());
    if (const git_signature* author = git_commit_author(found.get())) {
      info.author = std::string(author->name != nullptr ? author->name : "") + " <" +
                    (author->email != nullptr ? author->email : "") + ">";
    }
    const char* message = git_commit_message(found.get());
    info.summary = message != nullptr ? message : "";
    info.summary.erase(std::min(info.summary.find('\n'), info.summary.size()));
    while (!info.summary.empty() && std::isspace(static_cast<unsigned char>(info.summary.back()))) {
      info.summary.pop_back();
    }
    return info;
  }

  // Reads each commit's raw header for its first parent and parses nothing else. On a
  // linear history of 100,000 packed commits this took 0.32 s, git_commit_lookup (which
  // parses and caches whole commits) 0.39 s, a first-parent revwalk 0.46 s.
  std::vector<std::string> first_parent_chain(
      const std::string& tip, const std::optional<std::string>& stop_at) const override {
    git_odb* opened = nullptr;
    check(git_repository_odb(&opened, repository_.get()), "open the object database");
    const OdbPtr odb(opened);
    std::vector<std::string> chain;
    std::optional<git_oid> next = commit_id(tip);
    while (next) {
      git_odb_object* read = nullptr;
      if (git_odb_read(&read, odb.get(), &*next) != 0) {
        if (chain.empty()) throw missing_object(tip, "commit");
        throw Error(ExitCode::kDataError,
                    root_.string() + ": commit " + hex(*next) + ", the parent of " + chain.back() +
                        ", is not in the repository (" + libgit2_message() +
                        "). In a shallow clone, fetch the history: git fetch --unshallow");
      }
      const OdbObjectPtr commit(read);
      if (git_odb_object_type(commit.get()) != GIT_OBJECT_COMMIT) {
        throw Error(ExitCode::kDataError,
                    root_.string() + ": " + hex(*next) + " is not a commit. Pass a commit SHA");
      }
      chain.push_back(hex(*next));
      if (chain.back() == stop_at) break;
      next = first_parent(*commit);
    }
    return chain;
  }

  bool is_ancestor(const std::string& ancestor, const std::string& descendant) const override {
    if (ancestor == descendant) return true;
    const git_oid ancestor_id = commit_id(ancestor);
    const git_oid descendant_id = commit_id(descendant);
    const int result = git_graph_descendant_of(repository_.get(), &descendant_id, &ancestor_id);
    if (result < 0) {
      throw Error(ExitCode::kDataError, root_.string() + ": cannot tell whether " + ancestor +
                                            " is an ancestor of " + descendant + " (" +
                                            libgit2_message() + "). Fetch both commits");
    }
    return result == 1;
  }

  std::optional<std::string> object_id_at(const std::string& commit,
                                          const std::string& path) const override {
    const TreePtr tree = commit_tree(commit);
    const std::string inner = tree_path(path);
    if (inner.empty()) return hex(*git_tree_id(tree.get()));
    const TreeEntryPtr entry = entry_at(*tree, inner);
    if (!entry) return std::nullopt;
    return hex(*git_tree_entry_id(entry.get()));
  }

  std::optional<std::string> read_file_at(const std::string& commit,
                                          const std::string& path) const override {
    const TreePtr tree = commit_tree(commit);
    const TreeEntryPtr entry = entry_at(*tree, tree_path(path));
    if (!entry) return std::nullopt;
    const git_filemode_t mode = git_tree_entry_filemode(entry.get());
    if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) return std::nullopt;
    const BlobPtr blob = lookup_blob(*git_tree_entry_id(entry.get()));
    return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                       static_cast<std::size_t>(git_blob_rawsize(blob.get())));
  }

  std::vector<std::string> list_folder_at(const std::string& commit,
                                          const std::string& path) const override {
    const TreePtr folder = tree_at(commit, tree_path(path));
    std::vector<std::string> names;
    if (!folder) return names;
    for (std::size_t i = 0; i < git_tree_entrycount(folder.get()); ++i) {
      names.emplace_back(git_tree_entry_name(git_tree_entry_byindex(folder.get(), i)));
    }
    // Git orders a folder as if its name ended in '/' ("a.txt" before "a"); we sort by name.
    std::sort(names.begin(), names.end());
    return names;
  }

  // Walks the tree and writes raw blobs: exactly what was committed, with no filters
  // (.gitattributes eol, ident) and without reading or writing the repository's index.
  void export_commit(const std::string& commit, const std::filesystem::path& dir) const override {
    const TreePtr tree = commit_tree(commit);
    std::error_code error;
    if (std::filesystem::exists(dir, error) && !std::filesystem::is_empty(dir, error)) {
      throw Error(ExitCode::kIoError, dir.string() + ": cannot export commit " + commit +
                                          " into a folder that is not empty. Remove it first");
    }
    std::filesystem::create_directories(dir, error);
    if (error) {
      throw Error(ExitCode::kIoError, dir.string() + ": cannot create the folder (" +
                                          error.message() + "). Check its parent's permissions");
    }
    export_tree(*tree, dir);
  }

  bool has_uncommitted_changes() const override {
    if (git_repository_is_bare(repository_.get())) return false;
    git_status_options options;
    git_status_options_init(&options, GIT_STATUS_OPTIONS_VERSION);
    options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    options.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;  // no untracked or ignored files
    git_status_list* found = nullptr;
    if (git_status_list_new(&found, repository_.get(), &options) != 0) {
      throw Error(ExitCode::kIoError, root_.string() +
                                          ": cannot compare the work tree with HEAD (" +
                                          libgit2_message() + "). Check that `git status` works");
    }
    const StatusListPtr status(found);
    constexpr unsigned kTracked = ~(GIT_STATUS_WT_NEW | GIT_STATUS_IGNORED);
    for (std::size_t i = 0; i < git_status_list_entrycount(status.get()); ++i) {
      if ((git_status_byindex(status.get(), i)->status & kTracked) != 0) return true;
    }
    return false;
  }

  std::optional<std::string> ref_target(const std::string& ref) const override {
    git_reference* found = nullptr;
    const int result = git_reference_lookup(&found, repository_.get(), ref.c_str());
    if (result == GIT_ENOTFOUND) return std::nullopt;
    if (result != 0) {
      throw Error(ExitCode::kDataError, root_.string() + ": cannot read the reference '" + ref +
                                            "' (" + libgit2_message() +
                                            "). Name it in full, as refs/heads/BRANCH");
    }
    const ReferencePtr reference(found);
    git_object* peeled = nullptr;
    if (git_reference_peel(&peeled, reference.get(), GIT_OBJECT_COMMIT) != 0) {
      throw Error(ExitCode::kDataError, root_.string() + ": the reference '" + ref +
                                            "' does not point to a commit (" + libgit2_message() +
                                            "). Point it at one, or delete it");
    }
    const ObjectPtr target(peeled);
    return hex(*git_object_id(target.get()));
  }

  std::string create_commit(const std::optional<std::string>& parent,
                            const std::map<std::string, std::string>& files,
                            const std::string& message) override {
    CommitPtr parent_commit;
    TreePtr baseline;
    if (parent) {
      parent_commit = lookup_commit(*parent);
      git_tree* tree = nullptr;
      check(git_commit_tree(&tree, parent_commit.get()), "read the tree of commit " + *parent);
      baseline.reset(tree);
    }
    std::vector<git_tree_update> updates;
    for (const auto& [path, content] : files) {
      if (!is_plain_relative_path(path)) {
        throw Error(ExitCode::kDataError,
                    "cannot commit '" + path +
                        "': a path in a commit is relative, with no empty, '.', '..' or "
                        "'.git' part. Name the file inside the repository");
      }
      git_tree_update update{};
      update.action = GIT_TREE_UPDATE_UPSERT;
      update.filemode = GIT_FILEMODE_BLOB;
      update.path = path.c_str();
      check(git_blob_create_from_buffer(&update.id, repository_.get(), content.data(),
                                        content.size()),
            "write the file " + path);
      updates.push_back(update);
    }
    git_oid tree_id;
    check(git_tree_create_updated(&tree_id, repository_.get(), baseline.get(), updates.size(),
                                  updates.data()),
          "write the tree of the new commit");
    git_tree* tree = nullptr;
    check(git_tree_lookup(&tree, repository_.get(), &tree_id), "read back the new tree");
    const TreePtr new_tree(tree);

    git_signature* signature = nullptr;
    check(git_signature_now(&signature, "perfgate", "perfgate@localhost"), "make a signature");
    const SignaturePtr author(signature);
    const std::string text = message.empty() || message.back() != '\n' ? message + "\n" : message;
    const git_commit* parents[] = {parent_commit.get()};
    git_oid commit_id;
    check(git_commit_create(&commit_id, repository_.get(), nullptr, author.get(), author.get(),
                            nullptr, text.c_str(), new_tree.get(), parent ? 1 : 0, parents),
          "write the commit");
    return hex(commit_id);
  }

  // expected == nullopt compares against the all-zero id, which libgit2 (since 1.2) reads as
  // "must not exist" under the ref's lock. git_reference_create without force checks for the
  // ref before taking that lock, so two first publishers could both "create" it.
  bool compare_and_swap_ref(const std::string& ref, const std::string& new_target,
                            const std::optional<std::string>& expected,
                            const std::string& log_message) override {
    const git_oid target = commit_id(new_target);
    git_oid current{};
    if (expected) current = commit_id(*expected);
    git_reference* written = nullptr;
    const int result =
        git_reference_create_matching(&written, repository_.get(), ref.c_str(), &target,
                                      /*force=*/1, &current, log_message.c_str());
    const ReferencePtr reference(written);
    if (result == GIT_EMODIFIED || result == GIT_EEXISTS || result == GIT_ELOCKED) return false;
    if (result != 0) {
      throw Error(ExitCode::kIoError, root_.string() + ": cannot move " + ref + " to " +
                                          new_target + " (" + libgit2_message() +
                                          "). Check the permissions of the repository's refs");
    }
    return true;
  }

  std::filesystem::path ref_lock_file(const std::string& ref) const override {
    // Loose refs live under the common dir (a worktree shares its repository's branches).
    return std::filesystem::path(git_repository_commondir(repository_.get())) / (ref + ".lock");
  }

 private:
  void check(int result, const std::string& what) const {
    if (result == 0) return;
    throw Error(ExitCode::kIoError, root_.string() + ": cannot " + what + " (" + libgit2_message() +
                                        "). Check the repository with `git fsck` and its "
                                        "permissions");
  }

  Error missing_object(const std::string& name, const std::string& kind) const {
    return Error(ExitCode::kDataError, root_.string() + ": no " + kind + " '" + name + "' (" +
                                           libgit2_message() +
                                           "). Fetch it, or check the name with `git log`");
  }

  /// A full SHA as is; anything else (a short SHA, a branch) through resolve().
  git_oid commit_id(const std::string& name) const {
    git_oid id;
    if (name.size() == GIT_OID_HEXSZ && git_oid_fromstr(&id, name.c_str()) == 0) return id;
    const std::optional<std::string> sha = resolve(name);
    if (!sha) throw missing_object(name, "commit");
    git_oid_fromstr(&id, sha->c_str());
    return id;
  }

  CommitPtr lookup_commit(const std::string& name) const {
    const git_oid id = commit_id(name);
    git_commit* found = nullptr;
    if (git_commit_lookup(&found, repository_.get(), &id) != 0) {
      throw missing_object(name, "commit");
    }
    return CommitPtr(found);
  }

  BlobPtr lookup_blob(const git_oid& id) const {
    git_blob* found = nullptr;
    if (git_blob_lookup(&found, repository_.get(), &id) != 0) {
      throw missing_object(hex(id), "file (blob)");
    }
    return BlobPtr(found);
  }

  TreePtr commit_tree(const std::string& commit) const {
    const CommitPtr found = lookup_commit(commit);
    git_tree* tree = nullptr;
    if (git_commit_tree(&tree, found.get()) != 0) throw missing_object(commit, "tree of commit");
    return TreePtr(tree);
  }

  /// The entry at `path` (not empty) of `tree`; null when there is none.
  TreeEntryPtr entry_at(const git_tree& tree, const std::string& path) const {
    if (path.empty()) return nullptr;
    git_tree_entry* found = nullptr;
    const int result = git_tree_entry_bypath(&found, &tree, path.c_str());
    if (result == GIT_ENOTFOUND) return nullptr;
    if (result != 0) check(result, "look up " + path);
    return TreeEntryPtr(found);
  }

  /// The folder at `path` ("" for the root) of `commit`; null when it is not a folder.
  TreePtr tree_at(const std::string& commit, const std::string& path) const {
    TreePtr root = commit_tree(commit);
    if (path.empty()) return root;
    const TreeEntryPtr entry = entry_at(*root, path);
    if (!entry || git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) return nullptr;
    git_tree* tree = nullptr;
    if (git_tree_lookup(&tree, repository_.get(), git_tree_entry_id(entry.get())) != 0) {
      throw missing_object(hex(*git_tree_entry_id(entry.get())), "folder (tree)");
    }
    return TreePtr(tree);
  }

  void export_tree(const git_tree& tree, const std::filesystem::path& dir) const {
    for (std::size_t i = 0; i < git_tree_entrycount(&tree); ++i) {
      const git_tree_entry* entry = git_tree_entry_byindex(&tree, i);
      const std::string name = git_tree_entry_name(entry);
      if (name.empty() || name == "." || name == ".." || name == ".git" ||
          name.find('/') != std::string::npos) {
        throw Error(ExitCode::kDataError, root_.string() + ": the tree " +
                                              hex(*git_tree_id(&tree)) + " has an entry named '" +
                                              name +
                                              "', which no checkout may write. Run git fsck");
      }
      const std::filesystem::path path = dir / name;
      switch (git_tree_entry_filemode(entry)) {
        case GIT_FILEMODE_TREE: {
          if (::mkdir(path.c_str(), 0755) != 0) {
            throw Error(ExitCode::kIoError, path.string() + ": cannot create the folder: " +
                                                std::strerror(errno) + ". Check the permissions");
          }
          git_tree* subtree = nullptr;
          if (git_tree_lookup(&subtree, repository_.get(), git_tree_entry_id(entry)) != 0) {
            throw missing_object(hex(*git_tree_entry_id(entry)), "folder (tree)");
          }
          export_tree(*TreePtr(subtree), path);
          break;
        }
        case GIT_FILEMODE_BLOB:
        case GIT_FILEMODE_BLOB_EXECUTABLE: {
          const BlobPtr blob = lookup_blob(*git_tree_entry_id(entry));
          const bool executable = git_tree_entry_filemode(entry) == GIT_FILEMODE_BLOB_EXECUTABLE;
          write_new_file(path, static_cast<const char*>(git_blob_rawcontent(blob.get())),
                         static_cast<std::size_t>(git_blob_rawsize(blob.get())),
                         executable ? 0755 : 0644);
          break;
        }
        case GIT_FILEMODE_LINK: {
          const BlobPtr blob = lookup_blob(*git_tree_entry_id(entry));
          const std::string target(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                                   static_cast<std::size_t>(git_blob_rawsize(blob.get())));
          if (::symlink(target.c_str(), path.c_str()) != 0) {
            throw Error(ExitCode::kIoError, path.string() + ": cannot create the symbolic link: " +
                                                std::strerror(errno) + ". Check the permissions");
          }
          break;
        }
        default:  // a submodule (gitlink): its files are not in this repository
          break;
      }
    }
  }

  RepositoryPtr repository_;
  std::filesystem::path root_;
};

}  // namespace

std::unique_ptr<GitRepository> open_git_repository(const std::filesystem::path& dir) {
  ensure_libgit2();
  git_repository* found = nullptr;
  const int result = git_repository_open_ext(&found, dir.c_str(), 0, nullptr);
  if (result == GIT_ENOTFOUND) {
    throw Error(
        ExitCode::kNoInput,
        dir.string() + ": not inside a git repository. Run it in a clone, or pass --repo DIR");
  }
  if (result == GIT_EOWNER) {
    throw Error(ExitCode::kIoError, dir.string() + ": " + libgit2_message() +
                                        ". If you trust it: git config --global --add "
                                        "safe.directory " +
                                        dir.string());
  }
  if (result != 0) {
    throw Error(ExitCode::kIoError, dir.string() + ": cannot open the git repository (" +
                                        libgit2_message() +
                                        "). Check it with `git status` and its permissions");
  }
  return std::make_unique<Libgit2Repository>(RepositoryPtr(found));
}

}  // namespace perfgate::history
