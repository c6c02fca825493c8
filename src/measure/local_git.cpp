#include "measure/local_git.hpp"

namespace perfgate {
namespace {

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

std::optional<LocalGit> read_local_git(const HostProbe& host, const std::filesystem::path& dir) {
  const CommandOutput head = host.run_command({"git", "rev-parse", "--verify", "HEAD"}, dir);
  if (!head.started || head.exit_status != 0) return std::nullopt;
  LocalGit git;
  git.commit = first_line(head.out);
  if (git.commit.size() != 40) return std::nullopt;
  const CommandOutput branch =
      host.run_command({"git", "symbolic-ref", "--quiet", "--short", "HEAD"}, dir);
  if (branch.exit_status == 0 && !first_line(branch.out).empty())
    git.branch = first_line(branch.out);
  // Untracked files are left out, as `git describe --dirty` does: a stray build folder
  // does not make the checkout differ from its commit.
  const CommandOutput status =
      host.run_command({"git", "status", "--porcelain", "--untracked-files=no"}, dir);
  git.dirty = status.exit_status == 0 && !status.out.empty();
  return git;
}

}  // namespace perfgate
