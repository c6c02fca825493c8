#include "cli/compare_command.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include "cli/confirmation_runs.hpp"
#include "cli/judged_records.hpp"
#include "cli/project_lookup.hpp"
#include "cli/raw_inputs.hpp"
#include "cli/terminal.hpp"
#include "config/config_sections.hpp"
#include "gate/batch_comparison.hpp"
#include "ingest/seed_raw_record.hpp"
#include "measure/benchmark_runner.hpp"
#include "measure/interruption.hpp"
#include "measure/results_folder.hpp"
#include "measure/run_selection.hpp"
#include "measure/worker_log_tail.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/time_window.hpp"
#include "model/visible_text.hpp"
#include "report/comparison_summary.hpp"
#include "report/confirmation_lines.hpp"
#include "report/markdown.hpp"
#include "report/recent_changes.hpp"
#include "report/worker_log_copy.hpp"
#include "store/cohort_history.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

/// Raw records from earlier `perfgate run` invocations are compared too (as in the seed),
/// but the user should know they are there.
void note_stale_records(const std::vector<RawInput>& inputs, const fs::path& dir) {
  std::set<std::string> runs;
  for (const auto& input : inputs) {
    const auto it = input.raw.find("timestamp");
    runs.insert(input.raw.is_object() && it != input.raw.end() && it->is_string()
                    ? it->get<std::string>()
                    : "?");
  }
  if (runs.size() <= 1) return;
  std::cerr << "perfgate: note: " << dir.string() << " holds raw records of " << runs.size()
            << " runs (" << *runs.begin() << " … " << *runs.rbegin()
            << ") written straight into it; all are compared. 'perfgate run' keeps each run in "
               "a folder of its own, and compare judges the newest.\n";
}

/// Which run is judged, and what was left out, so that nothing is compared by surprise.
void note_selection(const RawRecordSelection& selection, const fs::path& dir, bool all) {
  if (all) return;
  if (selection.run_folder && (selection.runs_left_out > 0 || selection.loose_left_out > 0)) {
    std::cerr << "perfgate: note: comparing the newest run, " << selection.run_folder->string()
              << " (" << selection.files.size()
              << " record(s)); left out: " << selection.runs_left_out << " older run(s)";
    if (selection.loose_left_out > 0)
      std::cerr << " and " << selection.loose_left_out << " record(s) directly in " << dir.string();
    std::cerr << ". Pass --all to compare every run.\n";
  }
}

// The first of `names` that is set, as an exit status.
std::optional<int> env_int(std::initializer_list<const char*> names) {
  const char* name = nullptr;
  const char* text = nullptr;
  for (const char* candidate : names) {
    text = std::getenv(candidate);
    name = candidate;
    if (text != nullptr && *text != '\0') break;
  }
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0')
    throw Error(ExitCode::kUsage,
                std::string(name) + "='" + text + "' is not an integer exit status");
  return static_cast<int>(value);
}

// --reports-dir, else $PERFGATE_REPORTS_DIR or the seed's $PERF_REPORTS_DIR; nullopt when
// none is given (the summaries then go beside the raw records).
std::optional<fs::path> chosen_reports_dir(const CompareOptions& options) {
  if (!options.reports_dir.empty()) return fs::path(options.reports_dir);
  for (const char* variable : {"PERFGATE_REPORTS_DIR", "PERF_REPORTS_DIR"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return fs::path(value);
  }
  return std::nullopt;
}

std::string worker_log_of(const Json& raw) {
  const auto it = raw.is_object() ? raw.find("worker_log_path") : raw.end();
  return raw.is_object() && it != raw.end() && it->is_string() ? it->get<std::string>() : "";
}

// A regression on a scheduled run has nobody watching the benchmark step: its worker log's
// tail goes into compare's own output, and a chosen reports folder keeps a copy of each
// regressed state's log beside the summary as a build artifact (seed 000).
void report_regressed_worker_logs(const std::vector<NormalizedRecord>& records,
                                  const std::vector<RawInput>& inputs,
                                  const std::optional<fs::path>& reports_dir,
                                  const std::string& stamp) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const NormalizedRecord& record = records[i];
    if (record.comparison_status != kRegression) continue;
    const std::string log = worker_log_of(inputs[i].raw);
    if (record.run_source == "scheduled_main")
      print_worker_log_tail(std::cerr, record.benchmark_id, log, kWorkerLogTailLines);
    if (reports_dir && !log.empty()) {
      const fs::path copy =
          copy_worker_log_to_reports(log, record.benchmark_id, stamp, *reports_dir);
      if (!copy.empty()) std::cerr << "perfgate: worker log copied to " << copy.string() << "\n";
    }
  }
}

fs::path project_start(const std::vector<RawInput>& inputs) {
  if (!inputs.empty() && inputs.front().raw.contains("config_path") &&
      inputs.front().raw["config_path"].is_string()) {
    const fs::path config = inputs.front().raw["config_path"].get<std::string>();
    if (fs::exists(config)) return fs::absolute(config).parent_path();
  }
  return fs::current_path();
}

/// The recent change points of every record with a cohort, read from the store before
/// the records are stored; "" when there are none.
std::string recent_change_lines(Store& store, const std::vector<NormalizedRecord>& records) {
  std::string lines;
  for (const auto& record : records) {
    const auto cohort = record.cohort();
    if (!cohort) continue;
    RecordFilter filter;
    filter.cohort = *cohort;
    lines += render_recent_changes(recent_changes(record, store.list_records(filter), {}));
  }
  return lines;
}

/// Lines as a Markdown list, each escaped: a benchmark name cannot inject markup.
std::string bulleted(const std::string& lines) {
  std::string out;
  std::size_t start = 0;
  while (start < lines.size()) {
    const std::size_t end = lines.find('\n', start);
    out += "- " + markdown_cell(lines.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  return out;
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// For the terminal: a benchmark name cannot carry escape sequences into it.
std::string indented(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += "  " + visible_text(line) + "\n";
  return out;
}

/// The batch's records judged against the store, with what storing and the table need.
struct BatchJudgment {
  std::vector<NormalizedRecord> records;
  std::vector<bool> storable;  ///< per record: false for a malformed raw record
  std::map<std::string, std::string> baseline_units;
};

BatchJudgment judge_inputs(Store& store, const std::vector<RawInput>& inputs,
                           const BatchOptions& batch) {
  const std::vector<PendingRecord> pending = normalize_batch(inputs, batch);
  BatchJudgment judged;
  std::vector<NormalizedRecord> readable;
  for (const auto& entry : pending) {
    judged.storable.push_back(entry.malformed.empty());
    if (entry.malformed.empty()) readable.push_back(entry.record);
  }
  const CohortHistories histories = fetch_cohort_histories(
      store, readable, batch.trusted_run_sources, history_size_for(batch.method));
  judged.baseline_units = baseline_metric_units(histories);
  judged.records = judge_batch(pending, histories, batch);
  return judged;
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "Normalise raw records, compare them with the rolling baseline, store them");
  cmd->add_option("-r,--results-dir", options.results_dir,
                  "Folder of raw records (default: [run] results_dir of perfgate.toml, else "
                  ".perfgate/results)");
  cmd->add_flag("--all", options.all,
                "Compare the records of every run in the results folder, not only the newest "
                "run's");
  cmd->add_option("--reports-dir", options.reports_dir,
                  "Where normalized_perf_*.json and the Markdown summary go (default: "
                  "$PERFGATE_REPORTS_DIR or $PERF_REPORTS_DIR, else the compared run's folder)");
  cmd->add_option("--store", options.store,
                  "Store URL: sqlite:PATH or dir:PATH (default: $PERFGATE_STORE, [store] url, "
                  "sqlite:.perfgate/perfgate.db)");
  cmd->add_option("--project", options.project,
                  "perfgate.toml to use (default: found from the records' suite)");
  cmd->add_flag("--init", options.init,
                "The store is new: create it if it does not exist (without it, a store named by "
                "--store, PERFGATE_STORE or perfgate.toml must exist)");
  cmd->add_option("--upload", options.upload,
                  "never, pass or always (default: $PERFGATE_UPLOAD_POLICY or "
                  "$PERF_UPLOAD_POLICY, else never)")
      ->check(CLI::IsMember({"never", "pass", "always"}));
  cmd->add_option(
      "--run-rc", options.run_rc,
      "Exit status of the benchmark runner: non-zero without a static breach is INFRA_ERROR "
      "(default: $PERFGATE_RUN_RC or $PERF_PYTEST_RC)");
  cmd->add_option("--run-source", options.run_source, "Override the records' run source")
      ->check(CLI::IsMember({"pr", "local", "scheduled_main", "unknown"}));
  cmd->add_flag("--json", options.json,
                "Print the normalised records as JSON instead of the table");
  cmd->add_option("--method", options.method,
                  "stat: estimate each metric's change from the samples, with a 95% interval "
                  "(REGRESSION beyond the threshold, PASS within, INCONCLUSIVE across it); seed: "
                  "the mean against the median of 5 (default: [policy] method, else stat)")
      ->check(CLI::IsMember({"stat", "seed"}));
  cmd->add_option("--confirm", options.confirm,
                  "Before a REGRESSION or INCONCLUSIVE verdict, measure the state again here, N "
                  "more runs in fresh processes, and judge all the samples; the report says what "
                  "changed (default: [policy] confirm_runs, else 0: off)")
      ->check(CLI::Range(0, kMaxConfirmRuns));
  cmd->add_flag("--change-points", options.change_points,
                "Also report a change point of each record's cohort series that starts among "
                "its 10 newest records (docs/changes.md); statuses and exit codes stay as they "
                "are");
  cmd->footer(
      "Examples:\n"
      "  perfgate compare\n"
      "  perfgate compare --results-dir out/ --upload pass\n"
      "  perfgate compare --store sqlite:perf/team.db --init --upload pass   # a new store\n"
      "  perfgate compare --change-points\n"
      "  perfgate compare --confirm 5   # a REGRESSION is measured 5 more times before it alerts\n"
      "  perfgate compare --method seed   # seed 000's rule: the mean against the median of 5\n"
      "  perfgate run benchmarks/ --run-source scheduled_main; perfgate compare --upload always "
      "--run-rc $?\n\n"
      "A measurement is stored once: uploading the same raw records again is a no-op, and a\n"
      "record is never judged against a stored copy of itself. A raw record that cannot be read\n"
      "is INFRA_ERROR; the others are still judged and stored.\n\n"
      "A confirmation is written to confirm/ beside the raw record it confirms, and a later\n"
      "compare of the same run judges it instead of the first record: confirming twice\n"
      "measures once.\n\n"
      "Exit status: 0 PASS or CALIBRATION_NEEDED; 1 REGRESSION, RECIPE_MISMATCH or INFRA_ERROR\n"
      "(including a malformed raw record); 2 INCONCLUSIVE (none of those, and an interval\n"
      "straddles its threshold: rerun, or raise the repetitions; or the machine's load can\n"
      "explain a slower time: rerun when it is idle); 66 no raw records, or a store\n"
      "that does not exist (pass --init to create it); 74 store not writable; 130, 143 or 129\n"
      "interrupted while confirming (the runs it started are killed; nothing is stored).");
  return cmd;
}

int execute_compare(const CompareOptions& options) {
  const UploadChoice upload = resolve_upload_policy(options.upload, "never");
  const std::optional<int> run_rc =
      options.run_rc ? options.run_rc : env_int({"PERFGATE_RUN_RC", "PERF_PYTEST_RC"});

  // The project file: --project, else found from here, else found from the records' suite.
  ProjectConfig project = project_for(options.project, fs::current_path());
  const fs::path results_dir = project_results_dir(options.results_dir, project);
  const RawRecordSelection selection = select_raw_records(results_dir, options.all);
  std::vector<RawInput> inputs = read_raw_records(selection.files);
  // A state confirmed by an earlier compare is judged on all its samples again.
  use_earlier_confirmations(inputs);
  note_selection(selection, results_dir, options.all);
  if (!options.all && !selection.run_folder) note_stale_records(inputs, results_dir);
  if (options.project.empty()) project = settings_of_suite_at(project_start(inputs), project);

  const std::time_t clock = std::time(nullptr);
  const std::string now = iso_utc(clock);
  BatchOptions batch;
  batch.project_policies = project.policies;
  batch.trusted_run_sources = project.trusted_run_sources;
  batch.run_rc = run_rc;
  batch.now = now;
  batch.method = options.method.empty() ? project.compare_method.value_or(CompareMethod::kStat)
                                        : *parse_compare_method(options.method);
  if (!options.run_source.empty()) batch.run_source = options.run_source;
  // Baselines are read strictly: only --init or the default store may be new.
  const auto store = open_judging_store(project_store(options.store, project), options.init,
                                        upload.policy != UploadPolicy::kNever);
  BatchJudgment judged = judge_inputs(*store, inputs, batch);

  const int confirm_runs = options.confirm.value_or(project.confirm_runs.value_or(0));
  ConfirmationRound confirmed;
  if (confirm_runs > 0) {
    {
      const InterruptionScope interruption;
      confirmed =
          confirm_judged_records(inputs, judged.records, confirm_runs, stderr_is_terminal());
    }
    if (const int signal = interruption_signal()) {
      std::cerr << "perfgate compare: " << describe_interruption(signal)
                << " while confirming; the runs it started were killed and nothing was judged "
                   "or stored\n";
      return interrupted_exit_code(signal);
    }
    // A merged record is a new measurement: normalised and judged afresh.
    if (confirmed.merged > 0) judged = judge_inputs(*store, inputs, batch);
  }
  std::vector<NormalizedRecord>& records = judged.records;
  const std::vector<bool>& storable = judged.storable;
  const std::map<std::string, std::string>& baseline_units = judged.baseline_units;

  const std::string stamp = file_stamp_utc(clock);
  const std::optional<fs::path> chosen_reports = chosen_reports_dir(options);
  const fs::path reports_dir = chosen_reports.value_or(selection.run_folder.value_or(results_dir));
  for (auto& record : records) {
    assign_record_id(record);
    write_new_file(reports_dir, "normalized_perf_" + file_slug(record.benchmark_id) + "_" + stamp,
                   ".json", pretty_json(to_json(record)));
  }
  std::string commit;
  for (const auto& record : records) {
    if (commit.empty() && record.commit_sha) commit = *record.commit_sha;
  }
  const std::string changes = options.change_points ? recent_change_lines(*store, records) : "";
  std::string markdown = render_comparison_markdown(records, commit, now, baseline_units);
  if (options.change_points) {
    markdown += "\n## Change points\n\n";
    markdown += changes.empty() ? std::string("None among the newest records of any cohort.\n")
                                : bulleted(changes);
  }
  const std::vector<std::string> confirmations = confirmation_lines(records);
  if (!confirmations.empty() || !confirmed.not_confirmed.empty())
    markdown += "\n### Confirmation\n\n" +
                bulleted(joined_lines(confirmations) + joined_lines(confirmed.not_confirmed));
  const fs::path summary = write_new_file(
      reports_dir,
      "perf_" + (commit.empty() ? std::string("local") : file_slug(commit.substr(0, 12))) + "_" +
          stamp,
      ".md", markdown);
  if (const char* step_summary = std::getenv("GITHUB_STEP_SUMMARY");
      step_summary && *step_summary) {
    std::ofstream(step_summary, std::ios::app) << markdown << "\n";
  }

  report_regressed_worker_logs(records, inputs, chosen_reports, stamp);
  note_thresholds_above_values(records);
  const std::string stored_note = store_judged_records(*store, records, storable, upload, now);
  print_judged_records(records, options.json, baseline_units);
  if (options.change_points) {
    // Beside the statuses, never in the JSON of the records: stderr when stdout is JSON.
    std::ostream& out = options.json ? std::cerr : std::cout;
    out << "change points among the newest " << kRecentWindow
        << " records of each cohort: " << (changes.empty() ? "none\n" : "\n" + changes);
  }
  if (!confirmations.empty() || !confirmed.not_confirmed.empty()) {
    std::ostream& out = options.json ? std::cerr : std::cout;
    out << "confirmation:\n" << indented(confirmations) << indented(confirmed.not_confirmed);
  }
  if (!options.json) std::cout << "summary: " << summary.string() << "\n" << stored_note << "\n";
  return judged_exit_status(records);
}

}  // namespace perfgate
