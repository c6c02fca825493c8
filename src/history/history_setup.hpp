#pragma once
// What every `history` subcommand starts from: the repository (--repo), the [history]
// table of its checked-out perfgate.toml (the current checkout drives the pipeline; each
// commit's own benchmarks are what gets measured), and the archive (--archive, else the
// table's archive).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/history_config.hpp"
#include "history/archive.hpp"
#include "history/git_repository.hpp"

namespace perfgate::history {

struct HistorySetup {
  std::unique_ptr<GitRepository> repository;
  HistoryConfig config;
  std::filesystem::path config_file;
  std::unique_ptr<Archive> archive;
};

/// Error(kNoInput) outside a repository or without perfgate.toml at its root;
/// Error(kDataError) for a perfgate.toml without a [history] table or with a bad one.
HistorySetup open_history(const std::filesystem::path& repo_dir,
                          const std::optional<std::string>& archive_url);

/// The oldest commit of `chain_newest_first` (a first-parent chain, the tip first) whose
/// perfgate.toml has a [history] table; nullopt when none has.
std::optional<std::string> find_activation_commit(
    const GitRepository& repository, const std::vector<std::string>& chain_newest_first);

}  // namespace perfgate::history
