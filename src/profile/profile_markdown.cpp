#include "profile/profile_markdown.hpp"

#include <algorithm>

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

void overview(std::string& out, const ProbeReport& report) {
  out += "## Overview\n\n| | |\n|---|---|\n";
  out += "| Created | " + cell(report.created_at) + " |\n";
  out += "| perfgate version | " + cell(report.perfgate_version) + " |\n";
  out += fmt::format("| Target | {} (pid {}) |\n", code(report.target.process_name),
                     report.target.pid);
  out += "| Executable | " + code(report.target.executable) + " |\n";
  out += "| Clock | " + cell(clock_text(report.config)) + " |\n";
  out += fmt::format("| Runs | {} |\n", report.runs.size());
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
  for (const auto& run : report.runs) {
    out += fmt::format("| {} | {} | {} | {} |\n", run.run_index,
                       cell(report.thread_name(run.thread_index)), duration(run.wall_time_us),
                       duration(run.cpu_time_us));
  }
  out += "\n";
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

void attribution(std::string& out, const ProbeReport& report) {
  out += "## Per-run attribution\n\n";
  if (report.runs.empty()) {
    out += "No runs.\n\n";
    return;
  }
  for (const auto& run : report.runs) {
    out += fmt::format("### Run {} ({}, {})\n\n", run.run_index,
                       cell(report.thread_name(run.thread_index)), duration(run.wall_time_us));
    out += "| Region | Calls | Wall | Self | Fraction |\n|---|---:|---:|---:|---:|\n";
    for (const auto& region : run.regions) {
      out += fmt::format("| {} | {} | {} | {} | {} |\n", code(region.region_id), region.calls,
                         duration(region.wall_time_us), duration(region.self_wall_time_us),
                         percent(region.wall_time_fraction));
    }
    out += fmt::format("| _(residual)_ | | {} | | {} |\n\n", duration(run.residual_wall_time_us),
                       percent(run.residual_wall_time_fraction));
  }
}

void key_average_table(std::string& out, const std::string& title,
                       const std::vector<KeyAverage>& rows) {
  out += "### " + title + "\n\n";
  if (rows.empty()) {
    out += "No regions ran inside a run.\n\n";
    return;
  }
  out += "| Region | Calls | Self | Total | Runs |\n|---|---:|---:|---:|---:|\n";
  for (const auto& row : rows) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", code(row.region_id), row.calls,
                       duration(row.self_wall_time_us), duration(row.wall_time_us), row.runs);
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
  std::string out = "# Probe profile: " + cell(report.target.process_name) + "\n\n";
  overview(out, report);
  runs(out, report);
  regions(out, report);
  attribution(out, report);
  out += "## Key averages\n\n";
  key_average_table(out, "By self time", report.key_averages.self_time);
  key_average_table(out, "By total time", report.key_averages.total_time);
  warnings(out, report);
  return out;
}

}  // namespace perfgate::profile
