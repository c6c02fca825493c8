#include "measure/local_git.hpp"

#include <cstdlib>

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

bool local_git_wanted(const Json& ci) {
  if (ci.contains("commit") && !ci["commit"].is_null()) return false;
  // PERFGATE_COMMIT set to "" clears the commit on purpose: git does not put it back.
  return std::getenv("PERFGATE_COMMIT") == nullptr;
}

void apply_local_git(const std::optional<LocalGit>& git, Provenance& provenance,
                     const std::filesystem::path& dir, std::ostream& notes) {
  if (!git) return;
  Json& ci = provenance.ci;
  ci["commit"] = git->commit;
  if (!ci.contains("branch") || ci["branch"].is_null())
    ci["branch"] = git->branch ? Json(*git->branch) : Json(nullptr);
  ci["dirty"] = git->dirty;
  if (git->dirty) {
    notes << "perfgate: note: the git tree at " << dir.string()
          << " has uncommitted changes: the records name commit " << git->commit.substr(0, 12)
          << " and say dirty: true\n";
  }
}

void add_local_git(const HostProbe& host, Provenance& provenance, const std::filesystem::path& dir,
                   std::ostream& notes) {
  if (!local_git_wanted(provenance.ci)) return;
  apply_local_git(read_local_git(host, dir), provenance, dir, notes);
}

}  // namespace perfgate
