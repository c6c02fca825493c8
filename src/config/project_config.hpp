#pragma once
// perfgate.toml: project-wide settings at the suite root (SPEC §4).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/benchmark_config.hpp"
#include "config/history_config.hpp"
#include "config/report_config.hpp"
#include "config/software_profile_config.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

struct ProjectConfig {
  std::optional<std::filesystem::path> source;  ///< absent when no perfgate.toml was found
  /// The project perfgate was started in (absolute; config/project_location.hpp): the
  /// folder of the perfgate.toml found from the current folder, or a repository root that
  /// holds .perfgate/. Its store and results are used wherever in it perfgate starts.
  /// Absent outside any project.
  std::optional<std::filesystem::path> root;
  std::optional<std::string> store_url;              ///< [store] url
  std::optional<std::filesystem::path> results_dir;  ///< [run] results_dir, relative to the file
  // [run] defaults applied to configs that do not set them.
  std::optional<int> num_warmup_runs;
  std::optional<int> num_measurement_runs;
  std::optional<double> timeout_s;
  std::optional<double> log_limit_mb;            ///< worker log bound; default 8 MiB
  std::map<std::string, MetricPolicy> policies;  ///< [policies.<metric>]
  /// [policy] method: how compare decides; absent = the command's default (stat).
  std::optional<CompareMethod> compare_method;
  /// [policy] confirm_runs: compare re-measures a REGRESSION or INCONCLUSIVE state with this
  /// many more runs before it alerts (docs/compare.md, "Confirmation"); absent = 0, off.
  std::optional<int> confirm_runs;
  std::vector<std::string> trusted_run_sources = {"scheduled_main"};  ///< [baseline]
  SoftwareProfileConfig software_profile;                             ///< [software_profile]
  std::optional<HistoryConfig> history;  ///< [history], when the file has the table
  ReportConfig report;                   ///< [report]
};

/// The commit page the dashboard links each commit to ("{sha}" for its SHA): [report]
/// commit_url, else [history] commit_url (one project, one forge), else "" for none.
std::string report_commit_url(const ProjectConfig& project);

/// Loads and validates a perfgate.toml. Error(kNoInput) when missing, kDataError when
/// malformed; unknown keys are errors with the nearest known key suggested.
ProjectConfig load_project_config(const std::filesystem::path& file);

/// The project's [run] defaults (warmups, measured runs, time limit) on `run`, for each
/// setting the project sets: a config's own run_config, or `run --runs`, goes over them.
void apply_project_run_defaults(const ProjectConfig& project, RunSettings& run);

/// Finds perfgate.toml for a suite: in `start` (a folder) or any parent, stopping at the
/// first folder that holds a .git entry. Returns nullopt when there is none.
std::optional<std::filesystem::path> find_project_config(const std::filesystem::path& start);

}  // namespace perfgate
