// libgit2's functions, as perfgate calls them, reached through dlopen on first use
// (model/loaded_library.hpp says why). Each forwards to the same function of the libgit2
// perfgate was built against; the compiler checks every signature against git2.h.
#include <git2.h>

#include <cstdarg>
#include <cstddef>

#include "model/loaded_library.hpp"
#include "perfgate_build_paths.hpp"

namespace {

#define PERFGATE_LIBGIT2_FUNCTIONS(X) \
  X(git_blob_create_from_buffer)      \
  X(git_blob_free)                    \
  X(git_blob_lookup)                  \
  X(git_blob_rawcontent)              \
  X(git_blob_rawsize)                 \
  X(git_commit_author)                \
  X(git_commit_create)                \
  X(git_commit_free)                  \
  X(git_commit_id)                    \
  X(git_commit_lookup)                \
  X(git_commit_message)               \
  X(git_commit_parent_id)             \
  X(git_commit_parentcount)           \
  X(git_commit_time)                  \
  X(git_commit_tree)                  \
  X(git_error_last)                   \
  X(git_graph_descendant_of)          \
  X(git_libgit2_init)                 \
  X(git_libgit2_opts)                 \
  X(git_libgit2_shutdown)             \
  X(git_object_free)                  \
  X(git_object_id)                    \
  X(git_object_peel)                  \
  X(git_odb_free)                     \
  X(git_odb_object_data)              \
  X(git_odb_object_free)              \
  X(git_odb_object_id)                \
  X(git_odb_object_size)              \
  X(git_odb_object_type)              \
  X(git_odb_read)                     \
  X(git_oid_fromstr)                  \
  X(git_oid_fromstrn)                 \
  X(git_oid_tostr)                    \
  X(git_reference_create_matching)    \
  X(git_reference_free)               \
  X(git_reference_lookup)             \
  X(git_reference_peel)               \
  X(git_repository_free)              \
  X(git_repository_is_bare)           \
  X(git_repository_odb)               \
  X(git_repository_open_ext)          \
  X(git_repository_path)              \
  X(git_repository_commondir)         \
  X(git_repository_workdir)           \
  X(git_revparse_single)              \
  X(git_signature_free)               \
  X(git_signature_now)                \
  X(git_status_byindex)               \
  X(git_status_list_entrycount)       \
  X(git_status_list_free)             \
  X(git_status_list_new)              \
  X(git_status_options_init)          \
  X(git_tree_create_updated)          \
  X(git_tree_entry_byindex)           \
  X(git_tree_entry_bypath)            \
  X(git_tree_entry_filemode)          \
  X(git_tree_entry_free)              \
  X(git_tree_entry_id)                \
  X(git_tree_entry_name)              \
  X(git_tree_entry_type)              \
  X(git_tree_entrycount)              \
  X(git_tree_free)                    \
  X(git_tree_id)                      \
  X(git_tree_lookup)

PERFGATE_LAZY_LIBRARY(PERFGATE_LIBGIT2_FUNCTIONS, PERFGATE_LIBGIT2_SONAME,
                      "git history and local git metadata", "Install Debian's libgit2-1.5 package.")

}  // namespace

extern "C" {

int git_blob_create_from_buffer(git_oid* id, git_repository* repo, const void* buffer, size_t len) {
  return calls().git_blob_create_from_buffer(id, repo, buffer, len);
}
void git_blob_free(git_blob* blob) {
  calls().git_blob_free(blob);
}
int git_blob_lookup(git_blob** blob, git_repository* repo, const git_oid* id) {
  return calls().git_blob_lookup(blob, repo, id);
}
const void* git_blob_rawcontent(const git_blob* blob) {
  return calls().git_blob_rawcontent(blob);
}
git_object_size_t git_blob_rawsize(const git_blob* blob) {
  return calls().git_blob_rawsize(blob);
}
int git_commit_create(git_oid* id, git_repository* repo, const char* update_ref,
                      const git_signature* author, const git_signature* committer,
                      const char* message_encoding, const char* message, const git_tree* tree,
                      size_t parent_count, const git_commit* parents[]) {
  return calls().git_commit_create(id, repo, update_ref, author, committer, message_encoding,
                                   message, tree, parent_count, parents);
}
void git_commit_free(git_commit* commit) {
  calls().git_commit_free(commit);
}
const git_signature* git_commit_author(const git_commit* commit) {
  return calls().git_commit_author(commit);
}
const git_oid* git_commit_id(const git_commit* commit) {
  return calls().git_commit_id(commit);
}
int git_commit_lookup(git_commit** commit, git_repository* repo, const git_oid* id) {
  return calls().git_commit_lookup(commit, repo, id);
}
const char* git_commit_message(const git_commit* commit) {
  return calls().git_commit_message(commit);
}
const git_oid* git_commit_parent_id(const git_commit* commit, unsigned int n) {
  return calls().git_commit_parent_id(commit, n);
}
unsigned int git_commit_parentcount(const git_commit* commit) {
  return calls().git_commit_parentcount(commit);
}
git_time_t git_commit_time(const git_commit* commit) {
  return calls().git_commit_time(commit);
}
int git_commit_tree(git_tree** tree_out, const git_commit* commit) {
  return calls().git_commit_tree(tree_out, commit);
}
const git_error* git_error_last(void) {
  return calls().git_error_last();
}
int git_graph_descendant_of(git_repository* repo, const git_oid* commit, const git_oid* ancestor) {
  return calls().git_graph_descendant_of(repo, commit, ancestor);
}
int git_libgit2_init(void) {
  return calls().git_libgit2_init();
}
int git_libgit2_shutdown(void) {
  return calls().git_libgit2_shutdown();
}
void git_object_free(git_object* object) {
  calls().git_object_free(object);
}
const git_oid* git_object_id(const git_object* obj) {
  return calls().git_object_id(obj);
}
int git_object_peel(git_object** peeled, const git_object* object, git_object_t target_type) {
  return calls().git_object_peel(peeled, object, target_type);
}
void git_odb_free(git_odb* db) {
  calls().git_odb_free(db);
}
const void* git_odb_object_data(git_odb_object* object) {
  return calls().git_odb_object_data(object);
}
void git_odb_object_free(git_odb_object* object) {
  calls().git_odb_object_free(object);
}
const git_oid* git_odb_object_id(git_odb_object* object) {
  return calls().git_odb_object_id(object);
}
size_t git_odb_object_size(git_odb_object* object) {
  return calls().git_odb_object_size(object);
}
git_object_t git_odb_object_type(git_odb_object* object) {
  return calls().git_odb_object_type(object);
}
int git_odb_read(git_odb_object** out, git_odb* db, const git_oid* id) {
  return calls().git_odb_read(out, db, id);
}
int git_oid_fromstr(git_oid* out, const char* str) {
  return calls().git_oid_fromstr(out, str);
}
int git_oid_fromstrn(git_oid* out, const char* str, size_t length) {
  return calls().git_oid_fromstrn(out, str, length);
}
char* git_oid_tostr(char* out, size_t n, const git_oid* id) {
  return calls().git_oid_tostr(out, n, id);
}
int git_reference_create_matching(git_reference** out, git_repository* repo, const char* name,
                                  const git_oid* id, int force, const git_oid* current_id,
                                  const char* log_message) {
  return calls().git_reference_create_matching(out, repo, name, id, force, current_id, log_message);
}
void git_reference_free(git_reference* ref) {
  calls().git_reference_free(ref);
}
int git_reference_lookup(git_reference** out, git_repository* repo, const char* name) {
  return calls().git_reference_lookup(out, repo, name);
}
int git_reference_peel(git_object** out, const git_reference* ref, git_object_t type) {
  return calls().git_reference_peel(out, ref, type);
}
void git_repository_free(git_repository* repo) {
  calls().git_repository_free(repo);
}
int git_repository_is_bare(const git_repository* repo) {
  return calls().git_repository_is_bare(repo);
}
int git_repository_odb(git_odb** out, git_repository* repo) {
  return calls().git_repository_odb(out, repo);
}
int git_repository_open_ext(git_repository** out, const char* path, unsigned int flags,
                            const char* ceiling_dirs) {
  return calls().git_repository_open_ext(out, path, flags, ceiling_dirs);
}
const char* git_repository_path(const git_repository* repo) {
  return calls().git_repository_path(repo);
}
const char* git_repository_commondir(const git_repository* repo) {
  return calls().git_repository_commondir(repo);
}
const char* git_repository_workdir(const git_repository* repo) {
  return calls().git_repository_workdir(repo);
}
int git_revparse_single(git_object** out, git_repository* repo, const char* spec) {
  return calls().git_revparse_single(out, repo, spec);
}
void git_signature_free(git_signature* sig) {
  calls().git_signature_free(sig);
}
int git_signature_now(git_signature** out, const char* name, const char* email) {
  return calls().git_signature_now(out, name, email);
}
const git_status_entry* git_status_byindex(git_status_list* statuslist, size_t idx) {
  return calls().git_status_byindex(statuslist, idx);
}
size_t git_status_list_entrycount(git_status_list* statuslist) {
  return calls().git_status_list_entrycount(statuslist);
}
void git_status_list_free(git_status_list* statuslist) {
  calls().git_status_list_free(statuslist);
}
int git_status_list_new(git_status_list** out, git_repository* repo,
                        const git_status_options* opts) {
  return calls().git_status_list_new(out, repo, opts);
}
int git_status_options_init(git_status_options* opts, unsigned int version) {
  return calls().git_status_options_init(opts, version);
}
int git_tree_create_updated(git_oid* out, git_repository* repo, git_tree* baseline, size_t nupdates,
                            const git_tree_update* updates) {
  return calls().git_tree_create_updated(out, repo, baseline, nupdates, updates);
}
const git_tree_entry* git_tree_entry_byindex(const git_tree* tree, size_t idx) {
  return calls().git_tree_entry_byindex(tree, idx);
}
int git_tree_entry_bypath(git_tree_entry** out, const git_tree* root, const char* path) {
  return calls().git_tree_entry_bypath(out, root, path);
}
git_filemode_t git_tree_entry_filemode(const git_tree_entry* entry) {
  return calls().git_tree_entry_filemode(entry);
}
void git_tree_entry_free(git_tree_entry* entry) {
  calls().git_tree_entry_free(entry);
}
const git_oid* git_tree_entry_id(const git_tree_entry* entry) {
  return calls().git_tree_entry_id(entry);
}
const char* git_tree_entry_name(const git_tree_entry* entry) {
  return calls().git_tree_entry_name(entry);
}
git_object_t git_tree_entry_type(const git_tree_entry* entry) {
  return calls().git_tree_entry_type(entry);
}
size_t git_tree_entrycount(const git_tree* tree) {
  return calls().git_tree_entrycount(tree);
}
void git_tree_free(git_tree* tree) {
  calls().git_tree_free(tree);
}
const git_oid* git_tree_id(const git_tree* tree) {
  return calls().git_tree_id(tree);
}
int git_tree_lookup(git_tree** out, git_repository* repo, const git_oid* id) {
  return calls().git_tree_lookup(out, repo, id);
}

/// Variadic in libgit2, so forwarded option by option: the options perfgate sets, each with
/// the arguments libgit2 reads for it. Any other option is refused as libgit2 refuses an
/// unknown one.
int git_libgit2_opts(int option, ...) {
  va_list arguments;
  va_start(arguments, option);
  int result = -1;
  switch (option) {
    case GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION:
      result = calls().git_libgit2_opts(option, va_arg(arguments, int));
      break;
    case GIT_OPT_SET_CACHE_OBJECT_LIMIT: {
      const int type = va_arg(arguments, int);
      const std::size_t limit = va_arg(arguments, std::size_t);
      result = calls().git_libgit2_opts(option, type, limit);
      break;
    }
    default:
      break;
  }
  va_end(arguments);
  return result;
}

}  // extern "C"
