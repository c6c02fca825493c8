// history measure: one attempt per selected commit, written as soon as it is done.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "history/batch_folder.hpp"
#include "history/commit_measurement.hpp"
#include "history/history_steps.hpp"
#include "history/series_identity.hpp"
#include "measure/exclusive_file.hpp"
#include "measure/host_profile.hpp"
#include "measure/interruption.hpp"
#include "measure/process_executor.hpp"
#include "model/error.hpp"

namespace perfgate::history {
namespace {

std::vector<std::string> short_shas(const std::vector<std::string>& shas) {
  std::vector<std::string> out;
  for (const std::string& sha : shas) out.push_back(sha.substr(0, 12));
  return out;
}

namespace fs = std::filesystem;

std::string read_plan_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kNoInput, "--plan: " + file.string() +
                                        ": cannot read. Write it with 'perfgate history plan -o'");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The run id and attempt number a CI names, else a local one from the clock.
std::pair<std::string, int> run_identity(const MeasureOptions& options) {
  std::string run = options.run;
  int attempt = options.attempt;
  if (run.empty()) {
    const char* ci_run = std::getenv("GITHUB_RUN_ID");
    const char* ci_attempt = std::getenv("GITHUB_RUN_ATTEMPT");
    if (ci_run != nullptr && valid_run_id(ci_run)) {
      run = std::string("gh-") + ci_run;
      // A re-run of the same CI run is a new attempt at the same commits.
      if (attempt == 0 && ci_attempt != nullptr) attempt = std::atoi(ci_attempt);
    } else {
      // Microseconds, so that two local batches never share an identity.
      std::string stamp = utc_now_with_microseconds();
      std::erase_if(stamp, [](char c) { return c == '-' || c == ':'; });
      run = "local-" + stamp;
    }
  }
  if (attempt < 1) attempt = 1;
  if (!valid_run_id(run)) {
    throw Error(ExitCode::kUsage, "--run: '" + run +
                                      "' is not a run id. Use letters, digits, "
                                      "'.', '_' and '-'");
  }
  return {run, attempt};
}

/// The batch folder, created empty. Refused before anything is created when it holds files.
void create_batch_folder(const fs::path& folder) {
  std::error_code ec;
  if (fs::exists(folder, ec) && !(fs::is_directory(folder, ec) && fs::is_empty(folder, ec))) {
    throw Error(ExitCode::kUsage, "-o: " + folder.string() +
                                      ": already exists and is not empty. Choose a new folder "
                                      "for the batch");
  }
  fs::path parent = fs::absolute(folder).lexically_normal();
  if (parent.filename().empty()) parent = parent.parent_path();
  if (!fs::is_directory(parent.parent_path(), ec)) {
    throw Error(ExitCode::kNoInput, "-o: " + parent.parent_path().string() +
                                        ": no such folder. Create it first, or choose another");
  }
  fs::create_directories(folder / "attempts");
}

void write_status(const fs::path& folder, const BatchStatus& status) {
  const fs::path file = folder / "batch.json";
  const fs::path temporary = folder / ".batch.json.tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << pretty_json(to_json(status));
    if (!out.flush()) {
      throw Error(ExitCode::kIoError, file.string() + ": cannot write. Check free disk space");
    }
  }
  fs::rename(temporary, file);
}

}  // namespace

int measure_plan(const HistorySetup& setup, const MeasureOptions& options, std::ostream& progress) {
  const std::string plan_text = read_plan_text(options.plan_file);
  const PlanFile plan = read_plan_file(plan_text, options.plan_file.string());
  if (plan.branch != setup.config.branch) {
    throw Error(ExitCode::kDataError, options.plan_file.string() + ": plans branch '" +
                                          plan.branch + "', but perfgate.toml monitors '" +
                                          setup.config.branch + "'. Plan again from this checkout");
  }
  const auto [run, attempt_number] = run_identity(options);
  if (!options.environment_id.empty() && !valid_run_id(options.environment_id)) {
    throw Error(ExitCode::kUsage, "--environment: '" + options.environment_id +
                                      "' is not a machine id. Use letters, digits, '.', '_' and "
                                      "'-'");
  }
  create_batch_folder(options.batch_dir);
  if (!create_file_exclusively(options.batch_dir / "plan.json", plan_text)) {
    throw Error(ExitCode::kUsage, "-o: " + options.batch_dir.string() + " was written meanwhile");
  }

  // The machine: --environment, else the one the plan was made for, else this machine's
  // hardware profile id. Named once, so batch.json and every attempt agree.
  std::string environment = options.environment_id;
  if (environment.empty()) environment = plan.environment;
  if (environment.empty()) environment = collect_hardware_profile(real_host()).id();
  if (!plan.environment.empty() && environment != plan.environment) {
    progress << "perfgate history: note: the plan was made for environment " << plan.environment
             << "; these attempts are measured as " << environment
             << ", whose own plan may select other commits\n";
  }
  const std::string setup_key =
      setup_id(configuration_of(setup.config), setup.config.harness_version);
  if (!plan.setup.empty() && setup_key != plan.setup) {
    progress << "perfgate history: note: the plan was made for setup " << plan.setup
             << ", but perfgate.toml's [history] (or CFLAGS, CXXFLAGS, LDFLAGS, "
                "CMAKE_BUILD_TYPE) now gives setup "
             << setup_key << ": these attempts start series of their own\n";
  }

  MeasureSettings settings;
  settings.config = setup.config;
  settings.harness_sha = setup.repository->resolve("HEAD").value_or("");
  settings.run = run;
  settings.attempt = attempt_number;
  settings.environment_id = environment;
  settings.stable = options.stable;
  settings.image = options.image;
  if (setup.repository->has_uncommitted_changes()) {
    progress << "perfgate history: note: the checkout has uncommitted changes; its perfgate.toml "
                "drives this batch, but every measured commit is a clean copy of what was "
                "committed\n";
  }

  BatchStatus status;
  status.run = run;
  status.attempt = attempt_number;
  status.started_at = utc_now_with_microseconds();
  status.environment = environment;
  status.setup = setup_key;
  write_status(options.batch_dir, status);

  const InterruptionScope interruption;
  ProcessExecutor executor;
  const std::size_t total = plan.plan.selected.size();
  std::size_t done = 0;
  const auto identity_of = [&](const std::string& sha) {
    return AttemptIdentity{sha, run, attempt_number}.text();
  };
  // Named in batch.json before they start, so that a batch never holds a raw folder it
  // does not account for, even after a SIGKILL.
  const auto start = [&](const std::vector<std::string>& shas) {
    status.measuring.clear();
    for (const std::string& sha : shas) status.measuring.push_back(identity_of(sha));
    write_status(options.batch_dir, status);
  };
  const auto keep = [&](const HistoryAttempt& attempt) {
    const std::string id = attempt.identity.text();
    std::erase(status.measuring, id);
    create_file_exclusively(options.batch_dir / "attempts" / (id + ".json"),
                            pretty_json(to_json(attempt)));
    status.attempts.push_back(id);
    write_status(options.batch_dir, status);
    progress << fmt::format("[{}/{}] {} {}", ++done, total, attempt.identity.sha.substr(0, 12),
                            attempt.success ? "measured" : "FAILED");
    if (!attempt.success) {
      const std::string& message = attempt.errors.front().message;
      progress << ": " << message.substr(0, message.find('\n'));
    }
    progress << "\n" << std::flush;
  };
  // Commits measured together, in alternation, run by run, after `headline`: false when
  // interrupted (none of them gets an attempt).
  const auto measure_together = [&](const std::vector<std::string>& group,
                                    const std::string& headline) {
    progress << headline << std::flush;
    start(group);
    const auto attempts = measure_commits_alternating(*setup.repository, group, settings, executor,
                                                      options.batch_dir);
    if (!attempts) return false;
    for (const HistoryAttempt& attempt : *attempts) keep(attempt);
    return true;
  };
  // The commits that confirm flags first: a flag and the commit before it meet the same
  // moments of the machine (docs/history.md).
  const std::vector<std::string>& confirming = plan.plan.confirming;
  const bool confirms = confirming.size() >= 2;
  if (confirms) {
    measure_together(confirming,
                     fmt::format("measuring {} commits in alternation, run by run, "
                                 "to confirm flags: {}\n",
                                 confirming.size(), fmt::join(short_shas(confirming), " ")));
  }
  // The others in groups of [history] interleave, each group in alternation too: under a
  // load that comes and goes, commits measured one after the other each meet a moment of
  // their own, and a commit that changes nothing is flagged against its neighbour.
  std::vector<std::string> rest;
  for (const std::string& sha : plan.plan.selected) {
    if (!confirms || std::find(confirming.begin(), confirming.end(), sha) == confirming.end())
      rest.push_back(sha);
  }
  const auto group_size = static_cast<std::size_t>(std::max(1, setup.config.interleave));
  for (std::size_t first = 0; first < rest.size(); first += group_size) {
    if (interruption_signal() != 0) break;
    const std::vector<std::string> group(
        rest.begin() + static_cast<std::ptrdiff_t>(first),
        rest.begin() + static_cast<std::ptrdiff_t>(std::min(first + group_size, rest.size())));
    if (group.size() > 1) {
      const std::string headline =
          fmt::format("[{}-{}/{}] measuring {} commits in alternation, run by run: {}\n", done + 1,
                      done + group.size(), total, group.size(), fmt::join(short_shas(group), " "));
      if (!measure_together(group, headline)) break;
      continue;
    }
    // One commit alone (interleave = 1, or the last of the plan): its runs one after the
    // other, exactly as before alternation existed.
    progress << fmt::format("[{}/{}] measuring {}\n", done + 1, total, group[0].substr(0, 12))
             << std::flush;
    start(group);
    const std::optional<HistoryAttempt> attempt =
        measure_commit(*setup.repository, group[0], settings, executor, options.batch_dir);
    if (!attempt) break;
    keep(*attempt);
  }
  status.finished_at = utc_now_with_microseconds();
  if (const int signal = interruption_signal()) {
    // The commits being measured get no attempt: their partial raw output goes too.
    for (const std::string& id : status.measuring) {
      std::error_code ignored;
      fs::remove_all(options.batch_dir / "raw" / id, ignored);
    }
    status.measuring.clear();
    status.interrupted = describe_interruption(signal);
    write_status(options.batch_dir, status);
    progress << fmt::format(
        "perfgate history measure: {} after {} of {} commits; the batch keeps the {} attempts "
        "finished, and the next plan lists the rest again\n",
        status.interrupted, status.attempts.size(), total, status.attempts.size());
    return interrupted_exit_code(signal);
  }
  status.complete = true;
  write_status(options.batch_dir, status);
  return 0;
}

}  // namespace perfgate::history
