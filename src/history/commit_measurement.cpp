#include "history/commit_measurement.hpp"

#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>

#include <fmt/format.h>

#include "config/benchmark_config.hpp"
#include "config/suite_loader.hpp"
#include "history/git_repository.hpp"
#include "measure/benchmark_runner.hpp"
#include "measure/ci_environment.hpp"
#include "measure/command_capture.hpp"
#include "measure/executor.hpp"
#include "measure/host_provenance.hpp"
#include "measure/interruption.hpp"
#include "measure/machine_state.hpp"
#include "measure/results_folder.hpp"
#include "measure/run_rounds.hpp"
#include "measure/scratch_folder.hpp"
#include "model/error.hpp"
#include "model/metric.hpp"
#include "model/time_window.hpp"

namespace perfgate::history {
namespace {

namespace fs = std::filesystem;

/// Bytes of a failed command's output quoted in its error: enough for a compiler's message.
constexpr std::size_t kErrorTailBytes = 2048;

/// Files a build leaves that say how it was configured, kept with the raw output.
const std::set<std::string> kBuildProvenanceFiles = {"compile_commands.json", "CMakeCache.txt"};

std::string tail_of_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = std::max<std::streamoff>(0, size - kErrorTailBytes);
  in.seekg(start);
  std::string text(static_cast<std::size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (start > 0) {
    const auto newline = text.find('\n');
    if (newline != std::string::npos) text.erase(0, newline + 1);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

/// `cc --version`'s first line, or null when there is no such compiler.
Json compiler_version(const std::string& compiler) {
  const auto line = version_line({compiler}, 10);
  if (!line || line->empty()) return nullptr;
  return *line;
}

Json environment_of(const MeasureSettings& settings, const Provenance& provenance) {
  const Json& hardware = provenance.hardware_profile;
  const Json& software = provenance.software_profile;
  Json environment = {{"id", settings.environment_id.empty() ? provenance.hardware_profile_id
                                                             : settings.environment_id},
                      {"cpu", hardware.value("cpu_model", "unknown")},
                      {"architecture", hardware.value("architecture", "unknown")},
                      {"logical_cores", hardware.value("logical_cores", 0)},
                      {"os", software.value("os", "unknown")},
                      {"kernel", software.value("kernel", "unknown")},
                      {"cc", compiler_version("cc")},
                      {"cxx", compiler_version("c++")},
                      {"hardware_profile_id", provenance.hardware_profile_id},
                      {"software_profile_id", provenance.software_profile_id},
                      {"image", settings.image.empty() ? Json(nullptr) : Json(settings.image)}};
  // Threads the harness grants a benchmark, when the machine's environment fixes them.
  for (const char* name : {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"}) {
    if (const char* value = std::getenv(name)) environment["threads_env"][name] = value;
  }
  return environment;
}

/// Copies what the build says about its own configuration into the raw folder.
void keep_build_provenance(const fs::path& worktree, const fs::path& raw_dir) {
  std::error_code ec;
  fs::recursive_directory_iterator it(worktree, fs::directory_options::skip_permission_denied, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    if (it.depth() >= 3) it.disable_recursion_pending();
    const std::string name = it->path().filename().string();
    if (!kBuildProvenanceFiles.count(name) || !it->is_regular_file(ec)) continue;
    const fs::path relative = fs::relative(it->path(), worktree, ec);
    std::string flat = relative.string();
    std::replace(flat.begin(), flat.end(), '/', '_');
    fs::copy_file(it->path(), raw_dir / ("build-" + flat), fs::copy_options::overwrite_existing,
                  ec);
  }
}

int threads_of(const BenchmarkState& state) {
  for (const auto& [name, value] : state.parameter_values) {
    if (name != "threads" && name != "ranks" && name != "num_threads") continue;
    try {
      const int threads = std::stoi(value);
      if (threads >= 1) return threads;
    } catch (const std::exception&) {
      // Not a number: the parameter names a mode, not a count; one thread is recorded.
    }
  }
  return 1;
}

MeasuredCase measured_case(const RawRecord& record, const BenchmarkState& state,
                           const std::string& config_in_repo, const std::string& source_id) {
  MeasuredCase measured;
  measured.name = record.identity.benchmark_id;
  measured.config = config_in_repo;
  measured.source_id = source_id;
  measured.repetitions = record.num_measurement_runs;
  measured.threads = threads_of(state);
  for (const auto& [name, series] : record.metrics) {
    // A component that some runs did not report has no summary over every repetition. The
    // counts (instructions, ...) come from the counted runs, as many as num_count_runs.
    const bool counted = count_metric(name).has_value();
    if (counted ? series.samples.empty()
                : static_cast<int>(series.samples.size()) != record.num_measurement_runs)
      continue;
    measured.metrics[name] = {series.metric.unit, series.summary.median,
                              series.summary.mad, series.summary.min,
                              series.summary.max, static_cast<int>(series.samples.size())};
  }
  return measured;
}

class AttemptBuilder {
 public:
  AttemptBuilder(const std::string& sha, const MeasureSettings& settings) {
    attempt_.identity = {sha, settings.run, settings.attempt};
    attempt_.harness_sha = settings.harness_sha;
    attempt_.harness_version = settings.config.harness_version;
    attempt_.label = settings.stable ? "stable" : "diagnostic";
    attempt_.configuration = configuration_of(settings.config);
    attempt_.raw_path = "raw/" + attempt_.identity.text() + "/";
    attempt_.started_at = utc_now_with_microseconds();
  }
  HistoryAttempt& attempt() { return attempt_; }
  const HistoryAttempt& attempt() const { return attempt_; }
  void fail(const std::string& stage, const std::string& message) {
    attempt_.errors.push_back({stage, message});
  }
  HistoryAttempt finish() {
    attempt_.finished_at = utc_now_with_microseconds();
    attempt_.success =
        attempt_.errors.empty() && attempt_.missing_cases.empty() && !attempt_.cases.empty();
    if (!attempt_.success && attempt_.errors.empty()) {
      fail("suite", "the suite measured no case");
    }
    return std::move(attempt_);
  }

 private:
  HistoryAttempt attempt_;
};

/// Runs the build commands; false (with the error recorded) when one fails.
bool build(const fs::path& worktree, const fs::path& raw_dir, const MeasureSettings& settings,
           Executor& executor, AttemptBuilder& builder) {
  const std::vector<std::string>& commands = settings.config.build;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", commands[i]};
    spec.cwd = worktree;
    spec.timeout_s = settings.config.timeout_s;
    spec.log_path = raw_dir / fmt::format("build-{}.log", i + 1);
    spec.log_header = "$ " + commands[i] + "\n";
    const ProcessResult result = executor.run(spec);
    if (interruption_signal() != 0) return false;
    if (!result.succeeded()) {
      std::string message = fmt::format("build command {} of {} ({}) failed: {}", i + 1,
                                        commands.size(), commands[i], result.reason_under_shell());
      const std::string tail = tail_of_file(*spec.log_path);
      if (!tail.empty()) message += "\n" + tail;
      builder.fail("build", message);
      return false;
    }
  }
  return true;
}

RunEnvironment run_environment(const Suite& suite, const std::string& sha,
                               const std::string& branch, double timeout_s) {
  const std::time_t now = std::time(nullptr);
  const HostProvenance host =
      describe_host(real_host(), current_environment(), suite.project.software_profile, "", now);
  RunEnvironment environment;
  environment.provenance = host.provenance;
  environment.host = &real_host();
  std::cerr << busy_machine_notice(real_host());
  environment.provenance.ci["commit"] = sha;
  environment.provenance.ci["branch"] = branch;
  environment.provenance.ci["dirty"] = false;
  environment.file_stamp = file_stamp_utc(now);
  environment.gpu_count = host.hardware.gpus.size();
  environment.counters = std::make_shared<CounterChoices>(machine_counter_sources);
  // [history] timeout_s bounds every run and hook of the suite, as it bounds each build
  // command (docs/history.md); a config's own shorter limit still applies.
  environment.timeout_cap_s = timeout_s;
  if (suite.project.log_limit_mb) {
    environment.log_limit_bytes = static_cast<std::size_t>(*suite.project.log_limit_mb * 1048576);
  }
  return environment;
}

/// The commit whose suite and sources a copy of `sha` measures: `sha` itself, or with
/// [history] suite_from = "harness" the checkout's that drives the pipeline.
const std::string& suite_source(const std::string& sha, const MeasureSettings& settings) {
  return settings.config.suite_from == "harness" && !settings.harness_sha.empty()
             ? settings.harness_sha
             : sha;
}

/// Replaces the copy's suite, sources and perfgate.toml (the suite's project: its [run]
/// defaults, policies and profile settings) by the harness commit's: each path removed
/// from the copy, then copied from a copy of the harness (exported next to it). A path the
/// harness does not have is left out of the copy.
void lay_in_harness_suite(const GitRepository& repository, const MeasureSettings& settings,
                          const fs::path& harness_copy, const fs::path& worktree) {
  repository.export_commit(settings.harness_sha, harness_copy);
  std::vector<std::string> paths = settings.config.sources;
  paths.push_back(settings.config.suite);
  paths.push_back("perfgate.toml");
  for (const std::string& path : paths) {
    const fs::path relative = fs::path(path).lexically_normal();
    std::error_code ec;
    fs::remove_all(worktree / relative, ec);
    if (!fs::exists(harness_copy / relative, ec)) continue;
    fs::create_directories((worktree / relative).parent_path());
    fs::copy(harness_copy / relative, worktree / relative,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks |
                 fs::copy_options::overwrite_existing);
  }
  std::error_code ignored;  // the scratch folder goes anyway when the commit is done
  fs::remove_all(harness_copy, ignored);
}

/// A case of a commit's suite: the state and where its config is in the commit.
struct SuiteCase {
  BenchmarkState state;
  std::string config_in_repo;
  std::string source_id;
};

/// A commit's suite, loaded from its copy, ready to measure.
struct OpenSuite {
  Suite suite;  ///< owns the configs the cases' states point to
  RunEnvironment environment;
  fs::path results;
  std::vector<SuiteCase> cases;
};

/// The suite of the commit's copy, loaded as its project (the copy, never the checkout
/// perfgate was started in, even when the commit has no perfgate.toml).
Suite load_copy_suite(const fs::path& worktree, const MeasureSettings& settings) {
  ProjectLocation copy{worktree, std::nullopt};
  if (fs::is_regular_file(worktree / "perfgate.toml")) copy.config = worktree / "perfgate.toml";
  return load_suite({worktree / settings.config.suite}, copy);
}

/// Every case the commit's suite lists, for an attempt whose build failed: all are missing
/// (seed 003). None when the suite itself cannot be read.
std::vector<std::string> case_names(const fs::path& worktree, const MeasureSettings& settings) {
  std::vector<std::string> names;
  try {
    const Suite suite = load_copy_suite(worktree, settings);
    for (const BenchmarkConfig& config : suite.configs) {
      for (const BenchmarkState& state : expand_states(config)) names.push_back(state.name);
    }
  } catch (const Error&) {
    // The build failed first; the suite's own error is not what went wrong.
  }
  return names;
}

/// Loads the commit's suite and describes the machine for it; nullopt (with the error
/// recorded) when the suite is invalid.
std::optional<OpenSuite> open_suite(const GitRepository& repository, const std::string& sha,
                                    const fs::path& worktree, const fs::path& raw_dir,
                                    const MeasureSettings& settings, AttemptBuilder& builder) {
  auto open = std::make_optional<OpenSuite>();
  try {
    open->suite = load_copy_suite(worktree, settings);
  } catch (const Error& error) {
    // Paths inside the temporary copy mean nothing later: show them relative to the commit.
    std::string message = error.what();
    for (std::size_t at; (at = message.find(worktree.string() + "/")) != std::string::npos;) {
      message.erase(at, worktree.string().size() + 1);
    }
    builder.fail("suite", message);
    return std::nullopt;
  }
  open->environment =
      run_environment(open->suite, sha, settings.config.branch, settings.config.timeout_s);
  builder.attempt().environment = environment_of(settings, open->environment.provenance);
  open->results = raw_dir / "results";
  prepare_results_folder(open->results);
  const RunEnvironment& environment = open->environment;
  for (const BenchmarkConfig& config : open->suite.configs) {
    if (device_skip_reason(config, environment.provenance.device, environment.gpu_count)) {
      continue;  // not a case of this environment
    }
    const std::string config_in_repo =
        fs::relative(config.source, worktree).lexically_normal().string();
    const std::string source_id =
        repository.object_id_at(suite_source(sha, settings), config_in_repo).value_or("");
    for (BenchmarkState& state : expand_states(config))
      open->cases.push_back({std::move(state), config_in_repo, source_id});
  }
  return open;
}

/// Keeps a measured case's record and its outcome in the attempt.
void record_case(const OpenSuite& open, const SuiteCase& item, const RawRecord& record,
                 AttemptBuilder& builder) {
  write_raw_record(open.results, record, open.environment.file_stamp);
  if (!record.success) {
    builder.attempt().missing_cases.push_back(item.state.name);
    builder.fail("case", item.state.name + ": " + record.failure_reason);
    return;
  }
  builder.attempt().cases.push_back(
      measured_case(record, item.state, item.config_in_repo, item.source_id));
}

/// A commit copied, built and its suite loaded: ready to measure, alone or in alternation
/// with others. `open` is empty when one of those steps failed (the builder has the error).
struct PreparedCommit {
  explicit PreparedCommit(AttemptBuilder attempt) : builder(std::move(attempt)) {}
  AttemptBuilder builder;
  std::unique_ptr<ScratchFolder> scratch;  ///< the copy, kept until the commit is measured
  bool checked_out = false;
  std::optional<OpenSuite> open;
};

/// Copies and builds `sha` into `commit` (a new builder's); false when interrupted.
bool prepare_commit(const GitRepository& repository, const std::string& sha,
                    const MeasureSettings& settings, Executor& executor, const fs::path& batch_dir,
                    PreparedCommit& commit) {
  HistoryAttempt& attempt = commit.builder.attempt();
  const fs::path raw_dir = batch_dir / attempt.raw_path;
  fs::create_directories(raw_dir);
  const std::string& suite_commit = suite_source(sha, settings);
  for (const std::string& path : settings.config.sources) {
    attempt.benchmark_sources[path] = repository.object_id_at(suite_commit, path).value_or("");
  }
  commit.scratch = std::make_unique<ScratchFolder>("perfgate-history-");
  const fs::path worktree = commit.scratch->path() / "src";
  try {
    repository.export_commit(sha, worktree);
    if (suite_commit != sha) {
      lay_in_harness_suite(repository, settings, commit.scratch->path() / "harness", worktree);
    }
  } catch (const Error& error) {
    commit.builder.fail("checkout", error.what());
    return true;
  }
  commit.checked_out = true;
  const bool built = build(worktree, raw_dir, settings, executor, commit.builder);
  if (interruption_signal() != 0) return false;
  keep_build_provenance(worktree, raw_dir);
  if (built) {
    commit.open = open_suite(repository, sha, worktree, raw_dir, settings, commit.builder);
  } else {
    attempt.missing_cases = case_names(worktree, settings);
  }
  return true;
}

/// The attempt of a prepared commit, its cases recorded.
HistoryAttempt finish_attempt(PreparedCommit& commit, const MeasureSettings& settings) {
  HistoryAttempt& attempt = commit.builder.attempt();
  if (commit.checked_out && attempt.environment.empty()) {
    // The suite never started: describe the machine all the same.
    const std::time_t now = std::time(nullptr);
    const HostProvenance host = describe_host(real_host(), current_environment(), {}, "", now);
    attempt.environment = environment_of(settings, host.provenance);
  }
  return commit.builder.finish();
}

/// A prepared commit whose cases run a round at a time (CommitUnderTest).
class PreparedCommitUnderTest final : public CommitUnderTest {
 public:
  explicit PreparedCommitUnderTest(AttemptBuilder builder) : commit(std::move(builder)) {}

  void start(Executor& executor) {
    if (commit.open) {
      runner_ = std::make_unique<BenchmarkRunner>(executor, commit.open->results,
                                                  commit.open->environment);
    }
  }

  bool ready() const override { return commit.open.has_value(); }

  std::string failure() const override {
    const auto& errors = commit.builder.attempt().errors;
    if (ready() || errors.empty()) return "";
    const std::string& message = errors.front().message;
    return errors.front().stage + ": " + message.substr(0, message.find('\n'));
  }

  std::optional<RawRecord> run_round(const std::string& name, RoundKind kind) override {
    if (!ready()) return std::nullopt;
    for (const SuiteCase& item : commit.open->cases) {
      if (item.state.name != name) continue;
      const bool first = rounds_run_[name]++ == 0;
      BenchmarkConfig config;
      const BenchmarkState round = round_of(item.state, first, config);
      if (kind == RoundKind::kCounted) {
        // One counted run alone: counts need no warm caches, and no time is judged.
        config.run.measure_time = false;
        config.run.measure_counts = true;
        config.run.num_count_runs = 1;
        config.run.num_warmup_runs = 0;
      } else {
        config.run.measure_counts = false;
      }
      RawRecord record = runner_->run(round);
      // Only the first rounds, as many as a measurement of the case takes, stand for its runs
      // in attempt(): a bisection's step may take a thousand.
      std::vector<RawRecord>& kept = timed_rounds_[name];
      if (kind == RoundKind::kTimed &&
          kept.size() < static_cast<std::size_t>(item.state.config->run.num_measurement_runs)) {
        kept.push_back(record);
      }
      return record;
    }
    return std::nullopt;
  }

  std::optional<HistoryAttempt> attempt() override {
    if (commit.open) {
      for (const SuiteCase& item : commit.open->cases) {
        const auto rounds = timed_rounds_.find(item.state.name);
        const auto wanted = static_cast<std::size_t>(item.state.config->run.num_measurement_runs);
        RawRecord record;
        if (rounds != timed_rounds_.end() && rounds->second.size() >= wanted &&
            !item.state.config->run.measure_counts) {
          // The rounds' runs were measured in alternation with the other commits': the first
          // of them, as many as a measurement of the case takes, are its runs.
          const std::vector<RawRecord> first(
              rounds->second.begin(), rounds->second.begin() + static_cast<std::ptrdiff_t>(wanted));
          record = merge_rounds(first, item.state);
        } else {
          record = runner_->run(item.state);
          if (interruption_signal() != 0) return std::nullopt;
        }
        record_case(*commit.open, item, record, commit.builder);
      }
    }
    // The settings only matter to describe the machine of a commit whose suite never ran.
    return finish_attempt(commit, settings_);
  }

  PreparedCommit commit;
  MeasureSettings settings_;

 private:
  std::unique_ptr<BenchmarkRunner> runner_;
  std::map<std::string, int> rounds_run_;  ///< per case: rounds run so far
  /// Per case, its first timed rounds, as many as its config measures.
  std::map<std::string, std::vector<RawRecord>> timed_rounds_;
};

}  // namespace

Json configuration_of(const HistoryConfig& config) {
  Json configuration = {{"build", config.build},
                        {"suite", config.suite},
                        {"sources", config.sources},
                        {"timeout_s", config.timeout_s}};
  for (const char* name : {"CFLAGS", "CXXFLAGS", "LDFLAGS", "CMAKE_BUILD_TYPE"}) {
    if (const char* value = std::getenv(name)) configuration["flags"][name] = value;
  }
  // Only when it is not seed 003's rule, so that setups and series of "commit" stay as
  // they were before the key existed.
  if (config.suite_from == "harness") configuration["suite_from"] = "harness";
  return configuration;
}

std::string utc_now_with_microseconds() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  std::tm utc{};
  ::gmtime_r(&now.tv_sec, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", utc.tm_year + 1900,
                     utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                     now.tv_nsec / 1000);
}

std::optional<std::vector<HistoryAttempt>> measure_commits_alternating(
    const GitRepository& repository, const std::vector<std::string>& shas,
    const MeasureSettings& settings, Executor& executor, const fs::path& batch_dir) {
  // Each commit copied and built first, every one before any is measured.
  std::vector<PreparedCommit> commits;
  commits.reserve(shas.size());
  for (const std::string& sha : shas) {
    PreparedCommit& commit = commits.emplace_back(AttemptBuilder(sha, settings));
    if (!prepare_commit(repository, sha, settings, executor, batch_dir, commit))
      return std::nullopt;
  }

  // The cases by name, in the order the commits list them, with each commit that has it.
  std::vector<std::string> names;
  std::map<std::string, std::vector<std::pair<PreparedCommit*, const SuiteCase*>>> having;
  for (PreparedCommit& commit : commits) {
    if (!commit.open) continue;
    for (const SuiteCase& item : commit.open->cases) {
      auto& list = having[item.state.name];
      if (list.empty()) names.push_back(item.state.name);
      list.emplace_back(&commit, &item);
    }
  }
  std::map<PreparedCommit*, std::unique_ptr<BenchmarkRunner>> runners;
  for (PreparedCommit& commit : commits) {
    if (commit.open)
      runners[&commit] = std::make_unique<BenchmarkRunner>(executor, commit.open->results,
                                                           commit.open->environment);
  }
  // Run by run, round-robin over the commits that have the case: each of its runs is next to
  // a run of every other commit in time, so they all meet the same moments of the machine.
  for (const std::string& name : names) {
    const auto& participants = having[name];
    std::vector<std::vector<RawRecord>> rounds(participants.size());
    int most = 0;
    // A case that measures counts alone has one round: its counted runs (round_of).
    const auto rounds_of = [](const SuiteCase& item) {
      const RunSettings& run = item.state.config->run;
      return run.measure_time ? run.num_measurement_runs : 1;
    };
    for (const auto& [commit, item] : participants) most = std::max(most, rounds_of(*item));
    std::vector<std::size_t> turns(participants.size());
    for (int round = 0; round < most; ++round) {
      // Each round in an order of its own, shuffled with the round's number as the seed (the
      // same order every time): under a load with a rhythm of its own, a commit that always
      // ran at the same place in the round would meet the same phase of it in every round,
      // and be measured slower or faster throughout.
      std::iota(turns.begin(), turns.end(), std::size_t{0});
      std::shuffle(turns.begin(), turns.end(), std::mt19937(static_cast<unsigned>(round) + 1));
      for (const std::size_t i : turns) {
        const SuiteCase& item = *participants[i].second;
        if (round >= rounds_of(item)) continue;
        // A failed run ends the case for that commit, as it ends a state's runs.
        if (!rounds[i].empty() && !rounds[i].back().success) continue;
        BenchmarkConfig config;
        const BenchmarkState one = round_of(item.state, round == 0, config);
        rounds[i].push_back(runners[participants[i].first]->run(one));
        if (interruption_signal() != 0) return std::nullopt;
      }
    }
    for (std::size_t i = 0; i < participants.size(); ++i) {
      auto [commit, item] = participants[i];
      record_case(*commit->open, *item, merge_rounds(rounds[i], item->state), commit->builder);
    }
  }

  std::vector<HistoryAttempt> attempts;
  for (PreparedCommit& commit : commits) attempts.push_back(finish_attempt(commit, settings));
  return attempts;
}

std::unique_ptr<CommitUnderTest> CommitUnderTest::prepare(const GitRepository& repository,
                                                          const std::string& sha,
                                                          const MeasureSettings& settings,
                                                          Executor& executor,
                                                          const fs::path& batch_dir) {
  auto commit = std::make_unique<PreparedCommitUnderTest>(AttemptBuilder(sha, settings));
  commit->settings_ = settings;
  if (!prepare_commit(repository, sha, settings, executor, batch_dir, commit->commit))
    return nullptr;
  commit->start(executor);
  return commit;
}

std::optional<HistoryAttempt> measure_commit(const GitRepository& repository,
                                             const std::string& sha,
                                             const MeasureSettings& settings, Executor& executor,
                                             const fs::path& batch_dir) {
  PreparedCommit commit(AttemptBuilder(sha, settings));
  if (!prepare_commit(repository, sha, settings, executor, batch_dir, commit)) return std::nullopt;
  if (commit.open) {
    BenchmarkRunner runner(executor, commit.open->results, commit.open->environment);
    for (const SuiteCase& item : commit.open->cases) {
      const RawRecord record = runner.run(item.state);
      if (interruption_signal() != 0) return std::nullopt;
      record_case(*commit.open, item, record, commit.builder);
    }
  }
  return finish_attempt(commit, settings);
}

}  // namespace perfgate::history
