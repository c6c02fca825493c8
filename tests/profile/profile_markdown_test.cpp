#include "profile/profile_markdown.hpp"

#include <gtest/gtest.h>

#include "profile/probe_report_reader.hpp"
#include "support/probe_report_fixture.hpp"

namespace perfgate::profile {
namespace PERFGATE_TEST_FILE {

ProbeReport fixture() {
  return read_probe_report(perfgate::testing::probe_report_json(), "fixture");
}

// Nested rows are indented with U+00A0 (no-break space) after U+2514, which a Markdown
// cell keeps where it would drop plain spaces.
TEST(ProfileMarkdown, RendersEverySectionOfTheReportExactly) {
  EXPECT_EQ(render_markdown(fixture()), R"(# Probe profile: frames

## Overview

| | |
|---|---|
| Created | 2026-11-30T14:50:00Z |
| perfgate version | 0.1.0 |
| Target | `frames` (pid 4242) |
| Executable | `/opt/app/bin/frames` |
| Clock | tsc (2.899 GHz) |
| Runs | 2 |
| Trace | 3 events, 0 dropped |

## Runs

| Run | Thread | Wall | CPU |
|---:|---|---:|---:|
| 0 | main | 100 ms | 70 ms |
| 1 | worker | 200 ms | 150 ms |

## Regions

| Id | Name | Parent | Depth | Call site |
|---|---|---|---:|---|
| `frame` | frame | - | 0 | frames.cpp:20 (run_frame) |
| `frame/decode` | decode | `frame` | 1 | frames.cpp:12 (decode) |
| `render` | render | - | 0 | frames.cpp:30 (run_frame) |

## Across runs

The mean of 2 measured runs; Median and Max are the region's wall time in one run.

Run wall time: mean 150 ms, min 100 ms, median 100 ms, p90 200 ms, max 200 ms; CPU mean 110 ms.

| Region | Calls | Wall | Self | Median | Max | Fraction |
|---|---:|---:|---:|---:|---:|---:|
| `frame` | 1 | 75 ms | 30 ms | 50 ms | 100 ms | 50.00% |
| └ `decode` | 2.50 | 45 ms | 45 ms | 30 ms | 60 ms | (30.00%) |
| `render` | 1 | 55 ms | 55 ms | 30 ms | 80 ms | 36.67% |
| _(residual)_ | | 20 ms | | | | 13.33% |
| _top level + residual_ | | 150 ms | | | | 100.00% |

## Per-run attribution

Each run as a tree: nested rows sit under their parent, their fractions in parentheses are inside the parent's, and the top level with the residual makes the whole run.

### Run 0 (main, 100 ms)

| Region | Calls | Wall | Self | Fraction |
|---|---:|---:|---:|---:|
| `frame` | 1 | 50 ms | 20 ms | 50.00% |
| └ `decode` | 2 | 30 ms | 30 ms | (30.00%) |
| `render` | 1 | 30 ms | 30 ms | 30.00% |
| _(residual)_ | | 20 ms | | 20.00% |
| _top level + residual_ | | 100 ms | | 100.00% |

### Run 1 (worker, 200 ms)

| Region | Calls | Wall | Self | Fraction |
|---|---:|---:|---:|---:|
| `frame` | 1 | 100 ms | 40 ms | 50.00% |
| └ `decode` | 3 | 60 ms | 60 ms | (30.00%) |
| `render` | 1 | 80 ms | 80 ms | 40.00% |
| _(residual)_ | | 20 ms | | 10.00% |
| _top level + residual_ | | 200 ms | | 100.00% |

## Key averages

Over the measured runs; time on other threads included.

### By self time

| Region | Calls | Self | Total | Runs |
|---|---:|---:|---:|---:|
| `render` | 2 | 110 ms | 110 ms | 2 |
| `frame/decode` | 5 | 90 ms | 90 ms | 2 |
| `frame` | 2 | 60 ms | 150 ms | 2 |

### By total time

| Region | Calls | Self | Total | Runs |
|---|---:|---:|---:|---:|
| `frame` | 2 | 60 ms | 150 ms | 2 |
| `render` | 2 | 110 ms | 110 ms | 2 |
| `frame/decode` | 5 | 90 ms | 90 ms | 2 |

### By name, from any caller

| Name | Calls | Self | Total | Runs | Ids |
|---|---:|---:|---:|---:|---:|
| `render` | 2 | 110 ms | 110 ms | 2 | 1 |
| `decode` | 5 | 90 ms | 90 ms | 2 | 1 |
| `frame` | 2 | 60 ms | 150 ms | 2 | 1 |

## Warnings

| Code | Message |
|---|---|
| `REGION_OPEN_AT_EXIT` | region 'render' on thread 1 was still open when the report was written |
)");
}

TEST(ProfileMarkdown, RendersTheSameBytesFromTheSameJsonAgain) {
  const ProbeReport again = read_probe_report(Json(to_json(fixture())), "again");
  EXPECT_EQ(render_markdown(again), render_markdown(fixture()));
}

TEST(ProfileMarkdown, FencesNamesThatHoldBackticksSoTheirCodeSpanStaysWhole) {
  ProbeReport report;
  report.config.clock = "tsc";
  report.target = {"/bin/app", 7, "a`b"};
  const std::string view = render_markdown(report);
  EXPECT_NE(view.find("| Target | ``a`b`` (pid 7) |"), std::string::npos) << view;
  report.target.process_name = "`x";
  EXPECT_NE(render_markdown(report).find("| Target | `` `x `` (pid 7) |"), std::string::npos);
}

TEST(ProfileMarkdown, SaysWhatDisabledTheProbeAndCallsASiteWithoutALocationUnknown) {
  ProbeReport report;
  report.config.clock = "tsc";
  report.config.enabled = false;
  report.config.disabled_by = "PERFGATE_PROBE=0";
  report.regions.push_back({"parse", "parse", std::nullopt, 0, "", 0, ""});
  report.regions.push_back({"load", "load", std::nullopt, 0, "io.c", 12, ""});
  const std::string view = render_markdown(report);
  EXPECT_NE(view.find("| Clock | tsc, probe disabled at run time by PERFGATE_PROBE=0 |"),
            std::string::npos)
      << view;
  EXPECT_NE(view.find("No runs: the probe was disabled by `PERFGATE_PROBE=0`, so nothing was "
                      "recorded.\n"),
            std::string::npos)
      << view;
  EXPECT_NE(view.find("| `parse` | parse | - | 0 | unknown |\n"), std::string::npos) << view;
  EXPECT_NE(view.find("| `load` | load | - | 0 | io.c:12 |\n"), std::string::npos) << view;
}

TEST(ProfileMarkdown, SaysWhatIsAbsentInAReportWithoutRunsRegionsOrWarnings) {
  ProbeReport report;
  report.created_at = "2026-11-30T14:50:00Z";
  report.perfgate_version = "0.1.0";
  report.config.clock = "steady_clock";
  report.config.enabled = false;
  report.target = {"/bin/app", 7, "a|b"};
  report.sources = {"a.json", "b.json"};
  EXPECT_EQ(render_markdown(report), R"(# Probe profile: a\|b

## Overview

| | |
|---|---|
| Created | 2026-11-30T14:50:00Z |
| perfgate version | 0.1.0 |
| Target | `a\|b` (pid 7) |
| Executable | `/bin/app` |
| Clock | steady_clock, probe disabled at run time |
| Runs | 0 |
| Trace | off |
| Merged from | `a.json`, `b.json` |

## Runs

No runs: the probe was disabled, so nothing was recorded.

## Regions

No regions.

## Per-run attribution

No runs.

## Key averages

Over the measured runs; time on other threads included.

### By self time

No regions ran inside a measured run.

### By total time

No regions ran inside a measured run.

### By name, from any caller

No regions ran inside a measured run.

## Warnings

None.
)");
}

/// A report of `runs` runs on thread 0: `outer` (40% of each 100 µs run) with `inner`
/// nested in it (30%), then `tail` (10%); the residual is 50%.
ProbeReport tree_report(int runs) {
  ProbeReport report;
  report.config.clock = "tsc";
  report.target = {"/bin/app", 7, "app"};
  report.regions = {{"outer", "outer", std::nullopt, 0, "a.cpp", 1, "f"},
                    {"outer/inner", "inner", "outer", 1, "a.cpp", 2, "f"},
                    {"tail", "tail", std::nullopt, 0, "a.cpp", 3, "f"}};
  report.threads = {{0, "main"}};
  for (int i = 0; i < runs; ++i) {
    ProbeRun run;
    run.run_index = i;
    run.wall_time_us = 100;
    run.cpu_time_us = 90;
    run.regions = {
        {"outer", 1, 40, 10, 0.4}, {"outer/inner", 3, 30, 30, 0.3}, {"tail", 1, 10, 10, 0.1}};
    run.residual_wall_time_us = 50;
    run.residual_wall_time_fraction = 0.5;
    report.runs.push_back(run);
  }
  return report;
}

bool contains(const std::string& view, const std::string& text) {
  return view.find(text) != std::string::npos;
}

TEST(ProfileMarkdown, ShowsEachRunAsATreeWhoseTopLevelAndResidualMakeTheWholeRun) {
  const std::string view = render_markdown(tree_report(1));
  EXPECT_TRUE(contains(view,
                       "| Region | Calls | Wall | Self | Fraction |\n"
                       "|---|---:|---:|---:|---:|\n"
                       "| `outer` | 1 | 40 µs | 10 µs | 40.00% |\n"
                       "| \u2514\u00a0`inner` | 3 | 30 µs | 30 µs | (30.00%) |\n"
                       "| `tail` | 1 | 10 µs | 10 µs | 10.00% |\n"
                       "| _(residual)_ | | 50 µs | | 50.00% |\n"
                       "| _top level + residual_ | | 100 µs | | 100.00% |\n"))
      << view;
  EXPECT_FALSE(contains(view, "## Across runs")) << view;  // one run: its table says it all
}

TEST(ProfileMarkdown, IndentsDeeperRowsFurtherAndShowsABrokenSumAsItIs) {
  ProbeReport report = tree_report(1);
  report.regions.push_back({"outer/inner/leaf", "leaf", "outer/inner", 2, "a.cpp", 4, "f"});
  report.runs[0].regions.push_back({"outer/inner/leaf", 2, 5, 5, 0.05});
  report.runs[0].residual_wall_time_fraction = 0.4;  // a report whose sum is off
  const std::string view = render_markdown(report);
  EXPECT_TRUE(
      contains(view, "| \u00a0\u00a0\u00a0\u2514\u00a0`leaf` | 2 | 5 µs | 5 µs | (5.00%) |\n"))
      << view;
  EXPECT_TRUE(contains(view, "| _top level + residual_ | | 100 µs | | 90.00% |\n")) << view;
}

TEST(ProfileMarkdown, MarksWarmupsAndLeavesThemOutOfTheSummaryAcrossRuns) {
  ProbeReport report = tree_report(3);
  report.runs[0].warmup = true;
  report.runs[0].regions[0].wall_time_us = 90;  // a slow first run, left out below
  report.runs[2].regions[0].wall_time_us = 60;  // outer: 40 and 60 µs in the measured runs
  const std::string view = render_markdown(report);
  EXPECT_TRUE(contains(view, "| Runs | 3 (2 measured, 1 warmup) |\n")) << view;
  EXPECT_TRUE(contains(view, "| 0 (warmup) | main | 100 µs | 90 µs |\n")) << view;
  EXPECT_TRUE(contains(view, "### Run 0 (main, 100 µs, warmup)\n")) << view;
  EXPECT_TRUE(contains(view,
                       "The mean of 2 measured runs (1 warmup left out); Median and Max "
                       "are the region's wall time in one run.\n"))
      << view;
  EXPECT_TRUE(contains(view, "| Region | Calls | Wall | Self | Median | Max | Fraction |\n"))
      << view;
  EXPECT_TRUE(contains(view, "| `outer` | 1 | 50 µs | 10 µs | 50 µs | 60 µs | 50.00% |\n")) << view;
  EXPECT_TRUE(
      contains(view, "| \u2514\u00a0`inner` | 3 | 30 µs | 30 µs | 30 µs | 30 µs | (30.00%) |\n"))
      << view;
}

TEST(ProfileMarkdown, TakesTheSummaryAcrossRunsFromTheLibraryWhenItFoldedRuns) {
  ProbeReport report = tree_report(3);
  ProbeSummary summary;
  summary.runs = 1000;
  summary.measured_runs = 999;
  summary.listed_runs = 3;
  summary.quantiles = "histogram";
  summary.wall_mean_us = 100;
  summary.wall_min_us = 90;
  summary.wall_median_us = 99;
  summary.wall_p90_us = 120;
  summary.wall_max_us = 4000;
  summary.cpu_mean_us = 95;
  summary.residual_wall_time_us = 50;
  summary.residual_wall_time_fraction = 0.5;
  // id, runs, calls, wall, self, fraction, then per run: median, p90, max
  summary.regions = {{"outer", 999, 1, 40, 10, 0.4, 39, 300, 900},
                     {"outer/inner", 999, 3, 30, 30, 0.3, 29, 250, 800},
                     {"tail", 999, 1, 10, 10, 0.1, 10, 11, 12}};
  report.summary = summary;
  const std::string view = render_markdown(report);
  EXPECT_TRUE(contains(view,
                       "The mean of 999 measured runs (1 warmup left out); Median and Max "
                       "are the region's wall time in one run (medians from histograms, "
                       "within 4.5%: runs[] lists the first 3 of 1000 runs).\n\nRun wall "
                       "time: mean 100 µs, min 90 µs, median 99 µs, p90 120 µs, max 4 ms; "
                       "CPU mean 95 µs.\n"))
      << view;
  EXPECT_TRUE(contains(view, "| `outer` | 1 | 40 µs | 10 µs | 39 µs | 900 µs | 40.00% |\n"))
      << view;
  EXPECT_TRUE(contains(view, "| _top level + residual_ | | 100 µs | | | | 100.00% |\n")) << view;
}

TEST(ProfileMarkdown, ShowsTheRunsTreeInCpuTimeWhenTheReportHasIt) {
  ProbeReport report = tree_report(1);
  ProbeRun& run = report.runs[0];
  run.thread_cpu_time_us = 80;
  run.regions[0].cpu_time_us = 40;  // outer
  run.regions[0].self_cpu_time_us = 16;
  run.regions[0].cpu_time_fraction = 0.5;
  run.regions[1].cpu_time_us = 24;  // inner
  run.regions[1].self_cpu_time_us = 24;
  run.regions[1].cpu_time_fraction = 0.3;
  run.regions[2].cpu_time_us = 8;  // tail
  run.regions[2].self_cpu_time_us = 8;
  run.regions[2].cpu_time_fraction = 0.1;
  run.residual_cpu_time_us = 32;
  run.residual_cpu_time_fraction = 0.4;
  const std::string view = render_markdown(report);
  EXPECT_TRUE(contains(view,
                       "In CPU time of the run's thread (80 µs):\n\n"
                       "| Region | Calls | CPU | Self | Fraction |\n"
                       "|---|---:|---:|---:|---:|\n"
                       "| `outer` | 1 | 40 µs | 16 µs | 50.00% |\n"
                       "| \u2514\u00a0`inner` | 3 | 24 µs | 24 µs | (30.00%) |\n"
                       "| `tail` | 1 | 8 µs | 8 µs | 10.00% |\n"
                       "| _(residual)_ | | 32 µs | | 40.00% |\n"
                       "| _top level + residual_ | | 80 µs | | 100.00% |\n"))
      << view;
  // And the report reads back with its CPU fields.
  const ProbeReport again = read_probe_report(Json(to_json(report)), "again");
  EXPECT_EQ(again.runs[0].thread_cpu_time_us, std::optional<double>(80));
  EXPECT_EQ(again.runs[0].regions[1].self_cpu_time_us, std::optional<double>(24));
  EXPECT_EQ(again.runs[0].residual_cpu_time_fraction, std::optional<double>(0.4));
}

TEST(ProfileMarkdown, ShowsWorkDispatchedToOtherThreadsBesideTheRunsOwnTree) {
  ProbeReport report = tree_report(1);
  report.threads.push_back({1, "pool-1"});
  report.regions.push_back({"outer/task", "task", "outer", 1, "a.cpp", 9, "g"});
  report.runs[0].dispatched = {{1, {"outer/task", 4, 35, 35, 0.35}}};
  const std::string view = render_markdown(report);
  EXPECT_TRUE(contains(view,
                       "Dispatched to other threads (RunContext): concurrent with the run, "
                       "so not part of its 100%.\n\n| Thread | Region | Calls | Wall | "
                       "Self | Fraction |\n|---|---|---:|---:|---:|---:|\n| pool-1 | "
                       "`outer/task` | 4 | 35 µs | 35 µs | 35.00% |\n"))
      << view;
  // The run's own 100% is untouched.
  EXPECT_TRUE(contains(view, "| _top level + residual_ | | 100 µs | | 100.00% |\n")) << view;
}

TEST(ProfileMarkdown, ListsAtMostAHundredRunsAndTablesTenForALongProgram) {
  const std::string view = render_markdown(tree_report(150));
  EXPECT_TRUE(contains(view, "| 99 | main | 100 µs | 90 µs |\n")) << view;
  EXPECT_FALSE(contains(view, "| 100 | main |")) << view;
  EXPECT_TRUE(contains(view,
                       "50 more runs are in the summary across runs below; `--format json` "
                       "lists each.\n"))
      << view;
  EXPECT_TRUE(contains(view, "### Run 9 (main, 100 µs)")) << view;
  EXPECT_FALSE(contains(view, "### Run 10 ")) << view;
  EXPECT_TRUE(contains(view,
                       "Runs 10 to 149 are in the summary across runs; `--format json` has "
                       "each one.\n"))
      << view;
  EXPECT_TRUE(contains(view, "The mean of 150 measured runs; ")) << view;
}

TEST(ProfileMarkdown, TitlesAMergedReportWithEveryProgramAndListsEachTarget) {
  ProbeReport report = tree_report(1);
  report.targets = {{"a.json", {"/bin/app", 7, "app"}}, {"b.json", {"/bin/tool", 9, "tool"}}};
  report.threads = {{0, "main", 0}, {1, "main", 1}};
  const std::string view = render_markdown(report);
  EXPECT_TRUE(contains(view, "# Probe profile: app, tool\n")) << view;
  EXPECT_TRUE(contains(view,
                       "| Target | `app` (pid 7), `/bin/app` from `a.json` |\n"
                       "| Target | `tool` (pid 9), `/bin/tool` from `b.json` |\n"))
      << view;
  EXPECT_TRUE(contains(view, "### Run 0 (main (app, pid 7), 100 µs)")) << view;
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::profile
