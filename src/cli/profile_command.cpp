#include "cli/profile_command.hpp"

#include <iostream>

#include "cli/output_file.hpp"
#include "model/error.hpp"
#include "model/json.hpp"
#include "profile/chrome_trace.hpp"
#include "profile/probe_report_reader.hpp"
#include "profile/profile_markdown.hpp"
#include "profile/report_merge.hpp"

namespace perfgate {

CLI::App* add_profile_command(CLI::App& app, ProfileOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "profile",
      "Show a probe report (PERFGATE_PROBE_OUT) as Markdown or JSON, merge reports, export a "
      "Chrome trace");
  cmd->add_option("files", options.files, "Probe report files (JSON)")->required();
  cmd->add_option("--format", options.format, "md (the default) or json")
      ->check(CLI::IsMember({"md", "json"}));
  cmd->add_flag("--merge", options.merge,
                "Combine several reports into one (runs renumbered, regions unioned)");
  cmd->add_option("--trace", options.trace,
                  "Also write the report's trace as Chrome trace-event JSON to this file (needs "
                  "a report written with PERFGATE_PROBE_TRACE=1)");
  cmd->add_option("-o,--output", options.output,
                  "Write the view to this file instead of stdout (an existing file is kept "
                  "unless --force)");
  cmd->add_flag("--force", options.force, "Replace the --output and --trace files if they exist");
  cmd->footer(
      "Examples:\n"
      "  perfgate profile probe.json\n"
      "  perfgate profile probe.json --format json --trace trace.json\n"
      "  perfgate profile probe.json --format md -o profile.md\n"
      "  perfgate profile a.json b.json --merge\n"
      "\n"
      "Exit status: 0 view written; 64 bad flags, several files without --merge, or an\n"
      "--output or --trace file that exists (pass --force);\n"
      "65 not a valid probe report (another tool's result file is named as such), or a\n"
      "--trace export of a report without trace events; 66 missing file; 74 a file cannot\n"
      "be read or written.\n"
      "See docs/profile.md for the view, merging and the trace, docs/probe-report.md for the "
      "report's fields.");
  return cmd;
}

int execute_profile(const ProfileOptions& options) {
  if (options.files.size() > 1 && !options.merge) {
    throw Error(ExitCode::kUsage,
                "profile got " + std::to_string(options.files.size()) +
                    " files; add --merge to combine them into one report, e.g. perfgate "
                    "profile a.json b.json --merge");
  }
  if (!options.output.empty()) check_output_file(options.output, "--output", options.force);
  if (!options.trace.empty()) check_output_file(options.trace, "--trace", options.force);
  std::vector<profile::NamedReport> inputs;
  for (const auto& file : options.files) inputs.push_back({file, profile::load_probe_report(file)});
  const profile::ProbeReport report =
      options.merge ? profile::merge_reports(inputs) : inputs.front().report;
  const std::string source = options.merge ? "merged report" : options.files.front();

  // The trace is checked before anything is written, so a refused export leaves no view.
  std::string trace_text;
  if (!options.trace.empty()) trace_text = profile::chrome_trace(report, source);
  const std::string view = options.format == "json" ? pretty_json(profile::to_json(report))
                                                    : profile::render_markdown(report);
  if (options.output.empty()) {
    std::cout << view;
  } else {
    write_output_file(options.output, "--output", view, options.force);
  }
  if (!options.trace.empty())
    write_output_file(options.trace, "--trace", trace_text, options.force);
  return 0;
}

}  // namespace perfgate
