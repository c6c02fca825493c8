#pragma once
// The git checkout a local run measures: outside CI no variable names the commit, so
// `perfgate run` asks git itself, and says when the tree has uncommitted changes (the
// commit then names less than what was measured).
#include <filesystem>
#include <optional>
#include <string>

#include "measure/host_profile.hpp"

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

}  // namespace perfgate
