#include "cli/bisect_command.hpp"

#include <chrono>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "bisect/archived_runs.hpp"
#include "bisect/bisect_report.hpp"
#include "bisect/bisect_search.hpp"
#include "bisect/sample_log.hpp"
#include "cli/output_file.hpp"
#include "config/benchmark_config.hpp"
#include "config/key_suggestion.hpp"
#include "config/project_location.hpp"
#include "config/suite_loader.hpp"
#include "history/commit_measurement.hpp"
#include "history/history_setup.hpp"
#include "history/history_steps.hpp"
#include "history/series_identity.hpp"
#include "measure/exclusive_file.hpp"
#include "measure/host_profile.hpp"
#include "measure/interruption.hpp"
#include "measure/process_executor.hpp"
#include "model/error.hpp"
#include "model/raw_record.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;
using bisect::SearchRules;
using history::CommitUnderTest;

[[noreturn]] void bisect_usage(const std::string& message) {
  throw Error(ExitCode::kUsage, message);
}

/// Default thresholds: a change worth finding. Counts repeat exactly, so a smaller one.
constexpr double kDefaultTimeThreshold = 0.02;
constexpr double kDefaultCountThreshold = 0.005;

double parse_threshold(const std::string& text) {
  std::string number = text;
  if (!number.empty() && number.back() == '%') number.pop_back();
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (number.empty() || used != number.size() || text.back() != '%' || !(value > 0) ||
      !(value < 100)) {
    bisect_usage(
        fmt::format("--budget {}: not a percentage above 0 and below 100. Give the smallest "
                    "change worth finding, e.g. --budget 5%",
                    text));
  }
  return value / 100;
}

/// The rules and the metric from the flags, checked before anything runs.
struct BisectRequest {
  SearchRules rules;
  std::string metric;
  bool counts = false;
};

BisectRequest read_bisect_request(const BisectOptions& options) {
  BisectRequest request;
  if (options.measure != "time" && options.measure != "instructions") {
    bisect_usage("--measure " + options.measure + ": give time or instructions");
  }
  request.counts = options.measure == "instructions";
  request.metric =
      options.metric.empty() ? (request.counts ? "instructions" : "latency") : options.metric;
  const std::vector<std::string> timed = {"latency", "cpu_time", "memory"};
  if (request.counts && request.metric != "instructions") {
    bisect_usage(
        "--metric " + request.metric +
        ": --measure instructions counts instructions only. Leave --metric out, or measure "
        "time");
  }
  if (!request.counts && std::find(timed.begin(), timed.end(), request.metric) == timed.end()) {
    bisect_usage("--metric " + request.metric + ": " +
                 (request.metric == "instructions"
                      ? std::string("pass --measure instructions to count "
                                    "them")
                      : unknown_key_fix(request.metric, timed)));
  }
  request.rules.counts = request.counts;
  request.rules.threshold = options.budget.empty()
                                ? (request.counts ? kDefaultCountThreshold : kDefaultTimeThreshold)
                                : parse_threshold(options.budget);
  if (!(options.alpha > 0 && options.alpha <= 0.2)) {
    bisect_usage(
        fmt::format("--alpha {:g}: the chance of a wrong step is a fraction above 0 and at "
                    "most 0.2, e.g. 0.01",
                    options.alpha));
  }
  if (options.max_rounds < 6 || options.max_rounds > 10000) {
    bisect_usage(
        fmt::format("--max-rounds {}: give 6 to 10000 rounds a step may take", options.max_rounds));
  }
  request.rules.alpha = options.alpha;
  request.rules.max_rounds = static_cast<std::size_t>(options.max_rounds);
  return request;
}

/// The first-parent path from good to bad, good first.
std::vector<history::CommitInfo> path_between(const history::GitRepository& repository,
                                              const BisectOptions& options) {
  const auto resolve = [&](const std::string& flag, const std::string& revision) {
    const std::optional<std::string> sha = repository.resolve(revision);
    if (!sha) {
      throw Error(ExitCode::kNoInput, fmt::format("{} {}: names no commit of {}. Give a SHA, a "
                                                  "branch or a tag",
                                                  flag, revision, repository.root().string()));
    }
    return *sha;
  };
  const std::string good = resolve("--good", options.good);
  const std::string bad = resolve("--bad", options.bad);
  if (good == bad) bisect_usage("--good and --bad name the same commit " + good.substr(0, 12));
  const std::vector<std::string> chain = repository.first_parent_chain(bad, good);
  if (chain.empty() || chain.back() != good) {
    throw Error(ExitCode::kDataError,
                fmt::format("--good {} is not on the first-parent path of --bad {}. Give a good "
                            "commit that --bad descends from through first parents (git log "
                            "--first-parent {})",
                            options.good, options.bad, options.bad));
  }
  std::vector<history::CommitInfo> path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) path.push_back(repository.commit(*it));
  return path;
}

/// The case to bisect: --case, or the only case of the checkout's suite. Checked against
/// the checkout's suite when it loads (a commit's own suite may differ; a commit without
/// the case is skipped).
std::string case_of(const history::HistorySetup& setup, const BisectOptions& options) {
  std::vector<std::string> names;
  try {
    const fs::path root = setup.repository->root();
    const Suite suite =
        load_suite({root / setup.config.suite}, ProjectLocation{root, setup.config_file});
    for (const BenchmarkConfig& config : suite.configs) {
      for (const BenchmarkState& state : expand_states(config)) names.push_back(state.name);
    }
  } catch (const Error&) {
    if (options.case_name.empty()) {
      bisect_usage("--case is missing, and the checkout's suite " + setup.config.suite +
                   " cannot be loaded to find its one case. Name the case to bisect");
    }
    return options.case_name;
  }
  if (options.case_name.empty()) {
    if (names.size() == 1) return names[0];
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    bisect_usage("--case is missing: the suite has " + std::to_string(names.size()) +
                 " cases. Name the one to bisect: " + list);
  }
  if (std::find(names.begin(), names.end(), options.case_name) == names.end()) {
    bisect_usage("--case " + options.case_name + ": the checkout's suite has no such case. " +
                 unknown_key_fix(options.case_name, names));
  }
  return options.case_name;
}

/// Runs of the path's commits: first those the archive holds (not logged: the same archive
/// serves them again on --resume), then runs of an interrupted bisection replayed from its
/// log, then runs measured now, each commit built on first use and kept until the bisection
/// ends, every run logged.
class BuiltCommits final : public bisect::CommitSampler {
 public:
  BuiltCommits(const history::HistorySetup& setup, const std::vector<history::CommitInfo>& path,
               history::MeasureSettings settings, std::string case_name,
               const BisectRequest& request, fs::path out, bisect::SampleLog& log,
               bisect::ArchivedRuns archived, std::ostream& progress)
      : setup_(setup),
        path_(path),
        settings_(std::move(settings)),
        case_(std::move(case_name)),
        request_(request),
        out_(std::move(out)),
        log_(log),
        archived_(std::move(archived)),
        progress_(progress) {}

  std::optional<double> sample(std::size_t index) override {
    const std::string& sha = path_[index].sha;
    if (auto queued = archived_.runs.find(index);
        queued != archived_.runs.end() && !queued->second.empty()) {
      const double value = queued->second.front();
      queued->second.pop_front();
      ++from_archive_;
      return value;
    }
    if (!log_.pending().empty()) {
      bisect::LoggedRun logged = log_.pending().front();
      if (logged.commit == sha) {
        log_.pending().pop_front();
        log_.note_replayed();
        if (!logged.value) failures_[index] = logged.failure;
        return logged.value;
      }
      progress_ << "perfgate bisect: the log's next run is of another commit; measuring afresh "
                   "from here\n";
      log_.discard_pending();
    }
    bisect::LoggedRun run{sha, std::nullopt, ""};
    const std::optional<double> value = measure(index, run.failure);
    if (interruption_signal() != 0) throw bisect::SearchInterrupted{};
    run.value = value;
    if (!value) failures_[index] = run.failure;
    log_.append(run);
    return value;
  }

  const std::map<std::size_t, std::string>& failures() const { return failures_; }
  std::size_t from_archive() const { return from_archive_; }
  std::size_t built() const { return built_.size(); }

  /// The attempt of every commit built in this invocation, oldest first, as `history
  /// measure` would record it; nullopt when interrupted.
  std::optional<std::vector<history::HistoryAttempt>> attempts() {
    std::vector<history::HistoryAttempt> attempts;
    for (auto& [index, built] : built_) {
      progress_ << fmt::format("recording the attempt of {}\n", path_[index].sha.substr(0, 12))
                << std::flush;
      std::optional<history::HistoryAttempt> attempt = built->attempt();
      if (!attempt) return std::nullopt;
      attempts.push_back(std::move(*attempt));
    }
    return attempts;
  }

 private:
  std::optional<double> measure(std::size_t index, std::string& failure) {
    auto& built = built_[index];
    if (!built) {
      progress_ << fmt::format("building {} \"{}\"\n", path_[index].sha.substr(0, 12),
                               path_[index].summary)
                << std::flush;
      built = CommitUnderTest::prepare(*setup_.repository, path_[index].sha, settings_, executor_,
                                       out_);
      if (!built) throw bisect::SearchInterrupted{};
    }
    if (!built->ready()) {
      failure = built->failure();
      return std::nullopt;
    }
    const std::optional<RawRecord> record =
        built->run_round(case_, request_.counts ? CommitUnderTest::RoundKind::kCounted
                                                : CommitUnderTest::RoundKind::kTimed);
    if (interruption_signal() != 0) throw bisect::SearchInterrupted{};
    if (!record) {
      failure = "its suite has no case " + case_;
      return std::nullopt;
    }
    if (!record->success) {
      failure = "case " + case_ + ": " + record->failure_reason;
      return std::nullopt;
    }
    const auto metric = record->metrics.find(request_.metric);
    if (metric == record->metrics.end() || metric->second.samples.empty()) {
      failure = "case " + case_ + " measured no " + request_.metric;
      return std::nullopt;
    }
    return metric->second.samples.back();
  }

  const history::HistorySetup& setup_;
  const std::vector<history::CommitInfo>& path_;
  history::MeasureSettings settings_;
  std::string case_;
  const BisectRequest& request_;
  fs::path out_;
  bisect::SampleLog& log_;
  bisect::ArchivedRuns archived_;
  std::size_t from_archive_ = 0;
  std::ostream& progress_;
  ProcessExecutor executor_;
  std::map<std::size_t, std::unique_ptr<CommitUnderTest>> built_;
  std::map<std::size_t, std::string> failures_;
};

/// The runs the [history] archive holds of the path's commits in the series this
/// bisection's own runs belong to; what it found is said on `progress`.
bisect::ArchivedRuns runs_in_archive(const history::HistorySetup& setup,
                                     const std::vector<history::CommitInfo>& path,
                                     const std::string& case_name, const std::string& metric,
                                     std::ostream& progress) {
  std::vector<std::string> shas;
  for (const history::CommitInfo& commit : path) shas.push_back(commit.sha);
  const bisect::ArchiveMatch match{
      collect_hardware_profile(real_host()).id(),
      history::setup_id(history::configuration_of(setup.config), setup.config.harness_version),
      case_name, metric};
  bisect::ArchivedRuns archived =
      bisect::archived_runs(*setup.archive->snapshot(), setup.archive->url(), shas, match);
  for (const std::string& note : archived.notes)
    progress << "perfgate bisect: note: " << note << "\n";
  if (!archived.attempts.empty()) {
    progress << fmt::format(
        "perfgate bisect: {} runs of {} commits from {} attempts in {} count (this machine, "
        "this setup); they are used before any run is measured. --fresh leaves them out\n",
        archived.total(), archived.runs.size(), archived.attempts.size(), setup.archive->url());
  }
  return archived;
}

/// What a merge commit brought in: its second parent's summary.
std::map<std::size_t, std::string> merges_found(const history::GitRepository& repository,
                                                const std::vector<history::CommitInfo>& path,
                                                const bisect::SearchResult& result) {
  std::map<std::size_t, std::string> merged;
  for (const bisect::FoundCommit& found : result.found) {
    const history::CommitInfo& commit = path[found.first_changed];
    if (commit.parents.size() < 2) continue;
    const history::CommitInfo second = repository.commit(commit.parents[1]);
    merged[found.first_changed] = second.sha.substr(0, 12) + " \"" + second.summary + "\"";
  }
  return merged;
}

/// --publish: each commit built gets its attempt (its other cases measured now), written to
/// <out>/attempts/ and published into the [history] archive. 0, or the interrupted status.
int publish_attempts(const history::HistorySetup& setup, BuiltCommits& commits, const fs::path& out,
                     const std::string& run, std::ostream& progress) {
  const auto attempts = commits.attempts();
  if (!attempts) {
    const int signal = interruption_signal();
    progress << "perfgate bisect: " << describe_interruption(signal)
             << " while recording the attempts: nothing was published\n";
    return interrupted_exit_code(signal);
  }
  fs::create_directories(out / "attempts");
  for (const history::HistoryAttempt& attempt : *attempts) {
    create_file_exclusively(out / "attempts" / (attempt.identity.text() + ".json"),
                            pretty_json(history::to_json(attempt)));
  }
  std::size_t left_out = 0;
  const history::PublishOutcome outcome = history::publish_measured(
      setup, *attempts, out,
      fmt::format("perfgate bisect: publish run {} ({} attempts)", run, attempts->size()),
      left_out);
  progress << fmt::format("perfgate bisect: published {} attempts into {} ({} files new)",
                          attempts->size() - left_out, setup.archive->url(), outcome.created);
  if (left_out > 0) {
    progress << fmt::format("; {} of commits the branch does not monitor left out", left_out);
  }
  progress << "\n";
  return 0;
}

}  // namespace

CLI::App* add_bisect_command(CLI::App& app, BisectOptions& options) {
  CLI::App* bisect = app.add_subcommand(
      "bisect",
      "Find the commit that changed a benchmark: measure commits between a good and a bad "
      "one, deciding each step with a confidence sequence (docs/bisect.md)");
  bisect->add_option("--good", options.good, "A commit before the change (SHA, branch or tag)")
      ->required();
  bisect->add_option("--bad", options.bad, "A commit after it, descending from --good")->required();
  bisect->add_option("--case", options.case_name,
                     "The case of the suite to measure (default: the suite's only case)");
  bisect->add_option("--metric", options.metric,
                     "latency (default), cpu_time or memory; instructions with --measure "
                     "instructions");
  bisect->add_option("--measure", options.measure,
                     "time (default) or instructions (counted runs: hardware counters or "
                     "Valgrind)");
  bisect->add_option("--budget", options.budget,
                     "The smallest change worth finding, e.g. 5% (default 2%; 0.5% for "
                     "instructions)");
  bisect->add_option("--alpha", options.alpha,
                     "Each step's chance of a wrong decision (default 0.01)");
  bisect->add_option("--max-rounds", options.max_rounds,
                     "Rounds a step may take before it is undecided (default 1000)");
  bisect->add_option("--out", options.out,
                     "The bisection's folder: its runs' log, build logs and report (default "
                     "perfgate-bisect; must not exist unless --resume)");
  bisect->add_flag("--resume", options.resume,
                   "Continue the bisection in --out from the runs it logged");
  bisect->add_flag("--fresh", options.fresh,
                   "Measure every run now: take none from the attempts the [history] archive "
                   "holds of these commits on this machine");
  bisect->add_flag("--publish", options.publish,
                   "At the end, publish an attempt of every commit built into the [history] "
                   "archive (their other cases measured then)");
  bisect->add_option("--repo", options.repo, "The repository (default: the current folder)");
  bisect->add_flag("--json", options.json,
                   "Print the report as one JSON object on stdout (progress goes to stderr)");
  bisect->footer(
      "Examples:\n"
      "  perfgate bisect --good v1.2 --bad main\n"
      "  perfgate bisect --good 3f2a1c --bad HEAD --case parse-large --budget 5%\n"
      "  perfgate bisect --good v1.2 --bad main --measure instructions --json > bisect.json\n"
      "  perfgate bisect --good v1.2 --bad main --resume      # after an interruption\n\n"
      "Exit status: 0 a commit (or a range of commits) found; 1 no change between --good and\n"
      "--bad; 2 could not decide; 64 bad flags or an existing --out; 65 invalid perfgate.toml\n"
      "or --good not an ancestor of --bad; 66 no such commit or repository;\n"
      "130/143/129 interrupted (rerun with --resume to continue).");
  return bisect;
}

int execute_bisect(const BisectOptions& options) {
  const BisectRequest request = read_bisect_request(options);
  history::HistorySetup setup = history::open_history(options.repo, std::nullopt);
  const std::vector<history::CommitInfo> path = path_between(*setup.repository, options);
  const std::string case_name = case_of(setup, options);

  const fs::path out = options.out;
  std::error_code ec;
  const bool exists = fs::exists(out, ec);
  if (exists && !options.resume) {
    bisect_usage("--out " + out.string() +
                 ": already exists. Pass --resume to continue the bisection it holds, or choose "
                 "another --out");
  }
  const Json header = {{"perfgate_bisect", 1},         {"good", path.front().sha},
                       {"bad", path.back().sha},       {"case", case_name},
                       {"metric", request.metric},     {"threshold", request.rules.threshold},
                       {"alpha", request.rules.alpha}, {"max_rounds", request.rules.max_rounds}};
  const InterruptionScope interruption;
  if (!exists) fs::create_directories(out);
  bisect::SampleLog log = exists ? bisect::SampleLog::resume(out / "samples.jsonl", header)
                                 : bisect::SampleLog::create(out / "samples.jsonl", header);
  std::ostream& progress = std::cerr;
  if (exists) {
    progress << fmt::format("perfgate bisect: resuming from {} logged runs\n",
                            log.pending().size());
  }
  if (!exists && options.resume) {
    progress << "perfgate bisect: --resume: " << out.string()
             << " holds no bisection yet; starting one\n";
  }
  progress << fmt::format("perfgate bisect: {} commits from {} (good) to {} (bad), case {}, {}\n",
                          path.size() - 1, path.front().sha.substr(0, 12),
                          path.back().sha.substr(0, 12), case_name, request.metric);

  history::MeasureSettings settings;
  settings.config = setup.config;
  settings.harness_sha = setup.repository->resolve("HEAD").value_or("");
  // Each invocation's attempts are its own: a run id from the clock, as a local batch's.
  std::string stamp = history::utc_now_with_microseconds();
  std::erase_if(stamp, [](char c) { return c == '-' || c == ':'; });
  settings.run = "bisect-" + stamp;
  settings.attempt = 1;

  bisect::BisectFacts facts;
  facts.path = path;
  facts.case_name = case_name;
  facts.metric = request.metric;
  facts.threshold = request.rules.threshold;
  facts.commit_url = setup.config.commit_url;

  bisect::ArchivedRuns archived;
  if (!options.fresh && setup.archive->exists()) {
    archived = runs_in_archive(setup, path, case_name, request.metric, progress);
  }
  facts.archive_attempts = archived.attempts;

  const auto started = std::chrono::steady_clock::now();
  bisect::SearchResult result;
  {
    BuiltCommits commits(setup, path, settings, case_name, request, out, log, std::move(archived),
                         progress);
    try {
      std::size_t step_number = 0;
      result =
          bisect::search(path.size(), commits, request.rules, [&](const bisect::SearchStep& step) {
            progress << fmt::format("[step {}] {}\n", ++step_number, bisect::step_line(step, facts))
                     << std::flush;
          });
    } catch (const bisect::SearchInterrupted&) {
      const int signal = interruption_signal();
      progress << fmt::format(
          "perfgate bisect: {}; the runs so far are in {}. Run the same command with --resume "
          "to continue from them\n",
          describe_interruption(signal), (out / "samples.jsonl").string());
      return interrupted_exit_code(signal);
    }
    facts.failures = commits.failures();
    facts.replayed = log.replayed();
    facts.from_archive = commits.from_archive();
    facts.built = commits.built();
    facts.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    facts.merged = merges_found(*setup.repository, path, result);
    // The answer is written and shown before anything is published: a publication that
    // fails (the archive moved, a rewritten branch) never loses it.
    const std::string markdown = bisect::markdown_report(result, facts);
    const Json json = bisect::json_report(result, facts);
    write_output_file((out / "report.md").string(), "--out", markdown, true);
    write_output_file((out / "report.json").string(), "--out", pretty_json(json), true);
    if (options.json) {
      std::cout << json.dump(2) << "\n";
    } else {
      std::cout << markdown;
    }
    std::cout.flush();
    if (options.publish) {
      const int status = publish_attempts(setup, commits, out, settings.run, progress);
      if (status != 0) return status;
    }
  }  // every copy removed here
  return bisect::exit_status(result);
}

}  // namespace perfgate
