#include "cli/baseline_command.hpp"

#include <fmt/format.h>

#include <ctime>
#include <fstream>
#include <iostream>
#include <map>

#include "cli/output_file.hpp"
#include "cli/project_lookup.hpp"
#include "gate/baseline_manifest.hpp"
#include "gate/baseline_selection.hpp"
#include "measure/results_folder.hpp"
#include "model/error.hpp"
#include "model/natural_order.hpp"
#include "model/time_window.hpp"
#include "model/visible_text.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

std::string provenance(const ManifestEntry& entry) {
  std::string text = entry.commit_sha ? "commit " + entry.commit_sha->substr(0, 12)
                     : entry.build_id ? "build " + *entry.build_id
                                      : "no commit or build";
  if (entry.test_scope) text += ", scope " + *entry.test_scope;
  return text;
}

std::string metric_values(const ManifestEntry& entry) {
  std::string text;
  for (const auto& [name, metric] : entry.metrics) {
    text += (text.empty() ? "" : ", ") + name + " " + format_quantity(metric.value, metric.unit);
  }
  return text;
}

/// A note on stderr. Its names come from records (benchmarks, cohorts, commits): a control
/// character in one is shown as \xNN, so that it cannot drive the terminal.
void print_note(const std::string& note) {
  std::cerr << "perfgate: note: " << visible_text(note) << "\n";
}

/// What prepare proposes, cohort by cohort, for the reviewer's first look; the records'
/// names shown as print_note shows them.
void print_manifest(const BaselineManifest& manifest) {
  std::map<std::string, std::vector<const ManifestEntry*>, NaturalLess> by_cohort;
  for (const auto& entry : manifest.records) by_cohort[entry.cohort].push_back(&entry);
  for (const auto& [cohort, entries] : by_cohort) {
    std::cout << "  cohort " << visible_text(cohort) << "\n";
    for (const ManifestEntry* entry : entries) {
      std::cout << "    "
                << visible_text(entry->benchmark_id + "  " + entry->timestamp + "  " +
                                entry->run_source + "  " + entry->comparison_status + "  " +
                                provenance(*entry) + "  " + metric_values(*entry))
                << "\n";
    }
  }
}

/// A re-seed too small to set its cohort's median still counts, but the user should
/// know that the cohort will keep failing until more records are re-seeded.
void note_reseeds_too_small(Store& store, const std::vector<StoredRecord>& records) {
  std::map<CohortKey, std::size_t> reseeded;
  for (const auto& stored : records) ++reseeded[*stored.record.cohort()];
  for (const auto& [cohort, count] : reseeded) {
    const std::size_t eligible = store.baseline_records(cohort, 5).size();
    if (reseed_sets_median(count, eligible)) continue;
    print_note("cohort " + cohort.to_string() + ": " + std::to_string(count) +
               " record(s) to re-seed beside " + std::to_string(eligible) +
               " eligible; the rolling baseline (the median of the last 5 eligible records) "
               "moves to their level only once they outnumber the older records among those "
               "5. Re-seed more runs of the new level");
  }
}

std::string no_record_message(SeedMode mode, const SeedSelection& selection,
                              const std::vector<std::string>& trusted) {
  if (!selection.untrusted_sources.empty()) {
    std::string sources;
    std::size_t count = 0;
    for (const auto& [source, records] : selection.untrusted_sources) {
      sources += (sources.empty() ? "'" : ", '") + source + "'";
      count += records;
    }
    std::string listed;
    for (const auto& source : trusted) listed += (listed.empty() ? "\"" : ", \"") + source + "\"";
    const std::string first = selection.untrusted_sources.begin()->first;
    return fmt::format(
        "no record qualifies: {} record(s) would, but their run source ({}) is not trusted to "
        "seed a baseline; perfgate.toml trusts [{}] (trusted_run_sources in [baseline]). A run "
        "on your own machine is 'local'. To seed from them, add it to perfgate.toml:\n"
        "  [baseline]\n  trusted_run_sources = [{}{}\"{}\"]\n"
        "or measure with the run source your baselines come from (perfgate run --run-source "
        "scheduled_main, or PERFGATE_RUN_SOURCE), then compare and prepare again.",
        count, sources, listed, listed, listed.empty() ? "" : ", ", first);
  }
  if (mode == SeedMode::kReseed) {
    return "no record qualifies for a re-seed: it needs PASS, REGRESSION or INCONCLUSIVE records "
           "that are "
           "successful, from a trusted run source and not yet eligible, in the selected "
           "cohorts. Store them with 'perfgate compare --upload always'.";
  }
  return "no record qualifies: baseline prepare needs CALIBRATION_NEEDED, successful records "
         "from a trusted run source that are not yet eligible. Store them with 'perfgate "
         "compare --upload pass'; to move an existing baseline, use --reseed.";
}

}  // namespace

std::pair<CLI::App*, CLI::App*> add_baseline_command(CLI::App& app, BaselineOptions& options) {
  CLI::App* baseline = app.add_subcommand(
      "baseline", "Seed the first baseline of a new cohort, or re-seed a moved one, after review");
  baseline->require_subcommand(1);
  baseline->footer(
      "Examples:\n"
      "  perfgate baseline prepare --benchmark 'sort*' -o manifest.json\n"
      "  perfgate baseline approve manifest.json\n\n"
      "Exit status: that of the command (prepare or approve); 64 without one.");
  CLI::App* prepare = baseline->add_subcommand(
      "prepare", "Write a digest-protected manifest of the records that may seed baselines");
  prepare->add_option("-b,--benchmark", options.benchmark,
                      "Only records whose benchmark_id matches this glob");
  prepare->add_option("--cohort", options.cohort,
                      "Only records of this exact cohort, as prepare and report print it");
  prepare->add_option("--since", options.since,
                      "Only records this recent: 30d, 12h, 2026-11-01, …");
  prepare->add_flag("--reseed", options.reseed,
                    "Re-seed cohorts whose baseline legitimately moved (compiler, driver or "
                    "image upgrade): PASS and REGRESSION records; needs --benchmark or --cohort");
  prepare->add_flag("--allow-mixed-commits", options.allow_mixed_commits,
                    "Let one cohort's records come from several commits or builds (default: "
                    "only the newest)");
  prepare
      ->add_option("-o,--output", options.output,
                   "Where to write the manifest (an existing file is kept unless --force)")
      ->required();
  prepare->add_flag("--force", options.force, "Replace the --output file if it exists");
  CLI::App* approve = baseline->add_subcommand(
      "approve",
      "Re-check a reviewed manifest against the store and make its records eligible, all at once");
  approve->add_option("manifest", options.manifest, "The manifest written by prepare")->required();
  for (CLI::App* cmd : {prepare, approve}) {
    cmd->add_option(
        "--store", options.store,
        "Store URL (default: $PERFGATE_STORE, [store] url, sqlite:.perfgate/perfgate.db)");
    cmd->add_option("--project", options.project, "perfgate.toml to use (trusted run sources)");
  }
  prepare->footer(
      "Examples:\n"
      "  perfgate baseline prepare --benchmark 'sort*' -o manifest.json\n"
      "  perfgate baseline prepare --since 7d -o manifest.json --store dir:perf-archive\n"
      "  perfgate baseline prepare --reseed --benchmark sort -o reseed.json\n\n"
      "Records qualify when they are successful, from a trusted run source\n"
      "([baseline] trusted_run_sources), not yet eligible, and CALIBRATION_NEEDED (or, with\n"
      "--reseed, PASS, REGRESSION or INCONCLUSIVE). Each cohort keeps the records of one commit or "
      "build,\n"
      "its newest, unless --allow-mixed-commits. Review the manifest, then approve it.\n\n"
      "Exit status: 0 manifest written; 1 no record qualifies; 64 bad flag, or an --output\n"
      "file that exists (pass --force); 66 store not found; 74 store or file not writable.");
  approve->footer(
      "Examples:\n"
      "  perfgate baseline approve manifest.json\n\n"
      "Refuses (exit 65), marking nothing, when the manifest was edited, the store changed since\n"
      "prepare, or a record no longer qualifies. Approving a manifest again changes nothing.\n\n"
      "Exit status: 0 records made eligible (or already eligible); 65 an edited or stale\n"
      "manifest, or a record that no longer qualifies; 66 manifest or store not found; 74\n"
      "store not writable.");
  return {prepare, approve};
}

int execute_baseline_prepare(const BaselineOptions& options) {
  const SeedMode mode = options.reseed ? SeedMode::kReseed : SeedMode::kCalibration;
  if (mode == SeedMode::kReseed && options.benchmark.empty() && options.cohort.empty()) {
    throw Error(ExitCode::kUsage,
                "--reseed: needs --benchmark or --cohort. A re-seed accepts a moved baseline, "
                "so name the benchmarks or the cohort it is for");
  }
  check_output_file(options.output, "--output", options.force);
  const ProjectConfig project = project_for(options.project, fs::current_path());
  const auto store = open_existing_store(project_store_url(options.store, project));
  const std::string revision = store->revision();
  RecordFilter filter;
  filter.benchmark_glob = options.benchmark;
  if (!options.since.empty()) filter.since = since_to_timestamp(options.since, std::time(nullptr));
  std::vector<StoredRecord> listed = store->list_records(filter);
  if (!options.cohort.empty()) {
    std::erase_if(listed, [&](const StoredRecord& stored) {
      const auto cohort = stored.record.cohort();
      return !cohort || cohort->to_string() != options.cohort;
    });
  }
  const SeedSelection selection =
      select_seed_records(listed, mode, project.trusted_run_sources, options.allow_mixed_commits);
  for (const auto& note : selection.notes) print_note(note);
  if (mode == SeedMode::kReseed) note_reseeds_too_small(*store, selection.records);
  // Only where compare decides by the scatter between records: the seed's rule does not.
  if (project.compare_method.value_or(CompareMethod::kStat) == CompareMethod::kStat) {
    for (const auto& note : one_moment_notes(selection.records)) print_note(note);
  }
  if (selection.records.empty()) {
    std::cerr << "perfgate: " << no_record_message(mode, selection, project.trusted_run_sources)
              << "\n";
    return static_cast<int>(ExitCode::kFailure);
  }
  const BaselineManifest manifest =
      build_manifest(selection.records, mode, options.allow_mixed_commits, store->url(), revision,
                     iso_utc(std::time(nullptr)));
  write_output_file(options.output, "--output", pretty_json(to_json(manifest)), options.force);
  std::cout << "wrote " << options.output << " (" << to_string(mode)
            << "): " << manifest.records.size() << " record(s) of store " << store->url()
            << " at revision " << revision.substr(0, 12) << "\n";
  print_manifest(manifest);
  std::cout << "Review it, then run: perfgate baseline approve " << options.output << "\n";
  return static_cast<int>(ExitCode::kOk);
}

int execute_baseline_approve(const BaselineOptions& options) {
  const BaselineManifest manifest = load_baseline_manifest(options.manifest);
  const ProjectConfig project = project_for(options.project, fs::current_path());
  const std::string url = !options.store.empty() ? options.store : manifest.store_url;
  const auto store = open_existing_store(url);
  // Before the revision check: an approval changes the revision, so a repeated approve
  // would otherwise read as "the store changed".
  if (store->has_approval(manifest.manifest_sha256)) {
    std::cout << options.manifest << " is already approved in " << store->url() << " (approval "
              << manifest.manifest_sha256.substr(0, 12) << "); nothing changed\n";
    return static_cast<int>(ExitCode::kOk);
  }
  const std::string revision = store->revision();
  if (revision != manifest.store_revision) {
    throw Error(ExitCode::kDataError,
                options.manifest + ": the store " + store->url() +
                    " changed since prepare (revision " + manifest.store_revision.substr(0, 12) +
                    ", now " + revision.substr(0, 12) +
                    "). Run 'perfgate baseline prepare' again and review the new manifest");
  }
  const auto problems =
      manifest_problems(manifest, store->list_records({}), project.trusted_run_sources);
  if (!problems.empty()) {
    std::string message = options.manifest + ": cannot approve; nothing was marked:";
    for (const auto& problem : problems) message += "\n  " + problem;
    throw Error(ExitCode::kDataError,
                message + "\nRun 'perfgate baseline prepare' again and review the new manifest");
  }
  std::vector<std::string> ids;
  for (const auto& entry : manifest.records) ids.push_back(entry.record_id);
  store->approve(ids, manifest.manifest_sha256, manifest.store_revision);
  std::cout << "approved " << ids.size() << " record(s) in " << store->url()
            << (manifest.mode == SeedMode::kReseed
                    ? ": they now count in their cohorts' rolling baseline (the median of the "
                      "last 5 eligible records)\n"
                    : ": they now seed the rolling baseline of their cohorts\n");
  return static_cast<int>(ExitCode::kOk);
}

}  // namespace perfgate
