#include "profile/profile_markdown.hpp"

#include <gtest/gtest.h>

#include "profile/probe_report_reader.hpp"
#include "support/probe_report_fixture.hpp"

namespace perfgate::profile {
namespace {

ProbeReport fixture() {
  return read_probe_report(perfgate::testing::probe_report_json(), "fixture");
}

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

## Per-run attribution

### Run 0 (main, 100 ms)

| Region | Calls | Wall | Self | Fraction |
|---|---:|---:|---:|---:|
| `frame` | 1 | 50 ms | 20 ms | 50.00% |
| `frame/decode` | 2 | 30 ms | 30 ms | 30.00% |
| `render` | 1 | 30 ms | 30 ms | 30.00% |
| _(residual)_ | | 20 ms | | 20.00% |

### Run 1 (worker, 200 ms)

| Region | Calls | Wall | Self | Fraction |
|---|---:|---:|---:|---:|
| `frame` | 1 | 100 ms | 40 ms | 50.00% |
| `frame/decode` | 3 | 60 ms | 60 ms | 30.00% |
| `render` | 1 | 80 ms | 80 ms | 40.00% |
| _(residual)_ | | 20 ms | | 10.00% |

## Key averages

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

## Warnings

| Code | Message |
|---|---|
| `REGION_OPEN_AT_EXIT` | region 'render' on thread 1 was still open when the report was written |
)");
}

TEST(ProfileMarkdown, RendersTheSameBytesFromTheSameJsonAgain) {
  const ProbeReport again = read_probe_report(to_json(fixture()), "again");
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

### By self time

No regions ran inside a run.

### By total time

No regions ran inside a run.

## Warnings

None.
)");
}

}  // namespace
}  // namespace perfgate::profile
