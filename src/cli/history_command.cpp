#include "cli/history_command.hpp"

#include "bisect/export_range.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/output_file.hpp"
#include "cli/worker_command.hpp"
#include "fleet/work_queue.hpp"
#include "history/history_steps.hpp"
#include "model/error.hpp"
#include "model/json.hpp"
#include "perfgate_version.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

void add_common_options(CLI::App* command, HistoryOptions& options) {
  command->add_option("--repo", options.repo,
                      "The repository (default: the one around the current folder)");
  command->add_option("--archive", options.archive,
                      "git:BRANCH or dir:PATH (default: [history] archive of perfgate.toml)");
}

history::HistorySetup setup_of(const HistoryOptions& options) {
  return history::open_history(options.repo, options.archive);
}

std::string short_list(const std::vector<std::string>& shas, std::size_t limit = 8) {
  std::string text;
  for (std::size_t i = 0; i < shas.size() && i < limit; ++i) {
    text += (i ? " " : "") + shas[i].substr(0, 12);
  }
  if (shas.size() > limit) text += fmt::format(" ... ({} more)", shas.size() - limit);
  return text;
}

/// Creates the output file's folder when only it is missing, then writes the file whole.
void write_result(const std::string& path, const std::string& text, bool force) {
  const fs::path folder = fs::absolute(path).parent_path();
  std::error_code ec;
  if (!fs::is_directory(folder, ec) && fs::is_directory(folder.parent_path(), ec)) {
    fs::create_directory(folder);
  }
  write_output_file(path, "-o", text, force);
}

/// Refuses an output file that exists before any work is done.
void check_result_path(const std::string& path, bool force) {
  const fs::path target = fs::absolute(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    throw Error(ExitCode::kUsage, path + ": is a folder; -o names the file to write, e.g. " +
                                      (target / "history.json").string());
  }
  if (fs::exists(target, ec) && !force) {
    throw Error(ExitCode::kUsage,
                path + ": already exists. Pass --force to replace it, or choose another -o");
  }
  if (!fs::is_directory(target.parent_path().parent_path(), ec)) {
    throw Error(ExitCode::kNoInput, path + ": the folder " +
                                        target.parent_path().parent_path().string() +
                                        " does not exist. Create it first, or choose another -o");
  }
}

int execute_plan(const HistoryOptions& options) {
  if (!options.queue_store.empty() && options.environment.empty()) {
    throw Error(ExitCode::kUsage,
                "--store needs --environment: the runner environment that should measure the "
                "commits it queues");
  }
  check_result_path(options.output, options.force);
  // The queue is reached before anything is written: a mistyped URL plans nothing.
  if (!options.queue_store.empty()) WorkQueue check(options.queue_store);
  const history::HistorySetup setup = setup_of(options);
  history::PlanOptions plan_options;
  plan_options.retry = options.retry;
  plan_options.commit = options.commit;
  plan_options.max = options.max;
  plan_options.target = options.target;
  plan_options.activation = options.activation;
  plan_options.confirm_flags = options.confirm_flags;
  // Bridges pay where a batch measures its commits together: a worker queue's commits are
  // measured one by one, by whichever worker takes each.
  plan_options.bridge = !options.no_bridge && options.queue_store.empty();
  plan_options.environment = options.environment;
  plan_options.accept_rewrite = options.accept_rewrite;
  plan_options.backfill = options.backfill;
  const history::PlanFile plan = history::plan_history(setup, plan_options);
  if (!setup.archive->exists()) {
    // A mistyped archive reads as empty: say so before a publish creates it.
    std::cerr << "perfgate history plan: note: " << setup.archive->url()
              << " does not exist yet: every commit is planned as new, and the first publish "
                 "creates it. Check --archive if it should exist\n";
  }
  write_result(options.output, history::plan_file_text(plan), options.force);
  std::cout << fmt::format(
      "branch {}: {} monitored commits from {} to {}\n"
      "selected {}: {}\n"
      "missing {}, failed {} (retried only with --retry or --commit), measured {}\n"
      "on environment {} in setup {} (other machines and setups keep their own)\n"
      "plan: {}\n",
      plan.branch, plan.monitored.size(), plan.baseline.substr(0, 12), plan.target.substr(0, 12),
      plan.plan.selected.size(), plan.plan.selected.empty() ? "-" : short_list(plan.plan.selected),
      plan.plan.missing.size(), plan.plan.failed.size(), plan.plan.measured.size(),
      plan.environment, plan.setup, options.output);
  if (options.backfill > 0) {
    std::cout << (plan.extensions.empty()
                      ? std::string("backfill: the oldest monitored commit has no first parent: "
                                    "nothing older to add\n")
                      : fmt::format("backfill: the history now reaches {} commit(s) further "
                                    "back, to {}\n",
                                    plan.extensions.front().commits,
                                    plan.extensions.front().to.substr(0, 12)));
  }
  if (!plan.plan.bridging.empty()) {
    std::cout << fmt::format(
        "bridging {}: measured again beside the new commit(s) next to them, so that each flag "
        "compares one batch's measurements (--no-bridge: not)\n",
        short_list(plan.plan.bridging));
  }
  if (options.confirm_flags) {
    std::cout << (plan.plan.confirming.empty()
                      ? std::string("confirming: no flag waits for a re-measurement\n")
                      : fmt::format("confirming {} flag commit(s) and the commit(s) before them: "
                                    "{}\n",
                                    plan.plan.confirming.size(), short_list(plan.plan.confirming)));
  }
  if (!options.queue_store.empty()) {
    enqueue_commits(options.queue_store, plan.plan.selected, options.environment,
                    setup.config.suite);
  }
  return 0;
}

int execute_measure(const HistoryOptions& options) {
  const history::HistorySetup setup = setup_of(options);
  history::MeasureOptions measure;
  measure.plan_file = options.plan;
  measure.batch_dir = options.output;
  measure.environment_id = options.environment;
  measure.stable = options.stable;
  measure.image = options.image;
  measure.run = options.run;
  measure.attempt = options.attempt;
  const int status = history::measure_plan(setup, measure, std::cerr);
  if (status == 0) std::cout << "batch: " << options.output << "\n";
  return status;
}

int execute_publish(const HistoryOptions& options) {
  if (options.batch.empty() == options.queue_store.empty()) {
    throw Error(ExitCode::kUsage,
                "publish takes --batch DIR (what 'history measure' wrote) or --store URL (what "
                "a fleet's workers stored in a PostgreSQL store's queue): pass one of them");
  }
  const history::HistorySetup setup = setup_of(options);
  const bool from_queue = !options.queue_store.empty();
  const history::PublishOutcome outcome =
      from_queue ? history::publish_queue(setup, options.queue_store)
                 : history::publish_batch(setup, options.batch, options.accept_stale);
  if (!outcome.changed()) {
    std::cout << fmt::format("{}: already holds {} ({} files); nothing to publish\n",
                             setup.archive->url(), from_queue ? "these attempts" : "this batch",
                             outcome.skipped);
  } else {
    std::cout << fmt::format("{}: published {} new files ({} already there), ledger {}\n",
                             setup.archive->url(), outcome.created, outcome.skipped,
                             outcome.replaced ? "updated" : "unchanged");
  }
  if (outcome.retries > 0) {
    std::cerr << fmt::format(
        "perfgate history publish: note: another publisher landed first {} "
        "time(s); merged and retried\n",
        outcome.retries);
  }
  return 0;
}

int execute_export(const HistoryOptions& options) {
  check_result_path(options.output, options.force);
  const history::HistorySetup setup = setup_of(options);
  const history::ExportSummary exported = history::export_archive(
      setup, kVersion,
      [&](const std::string& text) { write_result(options.output, text, options.force); });
  std::cout << fmt::format(
      "{}: {} commits monitored: {} measured, {} failed, {} missing; {} series, {} flags",
      options.output, exported.monitored, exported.measured, exported.failed, exported.missing,
      exported.series, exported.flags);
  if (exported.flags > 0) {
    // How far the flags were checked by a second measurement (history plan --confirm-flags).
    std::cout << fmt::format(
        " ({} confirmed, {} unconfirmed, {} not yet re-measured)", exported.confirmed_flags,
        exported.unconfirmed_flags,
        exported.flags - exported.confirmed_flags - exported.unconfirmed_flags);
  }
  std::cout << "\n";
  return 0;
}

int execute_validate(const HistoryOptions& options) {
  const history::HistorySetup setup = setup_of(options);
  const history::BatchVerdict verdict = history::validate_batch(setup, options.batch);
  for (const std::string& line : verdict.lines) std::cout << line << "\n";
  return verdict.target_measured ? 0 : static_cast<int>(ExitCode::kFailure);
}

/// `history bisect`: `perfgate bisect` on the range of a change point or a flag.
CLI::App* add_history_bisect_command(CLI::App* history, HistoryOptions& options) {
  CLI::App* bisect = history->add_subcommand(
      "bisect", "Bisect the commits around a change point or a flag of an export (docs/bisect.md)");
  bisect
      ->add_option("--from", options.bisect_export,
                   "The export to read (history.json, from 'perfgate history export')")
      ->required();
  bisect->add_option("--series", options.bisect_series, "The series' id (s-...)")->required();
  CLI::Option* change = bisect->add_option(
      "--change", options.bisect_change,
      "The series' change point, 1 for the oldest: its commit, widened by 2 points each side");
  CLI::Option* flag = bisect->add_option("--flag", options.bisect_flag,
                                         "The flag at this commit (SHA): its previous point to it");
  change->excludes(flag);
  BisectOptions& b = options.bisect;
  bisect->add_option("--budget", b.budget,
                     "The smallest change worth finding, e.g. 5% (default 2%; 0.5% for "
                     "instructions)");
  bisect->add_option("--alpha", b.alpha, "Each step's chance of a wrong decision (default 0.01)");
  bisect->add_option("--max-rounds", b.max_rounds,
                     "Rounds a step may take before it is undecided (default 1000)");
  bisect->add_option("--out", b.out,
                     "The bisection's folder (default perfgate-bisect; must not exist unless "
                     "--resume)");
  bisect->add_flag("--resume", b.resume, "Continue the bisection in --out from the runs it logged");
  bisect->add_flag("--publish", b.publish,
                   "At the end, publish an attempt of every commit built into the archive");
  bisect->add_option("--repo", b.repo, "The repository (default: the current folder)");
  bisect->add_flag("--json", b.json, "Print the report as one JSON object on stdout");
  bisect->footer(
      "Examples:\n"
      "  perfgate history bisect --from site/history.json --series s-804000b9963cf795 "
      "--change 1\n"
      "  perfgate history bisect --from site/history.json --series s-804000b9963cf795 --flag "
      "3c4d5e6f\n\n"
      "The case and the metric are the series'; instructions are counted (--measure\n"
      "instructions). The repository is the one the export was made from.\n\n"
      "Exit status: 0 a commit (or a range of commits) found; 1 no change; 2 could not\n"
      "decide; 64 bad flags; 65 an export without that series, change or flag; 66 no such\n"
      "export, commit or repository; 130/143/129 interrupted (rerun with --resume).");
  return bisect;
}

int execute_history_bisect(const HistoryOptions& options) {
  if (!options.bisect_change && options.bisect_flag.empty()) {
    throw Error(ExitCode::kUsage,
                "history bisect: give --change N (a change point of the series) or --flag SHA");
  }
  std::ifstream in(options.bisect_export, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kNoInput, "--from " + options.bisect_export +
                                        ": cannot read. Write it with 'perfgate history export'");
  }
  Json history;
  try {
    history = Json::parse(in);
  } catch (const Json::exception& error) {
    throw Error(ExitCode::kDataError, "--from " + options.bisect_export +
                                          ": not JSON: " + error.what() +
                                          ". Export it again with 'perfgate history export'");
  }
  const bisect::ExportRange range = bisect::range_from_export(
      history, options.bisect_series, options.bisect_change, options.bisect_flag);
  BisectOptions bisect = options.bisect;
  bisect.good = range.good;
  bisect.bad = range.bad;
  bisect.case_name = range.case_name;
  bisect.metric = range.metric;
  if (range.metric == "instructions") bisect.measure = "instructions";
  std::cerr << "perfgate history bisect: series " << options.bisect_series << " ("
            << range.case_name << ", " << range.metric << "): " << range.good.substr(0, 12)
            << " (good) to " << range.bad.substr(0, 12) << " (bad)\n";
  return execute_bisect(bisect);
}

}  // namespace

HistoryCommands add_history_command(CLI::App& app, HistoryOptions& options) {
  CLI::App* history = app.add_subcommand(
      "history", "Measure every commit of a branch once, keep it in an archive, export it");
  history->require_subcommand(1);
  history->footer(
      "Examples:\n"
      "  perfgate history plan -o plan.json\n"
      "  perfgate history measure --plan plan.json -o batch/\n"
      "  perfgate history validate --batch batch/\n"
      "  perfgate history publish --batch batch/\n"
      "  perfgate history export -o site/history.json\n"
      "  perfgate history changes --metric latency\n"
      "  perfgate history bisect --from site/history.json --series s-804000b9963cf795 "
      "--change 1\n\n"
      "Configured by the [history] table of perfgate.toml (docs/history.md).\n\n"
      "Exit status: 0 done; 1 validate: the target has no valid measurement; 64 bad flag;\n"
      "65 bad input or a rewritten branch; 66 missing repository, file or archive; 74 I/O\n"
      "error; 130, 143 or 129 measure was interrupted. Each command's --help has its own.");
  HistoryCommands commands;
  commands.history = history;

  commands.plan = history->add_subcommand(
      "plan", "List the monitored commits and choose the next ones to measure");
  add_common_options(commands.plan, options);
  commands.plan->add_flag("--retry", options.retry, "Measure failed commits again too");
  commands.plan->add_flag("--confirm-flags", options.confirm_flags,
                          "First measure each flagged commit not yet re-measured, and the commit "
                          "before it, again (a pair at a time, within --max): the export then "
                          "says whether each flag is confirmed");
  commands.plan->add_flag("--no-bridge", options.no_bridge,
                          "Do not measure again the measured neighbours of the new commits (by "
                          "default what --max leaves measures them beside the new commits, so "
                          "that each flag compares one batch's measurements)");
  commands.plan->add_option("--commit", options.commit,
                            "Measure this monitored commit (a new attempt), whatever its state");
  commands.plan
      ->add_option("--backfill", options.backfill,
                   "Extend the history N first-parent commits further back than its oldest "
                   "one, and measure them, newest first (within --max)")
      ->check(CLI::Range(1, 1000000));
  commands.plan->add_flag("--accept-rewrite", options.accept_rewrite,
                          "The branch was rewritten (force-pushed) and a person reviewed it: "
                          "record the rewrite in the ledger (with the batch), keep every "
                          "attempt and monitored commit, and monitor the new path");
  commands.plan
      ->add_option("--max", options.max,
                   "At most this many commits (default: [history] max_per_run, 8)")
      ->check(CLI::Range(1, 1000));
  commands.plan->add_option("--target", options.target,
                            "The newest commit to monitor (default: the branch's tip)");
  commands.plan->add_option(
      "--activation", options.activation,
      "The first monitored commit, for a new archive (default: the first first-parent commit "
      "whose perfgate.toml has a [history] table)");
  commands.plan->add_option("-o,--output", options.output, "The plan file to write")->required();
  commands.plan->add_flag("--force", options.force, "Replace the plan file if it exists");
  commands.plan->add_option("--store", options.queue_store,
                            "Also queue the selected commits in this PostgreSQL store's work "
                            "queue, for 'perfgate worker' (needs --environment)");
  commands.plan->add_option("--environment", options.environment,
                            "The machine to plan for: commits it has not measured in the "
                            "current setup (default: this machine's hardware profile id; "
                            "with --store, the runner environment that should measure them)");
  commands.plan->footer(
      "Examples:\n"
      "  perfgate history plan -o plan.json\n"
      "  perfgate history plan --retry --max 4 -o plan.json\n"
      "  perfgate history plan --commit 3f2a9c1 -o plan.json\n"
      "  perfgate history plan --environment bench-01 -o plan.json   # for that machine\n"
      "  perfgate history plan --confirm-flags -o plan.json   # re-measure flagged commits\n"
      "  perfgate history plan --accept-rewrite -o plan.json  # after a reviewed force push\n"
      "  perfgate history plan --backfill 100 --max 20 -o plan.json   # reach further back\n"
      "  perfgate history plan -o plan.json --store postgresql://perf@db/perf --environment "
      "arm-1\n\n"
      "The target comes first when it is unmeasured, then (with --confirm-flags) each flagged\n"
      "commit not yet re-measured and the commit before it, then the oldest missing commits.\n"
      "With --store, the selected commits are also queued for the fleet (docs/fleet.md);\n"
      "commits already queued there stay as they are.\n\n"
      "Exit status: 0 planned; 64 bad flag or --commit outside the monitored commits;\n"
      "65 the branch was rewritten (a person must review it) or a bad perfgate.toml;\n"
      "66 no repository, perfgate.toml or branch; 74 the plan file cannot be written.");

  commands.measure = history->add_subcommand(
      "measure", "Build and measure each planned commit in a clean copy, one attempt each");
  add_common_options(commands.measure, options);
  commands.measure->add_option("--plan", options.plan, "The plan file")->required();
  commands.measure
      ->add_option("-o,--output", options.output,
                   "The batch folder to create (must not exist or be empty)")
      ->required();
  commands.measure->add_option("--environment", options.environment,
                               "A unique id of this machine (default: the plan's environment, "
                               "else its hardware profile id)");
  commands.measure->add_flag("--stable", options.stable,
                             "Label the attempts stable: a dedicated, quiet machine (default: "
                             "diagnostic)");
  commands.measure->add_option("--image", options.image,
                               "The container image digest or installation id, recorded");
  commands.measure->add_option("--run", options.run,
                               "Run id of the attempts (default: the CI's, else local-<time>)");
  commands.measure
      ->add_option("--attempt", options.attempt,
                   "Attempt number (default: the CI's re-run number, else 1)")
      ->check(CLI::Range(1, 999999999));
  commands.measure->footer(
      "Examples:\n"
      "  perfgate history measure --plan plan.json -o batch/\n"
      "  perfgate history measure --plan plan.json -o batch/ --stable   # as the plan's machine\n"
      "  perfgate history measure --plan plan.json -o batch/ --environment bench-01\n\n"
      "The commits are built first, [history] interleave (8) at a time, then measured in\n"
      "alternation, run by run, so that a load that comes and goes meets them alike\n"
      "(interleave = 1: one after the other). A commit that fails to build or measure is\n"
      "recorded as a failed attempt; the exit status stays 0 ('history validate' is the step\n"
      "that fails).\n\n"
      "Exit status: 0 every selected commit has its attempt; 64 bad flag or a batch folder\n"
      "that is not empty; 65 bad plan or perfgate.toml; 66 missing plan or repository;\n"
      "74 the batch cannot be written; 130, 143 or 129 interrupted (builds and runs are\n"
      "killed, the finished attempts are kept, batch.json says it is incomplete).");

  commands.publish =
      history->add_subcommand("publish", "Add a batch's attempts to the archive (immutable)");
  add_common_options(commands.publish, options);
  commands.publish->add_option("--batch", options.batch, "The batch folder");
  commands.publish->add_flag("--accept-stale", options.accept_stale,
                             "Publish a batch whose plan is stale all the same: commits measured "
                             "since the plan was made get a second attempt (the newer wins)");
  commands.publish->add_option("--store", options.queue_store,
                               "Instead of a batch: the attempts a fleet's workers stored in this "
                               "PostgreSQL store's work queue (docs/fleet.md)");
  commands.publish->footer(
      "Examples:\n"
      "  perfgate history publish --batch batch/\n"
      "  perfgate history publish --batch batch/ --archive dir:/srv/perf-archive\n"
      "  perfgate history publish --store postgresql://perf@db/perf\n\n"
      "Publishing the same batch again changes nothing. A batch whose plan is stale (its\n"
      "commits were measured on its machine and setup since the plan was made) is refused:\n"
      "plan again, or pass --accept-stale. A git archive gets one commit on its\n"
      "branch, moved with a compare-and-swap: racing publishers merge, nothing is forced.\n\n"
      "Exit status: 0 published (or already there); 65 an invalid attempt, or one that\n"
      "conflicts with the archive (nothing published); 66 missing batch or repository;\n"
      "74 the archive cannot be written.");

  commands.export_ = history->add_subcommand(
      "export", "Write history.json of the archive for the dashboard (docs/history-json.md)");
  add_common_options(commands.export_, options);
  commands.export_->add_option("-o,--output", options.output, "The history.json to write")
      ->required();
  commands.export_->add_flag("--force", options.force, "Replace the file if it exists");
  commands.export_->footer(
      "Examples:\n"
      "  perfgate history export -o site/history.json\n"
      "  perfgate history export --archive dir:/srv/perf-archive -o history.json --force\n\n"
      "Exit status: 0 written; 64 bad flag or an existing file without --force; 65 a damaged\n"
      "ledger; 66 no archive, repository or output folder; 74 the file cannot be written.");

  commands.validate = history->add_subcommand(
      "validate", "Fail when the batch's target commit has no valid measurement");
  add_common_options(commands.validate, options);
  commands.validate->add_option("--batch", options.batch, "The batch folder")->required();
  commands.validate->footer(
      "Examples:\n"
      "  perfgate history validate --batch batch/\n\n"
      "Failed backfill commits are listed but do not fail a newer target.\n\n"
      "Exit status: 0 the target's latest attempt (in the batch or the archive) succeeded;\n"
      "1 it failed or there is none; 65 an invalid attempt file; 66 missing batch.");
  commands.changes = add_history_changes_command(history, options.changes);
  commands.bisect = add_history_bisect_command(history, options);
  return commands;
}

int execute_history(const HistoryCommands& commands, const HistoryOptions& options) {
  if (commands.plan->parsed()) return execute_plan(options);
  if (commands.measure->parsed()) return execute_measure(options);
  if (commands.publish->parsed()) return execute_publish(options);
  if (commands.export_->parsed()) return execute_export(options);
  if (commands.changes->parsed()) return execute_history_changes(options.changes);
  if (commands.bisect->parsed()) return execute_history_bisect(options);
  return execute_validate(options);
}

}  // namespace perfgate
