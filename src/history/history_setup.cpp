#include "history/history_setup.hpp"

#include <unordered_map>

#include "config/config_document.hpp"
#include "config/project_config.hpp"
#include "model/error.hpp"

namespace perfgate::history {

HistorySetup open_history(const std::filesystem::path& repo_dir,
                          const std::optional<std::string>& archive_url) {
  std::error_code ec;
  if (!std::filesystem::is_directory(repo_dir, ec)) {
    throw Error(ExitCode::kNoInput,
                "--repo: " + repo_dir.string() + ": no such folder. Check the path");
  }
  HistorySetup setup;
  setup.repository = open_git_repository(repo_dir);
  setup.config_file = setup.repository->root() / "perfgate.toml";
  if (!std::filesystem::is_regular_file(setup.config_file, ec)) {
    throw Error(ExitCode::kNoInput,
                setup.config_file.string() +
                    ": not found. `perfgate history` reads the [history] table of perfgate.toml "
                    "at the repository root (docs/history.md)");
  }
  const ProjectConfig project = load_project_config(setup.config_file);
  if (!project.history) {
    throw Error(ExitCode::kDataError,
                setup.config_file.string() +
                    ": has no [history] table. Add one with the branch to monitor, the build "
                    "commands and the suite (docs/history.md)");
  }
  setup.config = *project.history;
  setup.archive = open_archive(archive_url.value_or(setup.config.archive), *setup.repository,
                               setup.repository->root(), setup.config.remote);
  return setup;
}

std::optional<std::string> find_activation_commit(
    const GitRepository& repository, const std::vector<std::string>& chain_newest_first) {
  // Most commits share one perfgate.toml blob: parse each blob once.
  std::unordered_map<std::string, bool> has_history;
  for (auto it = chain_newest_first.rbegin(); it != chain_newest_first.rend(); ++it) {
    const std::string& sha = *it;
    const auto blob = repository.object_id_at(sha, "perfgate.toml");
    if (!blob) continue;
    auto found = has_history.find(*blob);
    if (found == has_history.end()) {
      bool history = false;
      if (const auto text = repository.read_file_at(sha, "perfgate.toml")) {
        try {
          const ConfigDocument document = parse_toml_document("perfgate.toml", *text);
          history = document.root.find("history") != nullptr;
        } catch (const Error&) {
          history = false;  // a broken perfgate.toml of an old commit activates nothing
        }
      }
      found = has_history.emplace(*blob, history).first;
    }
    if (found->second) return sha;
  }
  return std::nullopt;
}

}  // namespace perfgate::history
