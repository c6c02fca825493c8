#pragma once
// The git checkout a local run measures: outside CI no variable names the commit, so
// `perfgate run` asks git itself, and says when the tree has uncommitted changes (the
// commit then names less than what was measured).
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "measure/host_profile.hpp"
#include "model/provenance.hpp"

namespace perfgate {

struct LocalGit {
  std::string commit;                 ///< HEAD, 40 hex digits
  std::optional<std::string> branch;  ///< none when HEAD is detached
  bool dirty = false;                 ///< tracked files differ from HEAD (staged or not)
};

/// HEAD, its branch and whether tracked files have uncommitted changes, for the work tree
/// around `dir`; nullopt outside a git work tree, without git, or on a repository with no
/// commit yet. Never throws.
std::optional<LocalGit> read_local_git(const HostProbe& host, const std::filesystem::path& dir);

/// Outside CI nothing names the commit: fills provenance.ci's commit, branch and dirty from
/// read_local_git, unless CI named a commit or PERFGATE_COMMIT is set (to "" it clears the
/// commit on purpose). A dirty tree gets a line on `notes`. `run` and `import` both do it.
void add_local_git(const HostProbe& host, Provenance& provenance, const std::filesystem::path& dir,
                   std::ostream& notes);

/// Whether add_local_git would ask git, given the CI metadata's JSON (provenance.ci): so
/// that `run` can ask it while it describes the host, before the provenance exists.
bool local_git_wanted(const Json& ci);
/// add_local_git's second half, with git's answer already read for `dir`.
void apply_local_git(const std::optional<LocalGit>& git, Provenance& provenance,
                     const std::filesystem::path& dir, std::ostream& notes);

}  // namespace perfgate
