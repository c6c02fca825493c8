#include "profile/profile_markdown.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "report/markdown.hpp"
#include "report/units.hpp"

namespace perfgate::profile {
namespace {

/// A table cell: pipes would end the cell and newlines the row.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

/// A code span inside a table cell: pipes escaped as the cell needs, the span around them.
std::string code(const std::string& text) {
  return markdown_code_span(cell(text));
}

/// Report times are microseconds; the view scales them like every perfgate table.
std::string duration(double microseconds) {
  return format_quantity(microseconds / 1e6, "s");
}

std::string percent(double fraction) {
  return fmt::format("{:.2f}%", fraction * 100);
}

std::string clock_text(const ProbeConfig& config) {
  std::string text = config.clock;
  if (config.clock_hz) text += fmt::format(" ({:.4g} GHz)", *config.clock_hz / 1e9);
  if (!config.enabled) {
    text += ", probe disabled at run time";
    if (config.disabled_by) text += " by " + *config.disabled_by;
  }
  return text;
}

/// The distinct programs of the report: each merged input's, or the one target.
std::string programs(const ProbeReport& report) {
  if (report.targets.empty()) return report.target.process_name;
  std::vector<std::string> names;
  for (const auto& merged : report.targets) {
    if (std::find(names.begin(), names.end(), merged.target.process_name) == names.end())
      names.push_back(merged.target.process_name);
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

std::size_t warmup_count(const ProbeReport& report) {
  return static_cast<std::size_t>(std::count_if(report.runs.begin(), report.runs.end(),
                                                [](const ProbeRun& run) { return run.warmup; }));
}

void overview(std::string& out, const ProbeReport& report) {
  out += "## Overview\n\n| | |\n|---|---|\n";
  out += "| Created | " + cell(report.created_at) + " |\n";
  out += "| perfgate version | " + cell(report.perfgate_version) + " |\n";
  if (report.targets.empty()) {
    out += fmt::format("| Target | {} (pid {}) |\n", code(report.target.process_name),
                       report.target.pid);
    out += "| Executable | " + code(report.target.executable) + " |\n";
  } else {
    for (const auto& merged : report.targets) {
      out += fmt::format("| Target | {} (pid {}), {} from {} |\n", code(merged.target.process_name),
                         merged.target.pid, code(merged.target.executable), code(merged.source));
    }
  }
  out += "| Clock | " + cell(clock_text(report.config)) + " |\n";
  const std::size_t warmups = warmup_count(report);
  if (warmups > 0) {
    out += fmt::format("| Runs | {} ({} measured, {} warmup{}) |\n", report.runs.size(),
                       report.runs.size() - warmups, warmups, warmups == 1 ? "" : "s");
  } else {
    out += fmt::format("| Runs | {} |\n", report.runs.size());
  }
  if (report.trace) {
    out += fmt::format("| Trace | {} events, {} dropped |\n", report.trace->events.size(),
                       report.trace->dropped);
  } else {
    out += "| Trace | off |\n";
  }
  if (!report.sources.empty()) {
    std::string sources;
    for (const auto& source : report.sources)
      sources += (sources.empty() ? "" : ", ") + code(source);
    out += "| Merged from | " + sources + " |\n";
  }
  out += "\n";
}

/// Runs listed one per row, and runs given a table of their own, before the view points
/// to the summary across runs and --format json (a program may run a million times).
constexpr std::size_t kListedRuns = 100;
constexpr std::size_t kRunTables = 10;

void runs(std::string& out, const ProbeReport& report) {
  out += "## Runs\n\n";
  if (report.runs.empty()) {
    // Disabled is not the same as no runs: the program may open runs the probe ignored.
    if (!report.config.enabled) {
      out += "No runs: the probe was disabled" +
             (report.config.disabled_by ? " by " + code(*report.config.disabled_by) : "") +
             ", so nothing was recorded.\n\n";
    } else {
      out += "No runs: the program opened no `perfgate::probe::Run`.\n\n";
    }
    return;
  }
  out += "| Run | Thread | Wall | CPU |\n|---:|---|---:|---:|\n";
  const std::size_t listed = std::min(report.runs.size(), kListedRuns);
  for (std::size_t i = 0; i < listed; ++i) {
    const ProbeRun& run = report.runs[i];
    out += fmt::format("| {}{} | {} | {} | {} |\n", run.run_index, run.warmup ? " (warmup)" : "",
                       cell(report.thread_name(run.thread_index)), duration(run.wall_time_us),
                       duration(run.cpu_time_us));
  }
  out += "\n";
  if (listed < report.runs.size()) {
    out += fmt::format(
        "{} more runs are in the summary across runs below; `--format json` lists each.\n\n",
        report.runs.size() - listed);
  }
  if (warmup_count(report) > 0) {
    out +=
        "Warmup runs are kept but left out of the summary across runs and the key "
        "averages.\n\n";
  }
}

/// "file:line (function)", or "unknown" for a region named through the C API without a
/// location (perfgate_probe_region_begin) or a NamedRegion.
std::string call_site(const RegionInfo& region) {
  if (region.file.empty()) return "unknown";
  std::string site = region.file + ":" + std::to_string(region.line);
  if (!region.function.empty()) site += " (" + region.function + ")";
  return cell(site);
}

void regions(std::string& out, const ProbeReport& report) {
  out += "## Regions\n\n";
  if (report.regions.empty()) {
    out += "No regions.\n\n";
    return;
  }
  out += "| Id | Name | Parent | Depth | Call site |\n|---|---|---|---:|---|\n";
  for (const auto& region : report.regions) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", code(region.id), cell(region.name),
                       region.parent ? code(*region.parent) : "-", region.depth, call_site(region));
  }
  out += "\n";
}

/// One row of a tree table: a region's figures, however they were summed.
struct TreeRow {
  std::string id;
  double calls = 0;
  double wall_us = 0;
  double self_us = 0;
  double fraction = 0;
  std::vector<double> extra;  // further columns (the summary's median and maximum)
};

/// The rows in tree order: each row's children right after it, indented, siblings by wall
/// time (longest first, ties by id). A row whose parent has no row is a root.
std::vector<std::pair<const TreeRow*, int>> tree_order(const std::vector<TreeRow>& rows,
                                                       const ProbeReport& report) {
  std::map<std::string, const TreeRow*> by_id;
  for (const auto& row : rows) by_id[row.id] = &row;
  std::map<std::string, std::vector<const TreeRow*>> children;
  std::vector<const TreeRow*> roots;
  for (const auto& row : rows) {
    const RegionInfo* info = report.region(row.id);
    if (info != nullptr && info->parent && by_id.count(*info->parent) != 0) {
      children[*info->parent].push_back(&row);
    } else {
      roots.push_back(&row);
    }
  }
  const auto longest_first = [](const TreeRow* a, const TreeRow* b) {
    return a->wall_us != b->wall_us ? a->wall_us > b->wall_us : a->id < b->id;
  };
  std::vector<std::pair<const TreeRow*, int>> order;
  const std::function<void(const TreeRow*, int)> visit = [&](const TreeRow* row, int level) {
    order.emplace_back(row, level);
    auto& kids = children[row->id];
    std::sort(kids.begin(), kids.end(), longest_first);
    for (const TreeRow* kid : kids) visit(kid, level + 1);
  };
  std::sort(roots.begin(), roots.end(), longest_first);
  for (const TreeRow* root : roots) visit(root, 0);
  return order;
}

/// A region's cell in a tree table: a root by its id, a nested row by its name, indented
/// with no-break spaces (a Markdown cell drops leading spaces) under a corner.
std::string tree_cell(const TreeRow& row, int level, const ProbeReport& report) {
  if (level == 0) return code(row.id);
  const RegionInfo* info = report.region(row.id);
  const std::string name = info != nullptr ? info->name : row.id;
  std::string indent;
  for (int i = 1; i < level; ++i) indent += "\u00a0\u00a0\u00a0";
  return indent + "\u2514\u00a0" + code(name);
}

std::string calls_text(double calls) {
  if (calls == static_cast<double>(static_cast<long long>(calls)))
    return std::to_string(static_cast<long long>(calls));
  return fmt::format("{:.2f}", calls);
}

/// A run's (or the runs' mean) tree with its residual and the line that adds them up.
/// Nested fractions are in parentheses: they are inside their parent's.
void tree_table(std::string& out, const std::vector<TreeRow>& rows, const ProbeReport& report,
                double wall_us, double residual_us, double residual_fraction,
                const std::vector<std::string>& extra_headers, bool whole_run = true,
                const std::string& time_label = "Wall") {
  out += "| Region | Calls | " + time_label + " | Self |";
  std::string align = "|---|---:|---:|---:|";
  for (const auto& header : extra_headers) {
    out += " " + header + " |";
    align += "---:|";
  }
  out += " Fraction |\n" + align + "---:|\n";
  double top_level = 0;
  for (const auto& [row, level] : tree_order(rows, report)) {
    out += fmt::format("| {} | {} | {} | {} |", tree_cell(*row, level, report),
                       calls_text(row->calls), duration(row->wall_us), duration(row->self_us));
    for (const double value : row->extra) out += " " + duration(value) + " |";
    if (level == 0) {
      top_level += row->fraction;
      out += " " + percent(row->fraction) + " |\n";
    } else {
      out += " (" + percent(row->fraction) + ") |\n";
    }
  }
  if (!whole_run) {  // work beside the run: no residual, and no 100% to reach
    out += "\n";
    return;
  }
  std::string empty_extra;
  for (std::size_t i = 0; i < extra_headers.size(); ++i) empty_extra += " |";
  out += fmt::format("| _(residual)_ | | {} | |{} {} |\n", duration(residual_us), empty_extra,
                     percent(residual_fraction));
  out += fmt::format("| _top level + residual_ | | {} | |{} {} |\n\n", duration(wall_us),
                     empty_extra, percent(top_level + residual_fraction));
}

TreeRow tree_row(const RegionTime& time) {
  return {time.region_id,         static_cast<double>(time.calls), time.wall_time_us,
          time.self_wall_time_us, time.wall_time_fraction,         {}};
}

/// Work other threads did for a run: by thread, each thread's rows as a tree.
void dispatched_table(std::string& out, const std::vector<DispatchedTime>& dispatched,
                      const ProbeReport& report) {
  if (dispatched.empty()) return;
  out +=
      "Dispatched to other threads (RunContext): concurrent with the run, so not part of "
      "its 100%.\n\n| Thread | Region | Calls | Wall | Self | Fraction |\n"
      "|---|---|---:|---:|---:|---:|\n";
  std::map<long long, std::vector<TreeRow>> by_thread;
  for (const auto& row : dispatched) by_thread[row.thread_index].push_back(tree_row(row.time));
  for (const auto& [thread, rows] : by_thread) {
    for (const auto& [row, level] : tree_order(rows, report)) {
      out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(report.thread_name(thread)),
                         tree_cell(*row, level, report), calls_text(row->calls),
                         duration(row->wall_us), duration(row->self_us), percent(row->fraction));
    }
  }
  out += "\n";
}

/// Each region's time per measured run, with its median and longest run: what a program
/// that runs a million times is summarised by.
TreeRow summary_tree_row(const SummaryRow& row) {
  return {row.region_id,          row.calls,
          row.wall_time_us,       row.self_wall_time_us,
          row.wall_time_fraction, {row.median_us, row.max_us}};
}

/// The library's own summary: every measured run, those folded past runs[] included.
void across_runs_from_summary(std::string& out, const ProbeReport& report,
                              const ProbeSummary& summary) {
  out += fmt::format("## Across runs\n\nThe mean of {} measured run{}", summary.measured_runs,
                     summary.measured_runs == 1 ? "" : "s");
  const long long warmups = summary.runs - summary.measured_runs;
  if (warmups > 0) {
    out += fmt::format(" ({} warmup{} left out)", warmups, warmups == 1 ? "" : "s");
  }
  out += "; Median and Max are the region's wall time in one run";
  if (summary.quantiles == "histogram") {
    out += fmt::format(
        " (medians from histograms, within 4.5%: runs[] lists the first {} of "
        "{} runs)",
        summary.listed_runs, summary.runs);
  }
  out += ".\n\n";
  out += fmt::format("Run wall time: mean {}, min {}, median {}, p90 {}, max {}; CPU mean {}.\n\n",
                     duration(summary.wall_mean_us), duration(summary.wall_min_us),
                     duration(summary.wall_median_us), duration(summary.wall_p90_us),
                     duration(summary.wall_max_us), duration(summary.cpu_mean_us));
  std::vector<TreeRow> rows;
  for (const auto& row : summary.regions) rows.push_back(summary_tree_row(row));
  tree_table(out, rows, report, summary.wall_mean_us, summary.residual_wall_time_us,
             summary.residual_wall_time_fraction, {"Median", "Max"});
  if (!summary.dispatched.empty()) {
    out += "Dispatched to other threads (RunContext), per run:\n\n";
    std::vector<TreeRow> dispatched;
    for (const auto& row : summary.dispatched) dispatched.push_back(summary_tree_row(row));
    tree_table(out, dispatched, report, summary.wall_mean_us, 0, 0, {"Median", "Max"}, false);
  }
}

void across_runs(std::string& out, const ProbeReport& report) {
  if (report.summary) {
    if (report.summary->runs >= 2 && report.summary->measured_runs > 0)
      across_runs_from_summary(out, report, *report.summary);
    return;
  }
  std::vector<const ProbeRun*> measured;
  for (const auto& run : report.runs) {
    if (!run.warmup) measured.push_back(&run);
  }
  if (report.runs.size() < 2 || measured.empty()) return;
  out += fmt::format("## Across runs\n\nThe mean of {} measured run{}", measured.size(),
                     measured.size() == 1 ? "" : "s");
  if (measured.size() < report.runs.size()) {
    out += fmt::format(" ({} warmup{} left out)", report.runs.size() - measured.size(),
                       report.runs.size() - measured.size() == 1 ? "" : "s");
  }
  out += "; Median and Max are the region's wall time in one run.\n\n";
  struct Sum {
    double calls = 0, wall = 0, self = 0;
    // (measured run, wall time) where it ran: a region that runs in few of many runs keeps
    // few entries, so 100,000 regions over 1,000 runs stay small.
    std::vector<std::pair<std::size_t, double>> walls;
  };
  const auto n = static_cast<double>(measured.size());
  std::map<std::string, Sum> own;
  std::map<std::string, Sum> dispatched;
  double wall = 0;
  double residual = 0;
  for (std::size_t r = 0; r < measured.size(); ++r) {
    const ProbeRun& run = *measured[r];
    wall += run.wall_time_us;
    residual += run.residual_wall_time_us;
    const auto add = [&](std::map<std::string, Sum>& sums, const RegionTime& time) {
      Sum& sum = sums[time.region_id];
      sum.calls += static_cast<double>(time.calls);
      sum.wall += time.wall_time_us;
      sum.self += time.self_wall_time_us;
      if (sum.walls.empty() || sum.walls.back().first != r) sum.walls.emplace_back(r, 0.0);
      sum.walls.back().second += time.wall_time_us;
    };
    for (const auto& time : run.regions) add(own, time);
    for (const auto& row : run.dispatched) add(dispatched, row.time);
  }
  const auto rows_of = [&](std::map<std::string, Sum>& sums) {
    std::vector<TreeRow> rows;
    for (auto& [id, sum] : sums) {
      // Every measured run counts: those it did not run in, as zeros before the rest.
      std::vector<double> ran;
      ran.reserve(sum.walls.size());
      for (const auto& [run, value] : sum.walls) ran.push_back(value);
      std::sort(ran.begin(), ran.end());
      const std::size_t m = measured.size();
      const std::size_t zeros = m - ran.size();
      const auto at = [&](std::size_t i) { return i < zeros ? 0.0 : ran[i - zeros]; };
      const double median = m % 2 == 1 ? at(m / 2) : (at(m / 2 - 1) + at(m / 2)) / 2;
      rows.push_back({id,
                      sum.calls / n,
                      sum.wall / n,
                      sum.self / n,
                      wall > 0 ? sum.wall / wall : 0,
                      {median, ran.empty() ? 0.0 : ran.back()}});
    }
    return rows;
  };
  tree_table(out, rows_of(own), report, wall / n, residual / n, wall > 0 ? residual / wall : 0,
             {"Median", "Max"});
  if (!dispatched.empty()) {
    out += "Dispatched to other threads (RunContext), per run:\n\n";
    tree_table(out, rows_of(dispatched), report, wall / n, 0, 0, {"Median", "Max"}, false);
  }
}

/// The same tree in CPU time of the run's thread (per-region CPU time on): its top level and
/// CPU residual make the thread's CPU time over the run.
void cpu_table(std::string& out, const ProbeRun& run, const ProbeReport& report) {
  out += "In CPU time of the run's thread (" + duration(*run.thread_cpu_time_us) + "):\n\n";
  std::vector<TreeRow> rows;
  for (const auto& region : run.regions) {
    rows.push_back({region.region_id,
                    static_cast<double>(region.calls),
                    region.cpu_time_us.value_or(0),
                    region.self_cpu_time_us.value_or(0),
                    region.cpu_time_fraction.value_or(0),
                    {}});
  }
  tree_table(out, rows, report, *run.thread_cpu_time_us, run.residual_cpu_time_us.value_or(0),
             run.residual_cpu_time_fraction.value_or(0), {}, true, "CPU");
}

void attribution(std::string& out, const ProbeReport& report) {
  out += "## Per-run attribution\n\n";
  if (report.runs.empty()) {
    out += "No runs.\n\n";
    return;
  }
  out +=
      "Each run as a tree: nested rows sit under their parent, their fractions in "
      "parentheses are inside the parent's, and the top level with the residual makes the "
      "whole run.\n\n";
  const std::size_t shown = std::min(report.runs.size(), kRunTables);
  for (std::size_t i = 0; i < shown; ++i) {
    const ProbeRun& run = report.runs[i];
    out += fmt::format("### Run {} ({}, {}{})\n\n", run.run_index,
                       cell(report.thread_name(run.thread_index)), duration(run.wall_time_us),
                       run.warmup ? ", warmup" : "");
    std::vector<TreeRow> rows;
    for (const auto& region : run.regions) rows.push_back(tree_row(region));
    tree_table(out, rows, report, run.wall_time_us, run.residual_wall_time_us,
               run.residual_wall_time_fraction, {});
    if (run.thread_cpu_time_us) cpu_table(out, run, report);
    dispatched_table(out, run.dispatched, report);
  }
  if (shown < report.runs.size()) {
    out += fmt::format(
        "Runs {} to {} are in the summary across runs; `--format json` has each "
        "one.\n\n",
        report.runs[shown].run_index, report.runs.back().run_index);
  }
}

void key_average_table(std::string& out, const std::string& title,
                       const std::vector<KeyAverage>& rows) {
  out += "### " + title + "\n\n";
  if (rows.empty()) {
    out += "No regions ran inside a measured run.\n\n";
    return;
  }
  out += "| Region | Calls | Self | Total | Runs |\n|---|---:|---:|---:|---:|\n";
  for (const auto& row : rows) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", code(row.region_id), row.calls,
                       duration(row.self_wall_time_us), duration(row.wall_time_us), row.runs);
  }
  out += "\n";
}

void name_average_table(std::string& out, const std::vector<NameAverage>& rows) {
  out += "### By name, from any caller\n\n";
  if (rows.empty()) {
    out += "No regions ran inside a measured run.\n\n";
    return;
  }
  out += "| Name | Calls | Self | Total | Runs | Ids |\n|---|---:|---:|---:|---:|---:|\n";
  for (const auto& row : rows) {
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} |\n", code(row.name), row.calls,
                    duration(row.self_wall_time_us), duration(row.wall_time_us), row.runs, row.ids);
  }
  out += "\n";
}

void warnings(std::string& out, const ProbeReport& report) {
  out += "## Warnings\n\n";
  if (report.warnings.empty()) {
    out += "None.\n";
    return;
  }
  out += "| Code | Message |\n|---|---|\n";
  for (const auto& warning : report.warnings)
    out += "| " + code(warning.code) + " | " + cell(warning.message) + " |\n";
}

}  // namespace

std::string render_markdown(const ProbeReport& report) {
  std::string out = "# Probe profile: " + cell(programs(report)) + "\n\n";
  overview(out, report);
  runs(out, report);
  regions(out, report);
  across_runs(out, report);
  attribution(out, report);
  out += "## Key averages\n\nOver the measured runs; time on other threads included.\n\n";
  key_average_table(out, "By self time", report.key_averages.self_time);
  key_average_table(out, "By total time", report.key_averages.total_time);
  name_average_table(out, report.key_averages.by_name);
  warnings(out, report);
  return out;
}

}  // namespace perfgate::profile
