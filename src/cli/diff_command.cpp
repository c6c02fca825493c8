#include "cli/diff_command.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <future>
#include <iostream>

#include "cli/format_in_flag.hpp"
#include "cli/terminal.hpp"
#include "diff/diff_run.hpp"
#include "ingest/result_file.hpp"
#include "model/error.hpp"
#include "report/bulk_debug_python.hpp"
#include "report/diff_display.hpp"
#include "report/diff_json.hpp"

namespace perfgate {
namespace {

/// One line of progress on standard error, redrawn in place, only on a terminal (SPEC §2:
/// large files take seconds to read and compare).
class StatusLine {
 public:
  explicit StatusLine(bool enabled) : enabled_(enabled) {}
  ~StatusLine() { clear(); }
  void show(const std::string& text) {
    if (!enabled_) return;
    std::cerr << "\r\x1b[K" << text << std::flush;
    drawn_ = true;
  }
  void clear() {
    if (!drawn_) return;
    std::cerr << "\r\x1b[K" << std::flush;
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
};

/// -b and -a in the order they were given: -a belongs to the -b before it.
std::vector<diff::FilterFlag> filter_flags(const DiffOptions& options) {
  std::vector<diff::FilterFlag> flags;
  if (options.command == nullptr) return flags;
  std::size_t next_benchmark = 0;
  std::size_t next_axis = 0;
  for (const CLI::Option* option : options.command->parse_order()) {
    if (option->check_name("--benchmark") && next_benchmark < options.benchmarks.size()) {
      flags.push_back({'b', options.benchmarks[next_benchmark++]});
    } else if (option->check_name("--axis") && next_axis < options.axes.size()) {
      flags.push_back({'a', options.axes[next_axis++]});
    }
  }
  return flags;
}

diff::DiffConfig effective_config(const DiffOptions& options) {
  std::optional<diff::DiffConfigFile> file;
  if (options.config) file = diff::read_diff_config(*options.config);
  return diff::resolve_diff_config(options.preset, file);
}

DiffDisplay display_of(const std::string& name) {
  if (name == "simple") return DiffDisplay::kSimple;
  if (name == "explain") return DiffDisplay::kExplain;
  return DiffDisplay::kIntervals;
}

StatusMarks text_marks(const DiffOptions& options) {
  if (options.no_color || color_forbidden()) return StatusMarks::kEmoji;
  return stdout_supports_color() ? StatusMarks::kColor : StatusMarks::kPlain;
}

void write_bulk_debug(const std::string& destination, const std::string& script) {
  if (destination == "stdout") {
    std::cout << script;
    return;
  }
  std::ofstream out(destination, std::ios::binary | std::ios::trunc);
  out << script;
  out.close();
  if (!out) {
    throw Error(ExitCode::kIoError, "--bulk-debug-python " + destination +
                                        ": cannot write the file. Check the folder exists and "
                                        "is writable, or pass stdout.");
  }
}

int exit_status(const diff::DiffCounts& counts, const std::vector<std::string>& fail_on) {
  bool on_slow = false;
  bool on_ambiguous = false;
  for (const auto& entry : fail_on) {
    on_slow |= entry == "slow";
    on_ambiguous |= entry == "ambg";
  }
  if (on_slow && counts.slow > 0) return static_cast<int>(ExitCode::kFailure);
  if (on_ambiguous && counts.ambiguous > 0) return static_cast<int>(ExitCode::kInconclusive);
  return static_cast<int>(ExitCode::kOk);
}

}  // namespace

CLI::App* add_diff_command(CLI::App& app, DiffOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "diff", "Compare two result files state by state: SAME, FAST, SLOW, AMBG or ????");
  options.command = cmd;
  cmd->add_option("files", options.files,
                  "REF CMP: reference and compare result files (nvbench, Google Benchmark, "
                  "hyperfine, pyperf JSON or perfgate records)");
  // One value per occurrence, so a flag never swallows the file names after it.
  cmd->add_option("-b,--benchmark", options.benchmarks, "Compare only this benchmark (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("-a,--axis", options.axes,
                  "Compare only states with this axis value: NAME=VALUE, NAME=[V1,V2] or "
                  "NAME[pow2]=EXPONENT. Applies to the latest -b, or to every benchmark when "
                  "given before any -b (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--reference-devices", options.reference_devices,
                  "Reference devices: all, an id, or ids separated by commas (paired by "
                  "position with --compare-devices)");
  cmd->add_option("--compare-devices", options.compare_devices,
                  "Compare devices: all, an id, or ids separated by commas");
  cmd->add_flag("--ignore-devices", options.ignore_devices,
                "Compare even when the files' device sections differ");
  cmd->add_option("--display", options.display, "Table layout: intervals, simple or explain")
      ->check(CLI::IsMember({"intervals", "simple", "explain"}));
  cmd->add_flag("--no-color", options.no_color,
                "Mark statuses with emoji instead of colours (for pasting into issues)");
  cmd->add_option("--preset", options.preset, "Threshold preset: default, strict or permissive")
      ->check(CLI::IsMember({"default", "strict", "permissive"}));
  cmd->add_option("--config", options.config,
                  "TOML file of thresholds (version = 1); --preset overrides its [preset]");
  cmd->add_flag("--dump-config", options.dump_config,
                "Print the effective thresholds as TOML and exit");
  cmd->add_option("--bulk-debug-python", options.bulk_debug_python,
                  "Write a Python script locating every displayed row's bulk sample files "
                  "(PATH, or stdout)");
  cmd->add_option("--format", options.format, "Output: text (default), md or json")
      ->check(CLI::IsMember({"text", "md", "json"}));
  cmd->add_option("--fail-on", options.fail_on,
                  "Exit 1 when a state is SLOW (slow), 2 when one is AMBG (ambg); repeatable")
      ->check(CLI::IsMember({"slow", "ambg"}))
      ->delimiter(',')
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--format-in", options.format_in,
                  "Read both files as this format instead of detecting it: nvbench, gbench, "
                  "hyperfine, pyperf, perfgate-raw, perfgate-normalized");
  cmd->add_option("--threshold-diff", options.threshold_diff,
                  "Show only rows whose centres differ by at least this many percent (counts "
                  "still include every state)")
      ->check(CLI::NonNegativeNumber);
  cmd->footer(
      "Examples:\n"
      "  perfgate diff ref.json cmp.json\n"
      "  perfgate diff --benchmark copy_type_sweep --axis T=F32 ref.json cmp.json\n"
      "  perfgate diff --reference-devices 0 --compare-devices 1 ref.json cmp.json\n"
      "  perfgate diff --display explain --no-color ref.json cmp.json\n"
      "  perfgate diff --preset permissive --config compare.toml ref.json cmp.json\n"
      "  perfgate diff --dump-config --preset strict\n"
      "  perfgate diff --bulk-debug-python out.py ref.json cmp.json\n"
      "  perfgate diff --format md --fail-on slow ref.json cmp.json\n"
      "\n"
      "Exit status: 0, or with --fail-on: 1 when a state is SLOW, 2 when one is AMBG.\n"
      "See docs/diff.md for the decision rules and the config file.");
  return cmd;
}

int execute_diff(const DiffOptions& options) {
  const diff::DiffConfig config = effective_config(options);
  if (options.dump_config) {
    std::cout << diff::dump_diff_config(config);
    return 0;
  }
  if (options.files.size() != 2) {
    throw Error(ExitCode::kUsage,
                "diff needs two files, the reference and the compare result, e.g. perfgate "
                "diff ref.json cmp.json (got " +
                    std::to_string(options.files.size()) + ")");
  }
  if (!std::isfinite(options.threshold_diff)) {
    throw Error(ExitCode::kUsage, "--threshold-diff must be a finite percentage, e.g. 5");
  }

  diff::MatchOptions match;
  match.filters = diff::build_filter_plan(filter_flags(options));
  match.reference_devices =
      diff::parse_device_filter(options.reference_devices, "--reference-devices");
  match.compare_devices = diff::parse_device_filter(options.compare_devices, "--compare-devices");
  match.ignore_devices = options.ignore_devices;

  const auto format = parse_format_in_flag(options.format_in.value_or(""));
  StatusLine status(stderr_is_terminal());
  status.show("perfgate diff: reading " + options.files[0] + " and " + options.files[1]);
  // The two files are independent and parsing dominates for large ones: read them at once.
  auto pending_compare = std::async(
      std::launch::async, [&] { return ingest::read_result_file(options.files[1], format); });
  // If the reference is malformed its error is the one reported (the future's destructor
  // waits for the compare file's thread), so messages do not depend on timing.
  const ingest::ResultFile reference = ingest::read_result_file(options.files[0], format);
  const ingest::ResultFile compare = pending_compare.get();
  status.clear();
  for (const auto* file : {&reference, &compare}) {
    for (const auto& warning : file->warnings)
      std::cerr << "perfgate: warning: " << warning << "\n";
  }

  status.show("perfgate diff: comparing states");
  const auto outcome = diff::run_diff(
      reference, compare, match, config.thresholds, [&](std::size_t decided, std::size_t total) {
        status.show(fmt::format("perfgate diff: compared {} of {} states", decided, total));
      });
  status.clear();
  for (const auto& warning : outcome.warnings)
    std::cerr << "perfgate: warning: " << warning << "\n";

  const double threshold = options.threshold_diff / 100.0;
  if (options.format == "json") {
    std::cout << diff_to_json(outcome, config, options.files[0], options.files[1], threshold)
                     .dump(2, ' ', false, Json::error_handler_t::replace)
              << "\n";
  } else {
    DiffRenderOptions render;
    render.display = display_of(options.display);
    render.markdown = options.format == "md";
    render.marks = render.markdown ? StatusMarks::kEmoji : text_marks(options);
    render.threshold = threshold;
    std::cout << render_diff(outcome, render);
  }
  if (options.bulk_debug_python) {
    write_bulk_debug(
        *options.bulk_debug_python,
        render_bulk_debug_python(outcome, options.files[0], options.files[1], threshold));
  }
  std::cout.flush();
  return exit_status(outcome.counts, options.fail_on);
}

}  // namespace perfgate
