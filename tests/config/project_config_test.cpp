#include "config/project_config.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(ProjectConfig, ReadsEverySection) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml", R"(
[store]
url = "sqlite:///perf.db"

[run]
results_dir = "out/../results/"
num_warmup_runs = 2
num_measurement_runs = 9
timeout_s = 120
log_limit_mb = 4.5

[policies.latency]
threshold_percent = 0.05
threshold_absolute = 0.2

[policies.decode_s]
threshold_percent = 0.2
threshold_absolute = 0
gated = false

[baseline]
trusted_run_sources = ["scheduled_main", "local"]

[software_profile]
packages = ["torch", "numpy"]
)");
  const ProjectConfig project = load_project_config(file);
  EXPECT_EQ(project.source, file);
  EXPECT_EQ(project.store_url, "sqlite:///perf.db");
  EXPECT_EQ(project.results_dir, dir.path() / "results");
  EXPECT_EQ(project.num_warmup_runs, 2);
  EXPECT_EQ(project.num_measurement_runs, 9);
  EXPECT_EQ(project.timeout_s, 120.0);
  EXPECT_EQ(project.log_limit_mb, 4.5);
  EXPECT_EQ(project.policies.at("latency"), (MetricPolicy{0.05, 0.2, true}));
  EXPECT_EQ(project.policies.at("decode_s"), (MetricPolicy{0.2, 0.0, false}));
  EXPECT_EQ(project.trusted_run_sources, (std::vector<std::string>{"scheduled_main", "local"}));
  EXPECT_EQ(project.software_profile.dpkg_packages, (std::vector<std::string>{"torch", "numpy"}));
}

TEST(ProjectConfig, KeepsDefaultsForSectionsThatAreAbsent) {
  TempDir dir;
  const ProjectConfig project = load_project_config(dir.write("perfgate.toml", ""));
  EXPECT_FALSE(project.store_url);
  EXPECT_FALSE(project.results_dir);
  EXPECT_FALSE(project.num_measurement_runs);
  EXPECT_TRUE(project.policies.empty());
  EXPECT_EQ(project.trusted_run_sources, std::vector<std::string>{"scheduled_main"});
}

TEST(ProjectConfig, ReadsTheCompareMethodOfThePolicyTable) {
  TempDir dir;
  EXPECT_FALSE(load_project_config(dir.write("a.toml", "")).compare_method.has_value());
  EXPECT_EQ(
      load_project_config(dir.write("b.toml", "[policy]\nmethod = \"seed\"\n")).compare_method,
      CompareMethod::kSeed);
  EXPECT_EQ(
      load_project_config(dir.write("c.toml", "[policy]\nmethod = \"stat\"\n")).compare_method,
      CompareMethod::kStat);
}

TEST(ProjectConfig, ReadsConfirmRunsOfThePolicyTableAndRefusesTooMany) {
  TempDir dir;
  EXPECT_FALSE(load_project_config(dir.write("a.toml", "")).confirm_runs.has_value());
  EXPECT_EQ(load_project_config(dir.write("b.toml", "[policy]\nconfirm_runs = 5\n")).confirm_runs,
            5);
  EXPECT_EQ(load_project_config(dir.write("c.toml", "[policy]\nconfirm_runs = 0\n")).confirm_runs,
            0);
  const auto file = dir.write("d.toml", "[policy]\nconfirm_runs = 1001\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what()).find(file.string() + ": policy.confirm_runs: "),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("1000"), std::string::npos) << error.what();
  }
}

TEST(ProjectConfig, RefusesAnUnknownCompareMethodNamingTheChoices) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml", "[policy]\nmethod = \"median\"\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what()),
              file.string() +
                  ": policy.method: unknown compare method 'median'. Use \"stat\" (an interval "
                  "from the samples; the default) or \"seed\" (the mean against the median of "
                  "5, as seed 000)");
  }
}

TEST(ProjectConfig, TakesTheReportsCommitUrlElseTheHistorysElseNone) {
  TempDir dir;
  EXPECT_EQ(report_commit_url(load_project_config(dir.write("a.toml", ""))), "");
  EXPECT_EQ(report_commit_url(load_project_config(
                dir.write("b.toml", "[history]\ncommit_url = \"https://git.example/h/{sha}\"\n"))),
            "https://git.example/h/{sha}");
  const ProjectConfig both = load_project_config(
      dir.write("c.toml",
                "[history]\ncommit_url = \"https://git.example/h/{sha}\"\n"
                "[report]\ncommit_url = \"https://forge.example/r/-/commit/{sha}\"\n"));
  EXPECT_EQ(both.report.commit_url, "https://forge.example/r/-/commit/{sha}");
  EXPECT_EQ(report_commit_url(both), "https://forge.example/r/-/commit/{sha}");
  EXPECT_EQ(report_commit_url(load_project_config(dir.write("d.toml", "[report]\n"))), "");
}

TEST(ProjectConfig, RefusesABadReportTableNamingEachKeyAndTheFix) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml",
                              "[report]\ncommit_ulr = \"https://git.example/{sha}\"\n"
                              "commit_url = \"https://git.example/commit/\"\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    const std::string f = file.string();
    EXPECT_EQ(std::string(error.what()),
              f + ": report.commit_ulr: unknown key 'commit_ulr'. Did you mean 'commit_url'?\n" +
                  f +
                  ": report.commit_url: has no {sha}. Give the address of a commit's page with "
                  "{sha} for its SHA, e.g. \"https://github.com/org/repo/commit/{sha}\"");
  }
  const auto script =
      dir.write("b.toml", "[report]\ncommit_url = \"javascript:alert(1)//{sha}\"\n");
  try {
    load_project_config(script);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              script.string() +
                  ": report.commit_url: 'javascript:alert(1)//{sha}' is not an http(s) address. "
                  "Give the address of a commit's page with {sha} for its SHA, e.g. "
                  "\"https://github.com/org/repo/commit/{sha}\"");
  }
  const auto table = dir.write("c.toml", "[reports]\ncommit_url = \"https://git.example/{sha}\"\n");
  try {
    load_project_config(table);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              table.string() + ": reports: unknown key 'reports'. Did you mean 'report'?");
  }
}

TEST(ProjectConfig, NamesTheKeyPathOfABadPolicy) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml",
                              "[policies.memory]\nthreshold_percent = 0.05\n"
                              "threshold_absolute = -1\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what()),
              file.string() +
                  ": policies.memory.threshold_absolute: must not be negative. Set 0 or a "
                  "positive value in the metric's unit");
  }
}

TEST(ProjectConfig, RefusesAPolicyForAMisspelledStandardMetricAndAPercentAboveOne) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml",
                              "[policies.latancy]\nthreshold_percent = 0.05\n"
                              "threshold_absolute = 0.1\n"
                              "[policies.cpu_time]\nthreshold_percent = 8\n"
                              "threshold_absolute = 0.1\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what()),
              file.string() +
                  ": policies.latancy: no record has a metric named 'latancy'. Did you mean "
                  "'latency'? The metrics records can carry are 'latency', 'throughput', "
                  "'memory', 'cpu_time', 'gpu_memory', 'instructions', 'l1_misses', "
                  "'ll_misses', 'estimated_cycles', 'cycles', 'branch_misses' and any name "
                  "the program reports\n" +
                  file.string() +
                  ": policies.cpu_time.threshold_percent: is 8, which means 800%; "
                  "threshold_percent is a fraction (0.08 means 8%) and may not exceed 1. Did "
                  "you mean 0.08?");
  }
}

TEST(ProjectConfig, AnUnknownKeyDoesNotHideTheOtherErrorsOfItsTable) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml",
                              "[run]\nnum_warmup_run = 1\nnum_measurement_runs = 0\n"
                              "[policies.memory]\nthreshold_percnt = 0.05\n"
                              "threshold_absolute = -1\n");
  try {
    load_project_config(file);
    FAIL() << "accepted";
  } catch (const Error& error) {
    const std::string f = file.string();
    EXPECT_EQ(std::string(error.what()),
              f +
                  ": run.num_warmup_run: unknown key 'num_warmup_run'. Did you mean "
                  "'num_warmup_runs'?\n" +
                  f +
                  ": run.num_measurement_runs: must be at least 1, found 0. Set it to 1 or "
                  "more\n" +
                  f +
                  ": policies.memory.threshold_percnt: unknown key 'threshold_percnt'. Did "
                  "you mean 'threshold_percent'?\n" +
                  f +
                  ": policies.memory.threshold_percent: missing required key. Add "
                  "threshold_percent as a fraction (0.08 means 8%)\n" +
                  f +
                  ": policies.memory.threshold_absolute: must not be negative. Set 0 or a "
                  "positive value in the metric's unit");
  }
}

TEST(ProjectConfig, ReportsAMissingFileAsNoInput) {
  TempDir dir;
  try {
    load_project_config(dir.path() / "perfgate.toml");
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
  }
}

TEST(ProjectConfig, IsFoundInTheStartFolderOrAParent) {
  TempDir dir;
  const auto file = dir.write("perfgate.toml", "");
  std::filesystem::create_directories(dir.path() / "a/b");
  EXPECT_EQ(find_project_config(dir.path()), file);
  EXPECT_EQ(find_project_config(dir.path() / "a/b/"), file);
}

TEST(ProjectConfig, IsNotSearchedAboveARepositoryRoot) {
  TempDir dir;
  dir.write("perfgate.toml", "");
  std::filesystem::create_directories(dir.path() / "repo/.git");
  std::filesystem::create_directories(dir.path() / "repo/suite");
  EXPECT_EQ(find_project_config(dir.path() / "repo/suite"), std::nullopt);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
