#include "cli/diff_command.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <thread>
#include <utility>
#include <vector>

#include "cli/format_in_flag.hpp"
#include "cli/terminal.hpp"
#include "diff/diff_run.hpp"
#include "diff/early_decisions.hpp"
#include "ingest/result_file.hpp"
#include "model/error.hpp"
#include "report/bulk_debug_python.hpp"
#include "report/diff_display.hpp"
#include "report/diff_json.hpp"
#include "report/markdown.hpp"

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
  bool on_unmatched = false;
  for (const auto& entry : fail_on) {
    on_slow |= entry == "slow";
    on_ambiguous |= entry == "ambg";
    on_unmatched |= entry == "unmatched";
  }
  // A CPU time or instruction count compared beside the primary timing counts as much as
  // the timing itself.
  if (on_slow && counts.slow_anywhere() > 0) return static_cast<int>(ExitCode::kFailure);
  if (on_ambiguous && counts.ambiguous_anywhere() > 0) {
    return static_cast<int>(ExitCode::kInconclusive);
  }
  // A state without a partner was not compared at all: nothing says it did not get slower.
  if (on_unmatched && counts.only_in_reference + counts.only_in_compare > 0) {
    return static_cast<int>(ExitCode::kInconclusive);
  }
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
                  "Exit 1 when a state is SLOW (slow), 2 when one is AMBG (ambg) or has no "
                  "partner in the other file (unmatched); repeatable")
      ->check(CLI::IsMember({"slow", "ambg", "unmatched"}))
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
  cmd->add_flag("--allow-single-sample", options.allow_single_sample,
                "Decide states measured once on a side on their centers alone (default: AMBG, "
                "\"1 sample: no spread\")");
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
      "Exit status: 0 compared (whatever the statuses, unless --fail-on); 1 a state is SLOW\n"
      "with --fail-on slow; 2 a state is AMBG with --fail-on ambg; 64 bad flags or filters;\n"
      "65 a malformed result or config file, or files that cannot be compared; 66 a missing\n"
      "file; 74 --bulk-debug-python cannot be written.\n"
      "See docs/diff.md for the decision rules and the config file.");
  return cmd;
}

namespace {

struct DiffSettings {
  diff::DiffConfig config;
  diff::MatchOptions match;
  std::optional<ingest::ResultFormat> format;
  double threshold = 0;
};

/// One pair of result files compared and rendered in the chosen format.
struct PairDiff {
  std::string rendered;  ///< text or Markdown tables and summary; the JSON text for json
  diff::DiffCounts counts;
  std::string bulk_script;  ///< --bulk-debug-python's script, written after the report
};

/// What a diff read and decided, kept until the process ends (see diff_pair).
struct LeftToExit {
  ingest::ResultFile reference;
  ingest::ResultFile compare;
  diff::DiffOutcome outcome;
};

/// Keeps `left` until the process ends, reachable from a static pointer (so leak checkers
/// see it in use) and never freed: the exit returns all of the memory at once.
void leave_to_exit(LeftToExit&& left) {
  static auto* const kept = new std::vector<std::unique_ptr<LeftToExit>>;
  kept->push_back(std::make_unique<LeftToExit>(std::move(left)));
}

/// Two hyperfine exports name their results by command line: `hyperfine ./old/app` and
/// `hyperfine ./new/app` have no name in common. When no result of one matches a result of
/// the other and both have as many, they are paired by position, and the user is told.
void pair_hyperfine_by_position(const ingest::ResultFile& reference, ingest::ResultFile& compare) {
  if (reference.format != ingest::ResultFormat::kHyperfine ||
      compare.format != ingest::ResultFormat::kHyperfine ||
      reference.states.size() != compare.states.size() || reference.states.empty()) {
    return;
  }
  for (const auto& state : compare.states) {
    for (const auto& other : reference.states) {
      if (state.benchmark == other.benchmark) return;  // names pair them
    }
  }
  std::string pairs;
  for (std::size_t i = 0; i < compare.states.size(); ++i) {
    ingest::ResultState& state = compare.states[i];
    const ingest::ResultState& partner = reference.states[i];
    if (i < 3)
      pairs += fmt::format("{}'{}' with '{}'", i ? ", " : "", partner.benchmark, state.benchmark);
    state.benchmark = partner.benchmark;
    state.state_key = partner.state_key;
    state.axis_values = partner.axis_values;
  }
  compare.benchmarks = reference.benchmarks;
  std::cerr << fmt::format(
      "perfgate: note: the two hyperfine exports have no command in common: their {} result(s) "
      "are paired by position ({}{})\n",
      compare.states.size(), pairs, compare.states.size() > 3 ? ", ..." : "");
}

/// `last`: the process ends once this pair is printed. Then the files and the outcome are
/// not freed: freeing two files' states one string at a time took 1.5 ms of a 2,040-state
/// diff, only to hand back memory the exit returns anyway.
PairDiff diff_pair(const DiffOptions& options, const DiffSettings& settings,
                   const std::string& reference_path, const std::string& compare_path,
                   bool last = false) {
  const ingest::ReadOptions read{.digest = false};  // diff never stores what it reads
  StatusLine status(stderr_is_terminal());
  status.show("perfgate diff: reading " + reference_path + " and " + compare_path);
  // One file after the other: each is parsed at memory speed, and holding one text at a
  // time halves the peak (two 13 MB nvbench texts would be most of it). The reference is
  // read first, so its error is the one reported when both are malformed. While the
  // compare file is parsed, another core decides the pairs whose compare state it has
  // (diff/early_decisions.hpp): worth it where states are many and costly, nvbench's.
  ingest::ResultFile reference = ingest::read_result_file(reference_path, settings.format, read);
  std::optional<diff::EarlyDecisions> early;
  const bool unfiltered = settings.match.filters.global_axis_filters.empty() &&
                          settings.match.filters.scopes.empty() &&
                          !settings.match.reference_devices && !settings.match.compare_devices &&
                          !settings.match.ignore_devices;
  if (reference.format == ingest::ResultFormat::kNvbench && unfiltered &&
      std::thread::hardware_concurrency() > 1) {
    early.emplace(reference, ingest::format_has_clock(reference.format),
                  settings.config.thresholds);
  }
  ingest::ReadOptions read_compare = read;
  read_compare.listener = early ? &*early : nullptr;
  ingest::ResultFile compare =
      ingest::read_result_file(compare_path, settings.format, read_compare);
  if (early) early->stop();
  status.clear();
  pair_hyperfine_by_position(reference, compare);
  for (const auto* file : {&reference, &compare}) {
    for (const auto& warning : file->warnings)
      std::cerr << "perfgate: warning: " << warning << "\n";
  }

  status.show("perfgate diff: comparing states");
  auto outcome = diff::run_diff(
      reference, compare, settings.match, settings.config.thresholds,
      [&](std::size_t decided, std::size_t total) {
        status.show(fmt::format("perfgate diff: compared {} of {} states", decided, total));
      },
      early ? &*early : nullptr);
  status.clear();
  for (const auto& warning : outcome.warnings)
    std::cerr << "perfgate: warning: " << warning << "\n";

  PairDiff result;
  result.counts = outcome.counts;
  if (options.format == "json") {
    result.rendered =
        diff_json_text(outcome, settings.config, reference_path, compare_path, settings.threshold);
  } else {
    DiffRenderOptions render;
    render.display = display_of(options.display);
    render.markdown = options.format == "md";
    render.marks = render.markdown ? StatusMarks::kEmoji : text_marks(options);
    render.threshold = settings.threshold;
    // Markdown goes into issues and step summaries, not a terminal: it keeps every column.
    if (!render.markdown) render.max_width = stdout_columns();
    result.rendered = render_diff(outcome, render);
  }
  if (options.bulk_debug_python) {
    result.bulk_script =
        render_bulk_debug_python(outcome, reference_path, compare_path, settings.threshold);
  }
  if (last) leave_to_exit({std::move(reference), std::move(compare), std::move(outcome)});
  return result;
}

/// The name a result file pairs by: its path in its folder, without the time stamp of a
/// record perfgate wrote (perf_sort_20261203T101500Z.json and
/// normalized_perf_sort_20261203T101500Z.json pair as perf_sort.json and
/// normalized_perf_sort.json): two `perfgate run` folders pair record by record, each
/// record being one benchmark state.
std::string pairing_name(const std::string& relative) {
  static const std::regex stamped(
      R"(^(.*/)?((?:normalized_)?perf_.+)_[0-9]{8}T[0-9]{6}Z(-[0-9]+)?(\.json(?:\.gz)?)$)");
  std::smatch match;
  if (!std::regex_match(relative, match, stamped)) return relative;
  return match[1].str() + match[2].str() + match[3].str() + match[4].str();
}

/// The result files of a folder, by path relative to it: *.json and *.json.gz, in every
/// subfolder (nvbench's sample folders hold *.bin files only).
std::map<std::string, std::filesystem::path> result_files_in(const std::filesystem::path& folder) {
  std::map<std::string, std::filesystem::path> files;
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    const std::string name = it->path().filename().string();
    if (!name.ends_with(".json") && !name.ends_with(".json.gz")) continue;
    files.emplace(pairing_name(std::filesystem::relative(it->path(), folder).generic_string()),
                  it->path());
  }
  if (error) {
    throw Error(ExitCode::kNoInput, folder.string() + ": cannot list the folder: " +
                                        error.message() + ". Check its permissions");
  }
  return files;
}

void add_counts(diff::DiffCounts& total, const diff::DiffCounts& pair) {
  total.total += pair.total;
  total.same += pair.same;
  total.fast += pair.fast;
  total.slow += pair.slow;
  total.ambiguous += pair.ambiguous;
  total.unknown += pair.unknown;
  total.only_in_reference += pair.only_in_reference;
  total.only_in_compare += pair.only_in_compare;
  for (const diff::BesideMetric metric : diff::kBesideMetrics) {
    total.beside(metric).add(pair.beside(metric));
  }
}

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// Two folders of results, file by file: files pair by their path relative to each
/// folder; a file in one folder only is listed, never silently dropped.
int diff_folders(const DiffOptions& options, const DiffSettings& settings) {
  if (options.bulk_debug_python) {
    throw Error(ExitCode::kUsage,
                "--bulk-debug-python takes one pair of files, not folders. Name the two files "
                "whose samples you want to look at");
  }
  const std::string& reference_folder = options.files[0];
  const std::string& compare_folder = options.files[1];
  const auto reference = result_files_in(reference_folder);
  const auto compare = result_files_in(compare_folder);
  std::vector<std::string> only_reference, only_compare, both;
  for (const auto& [name, path] : reference) {
    (compare.contains(name) ? both : only_reference).push_back(name);
  }
  for (const auto& [name, path] : compare) {
    if (!reference.contains(name)) only_compare.push_back(name);
  }
  if (both.empty()) {
    throw Error(ExitCode::kDataError, "no result file (*.json, *.json.gz) has the same name in " +
                                          reference_folder + " and " + compare_folder +
                                          ". Files pair by their path inside each folder");
  }
  for (const auto& name : only_reference) {
    std::cerr << "perfgate: warning: " << name << " is only in " << reference_folder
              << "; not compared\n";
  }
  for (const auto& name : only_compare) {
    std::cerr << "perfgate: warning: " << name << " is only in " << compare_folder
              << "; not compared\n";
  }

  diff::DiffCounts total;
  Json files = Json::array();
  const bool markdown = options.format == "md";
  for (const auto& name : both) {
    PairDiff pair =
        diff_pair(options, settings, reference.at(name).string(), compare.at(name).string());
    add_counts(total, pair.counts);
    if (options.format == "json") {
      Json document = Json::parse(pair.rendered);
      document["file"] = name;
      files.push_back(std::move(document));
    } else {
      std::cout << "# File: " << (markdown ? markdown_cell(name) : name) << "\n\n"
                << pair.rendered << "\n";
    }
  }
  if (options.format == "json") {
    const Json document = {{"diff_schema_version", kDiffJsonSchemaVersion},
                           {"reference", reference_folder},
                           {"compare", compare_folder},
                           {"files", files},
                           {"only_in_reference", only_reference},
                           {"only_in_compare", only_compare}};
    std::cout << document.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    const auto name = [&](const std::string& text) {
      return markdown ? markdown_cell(text) : text;
    };
    std::cout << "# Files\n\n"
              << "- Compared: " << both.size() << " (" << total.total << " matches, "
              << total.slow_anywhere() << " SLOW, " << total.ambiguous_anywhere() << " AMBG)\n";
    std::cout << "- Only in " << name(reference_folder) << ": " << only_reference.size();
    if (!only_reference.empty()) std::cout << " (" << name(join(only_reference)) << ")";
    std::cout << "\n- Only in " << name(compare_folder) << ": " << only_compare.size();
    if (!only_compare.empty()) std::cout << " (" << name(join(only_compare)) << ")";
    std::cout << "\n";
  }
  std::cout.flush();
  return exit_status(total, options.fail_on);
}

}  // namespace

int execute_diff(const DiffOptions& options) {
  DiffSettings settings;
  settings.config = effective_config(options);
  settings.config.thresholds.allow_single_sample = options.allow_single_sample;
  if (options.dump_config) {
    std::cout << diff::dump_diff_config(settings.config);
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

  settings.match.filters = diff::build_filter_plan(filter_flags(options));
  settings.match.reference_devices =
      diff::parse_device_filter(options.reference_devices, "--reference-devices");
  settings.match.compare_devices =
      diff::parse_device_filter(options.compare_devices, "--compare-devices");
  settings.match.ignore_devices = options.ignore_devices;
  settings.format = parse_format_in_flag(options.format_in.value_or(""));
  settings.threshold = options.threshold_diff / 100.0;

  std::error_code error;
  const bool reference_folder = std::filesystem::is_directory(options.files[0], error);
  const bool compare_folder = std::filesystem::is_directory(options.files[1], error);
  if (reference_folder && compare_folder) return diff_folders(options, settings);
  if (reference_folder != compare_folder) {
    throw Error(ExitCode::kUsage,
                "diff compares two files or two folders, not a file with a folder (" +
                    options.files[reference_folder ? 0 : 1] +
                    " is a folder). Name a result file on both sides, or two folders");
  }

  PairDiff pair = diff_pair(options, settings, options.files[0], options.files[1], true);
  std::cout << pair.rendered;
  if (options.format == "json") std::cout << "\n";
  if (options.bulk_debug_python) write_bulk_debug(*options.bulk_debug_python, pair.bulk_script);
  std::cout.flush();
  return exit_status(pair.counts, options.fail_on);
}

}  // namespace perfgate
