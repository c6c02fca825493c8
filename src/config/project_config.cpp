// perfgate.toml: project-wide defaults and policies, validated as strictly as configs.
#include "config/project_config.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "config/config_sections.hpp"
#include "config/error_list.hpp"

namespace perfgate {
namespace {

constexpr std::array<std::string_view, 4> kRunSources = {"pr", "local", "scheduled_main",
                                                         "unknown"};

void read_store(ProjectConfig& project, const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value, {"url"}, errors);
  errors.check([&] {
    if (auto url = table.get("url")) project.store_url = url->non_empty_string();
  });
  errors.throw_if_any();
}

void read_run(ProjectConfig& project, const ConfigValue& value,
              const std::filesystem::path& project_dir) {
  ErrorList errors;
  const ConfigTable table(
      value,
      {"results_dir", "num_warmup_runs", "num_measurement_runs", "timeout_s", "log_limit_mb"},
      errors);
  errors.check([&] {
    if (auto v = table.get("results_dir")) {
      std::filesystem::path dir = (project_dir / v->non_empty_string()).lexically_normal();
      if (dir.filename().empty()) dir = dir.parent_path();  // "out/" -> "out"
      project.results_dir = dir;
    }
  });
  errors.check([&] {
    if (auto v = table.get("num_warmup_runs"))
      project.num_warmup_runs = v->int_between(0, kMaxRunsPerState);
  });
  errors.check([&] {
    if (auto v = table.get("num_measurement_runs"))
      project.num_measurement_runs = v->int_between(1, kMaxRunsPerState);
  });
  errors.check([&] {
    if (auto v = table.get("timeout_s")) project.timeout_s = v->positive_number();
  });
  errors.check([&] {
    if (auto v = table.get("log_limit_mb")) project.log_limit_mb = v->positive_number();
  });
  errors.throw_if_any();
}

void read_policies(ProjectConfig& project, const ConfigValue& value) {
  const PolicyMetrics metrics = project_policy_metrics();
  ErrorList errors;
  for (const auto& [metric, policy] : value.members()) {
    errors.check([&, &metric = metric, &policy = policy] {
      check_policy_metric(policy, metric, metrics);
      project.policies[metric] = read_metric_policy(policy);
    });
  }
  errors.throw_if_any();
}

void read_policy(ProjectConfig& project, const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value, {"method", "confirm_runs"}, errors);
  errors.check([&] {
    const auto method = table.get("method");
    if (!method) return;
    const std::string text = method->string();
    project.compare_method = parse_compare_method(text);
    if (!project.compare_method) {
      throw method->error("unknown compare method '" + text + "'",
                          "Use \"stat\" (an interval from the samples; the default) or \"seed\" "
                          "(the mean against the median of 5, as seed 000)");
    }
  });
  errors.check([&] {
    // 0 turns confirmation off, as `compare --confirm 0` does.
    if (const auto runs = table.get("confirm_runs"))
      project.confirm_runs = static_cast<int>(runs->int_between(0, kMaxConfirmRuns));
  });
  errors.throw_if_any();
}

void read_trusted_run_sources(ProjectConfig& project, const ConfigTable& table) {
  const auto sources = table.get("trusted_run_sources");
  if (!sources) return;
  std::vector<std::string> list;
  for (const auto& item : sources->items()) {
    const std::string source = item.string();
    if (std::find(kRunSources.begin(), kRunSources.end(), source) == kRunSources.end()) {
      throw item.error("unknown run source '" + source + "'",
                       "Use pr, local, scheduled_main or unknown");
    }
    list.push_back(source);
  }
  if (list.empty()) {
    throw sources->error("must list at least one run source",
                         "Without one no record could ever join a baseline; the default is "
                         "[\"scheduled_main\"]");
  }
  project.trusted_run_sources = list;
}

void read_baseline(ProjectConfig& project, const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value, {"trusted_run_sources"}, errors);
  errors.check([&] { read_trusted_run_sources(project, table); });
  errors.throw_if_any();
}

}  // namespace

ProjectConfig load_project_config(const std::filesystem::path& file) {
  const ConfigDocument document = read_config_document(file);
  const ConfigValue root(document, document.root, "");
  ProjectConfig project;
  project.source = file;
  const std::filesystem::path project_dir = std::filesystem::absolute(file).parent_path();
  const std::vector<std::string> sections = {
      "store", "run", "policy", "policies", "baseline", "software_profile", "history", "report"};
  ErrorList errors;
  for (const auto& [key, value] : root.members()) {
    errors.check([&, &key = key, &value = value] {
      if (key == "store") {
        read_store(project, value);
      } else if (key == "run") {
        read_run(project, value, project_dir);
      } else if (key == "policies") {
        read_policies(project, value);
      } else if (key == "policy") {
        read_policy(project, value);
      } else if (key == "baseline") {
        read_baseline(project, value);
      } else if (key == "software_profile") {
        project.software_profile = read_software_profile_config(value, project_dir);
      } else if (key == "history") {
        project.history = read_history_config(value);
      } else if (key == "report") {
        project.report = read_report_config(value);
      } else {
        throw unknown_key_error(root, key, sections);
      }
    });
  }
  errors.throw_if_any();
  return project;
}

std::optional<std::filesystem::path> find_project_config(const std::filesystem::path& start) {
  std::filesystem::path folder = std::filesystem::absolute(start).lexically_normal();
  if (folder.filename().empty()) folder = folder.parent_path();  // "a/b/" -> "a/b"
  std::error_code ec;
  while (true) {
    const std::filesystem::path candidate = folder / "perfgate.toml";
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
    // A repository root bounds the search: a perfgate.toml above it belongs to someone else.
    if (std::filesystem::exists(folder / ".git", ec)) return std::nullopt;
    if (folder == folder.parent_path()) return std::nullopt;
    folder = folder.parent_path();
  }
}

std::string report_commit_url(const ProjectConfig& project) {
  if (!project.report.commit_url.empty()) return project.report.commit_url;
  return project.history ? project.history->commit_url : "";
}

void apply_project_run_defaults(const ProjectConfig& project, RunSettings& run) {
  if (project.num_warmup_runs) run.num_warmup_runs = *project.num_warmup_runs;
  if (project.num_measurement_runs) run.num_measurement_runs = *project.num_measurement_runs;
  if (project.timeout_s) run.timeout_s = project.timeout_s;
}

}  // namespace perfgate
