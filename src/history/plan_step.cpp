// history plan: the monitored interval, the ledger merged with it, and the commits to
// measure now.
#include <algorithm>
#include <cstdlib>
#include <unordered_set>

#include "history/commit_measurement.hpp"
#include "history/git_archive.hpp"
#include "history/history_document.hpp"
#include "history/history_steps.hpp"
#include "history/ledger.hpp"
#include "history/series_identity.hpp"
#include "measure/host_profile.hpp"
#include "model/error.hpp"
#include "model/json_reader.hpp"

namespace perfgate::history {
namespace {

std::string resolve_commit(const GitRepository& repository, const std::string& revision,
                           const std::string& flag) {
  const auto sha = repository.resolve(revision);
  if (!sha) {
    throw Error(ExitCode::kNoInput, flag + ": '" + revision + "' names no commit of " +
                                        repository.root().string() +
                                        ". Check the name, or fetch the branch first");
  }
  return *sha;
}

/// The first-parent commits from the activation commit through the target, oldest first,
/// cut from `chain` (the target's first-parent chain, newest first, at least down to the
/// activation commit when it is on it). After a fast-forward merge that put the old branch
/// on a second parent, the chain may pass beside the activation commit: then the interval
/// is the commits of the chain that contain it.
std::vector<std::string> monitored_interval(const GitRepository& repository,
                                            const std::string& activation,
                                            std::vector<std::string> chain) {
  const auto found = std::find(chain.begin(), chain.end(), activation);
  if (found != chain.end()) {
    chain.erase(found + 1, chain.end());
  } else {
    if (!repository.is_ancestor(activation, chain.front())) {
      throw Error(ExitCode::kDataError,
                  "the target " + chain.front() + " does not contain the activation commit " +
                      activation +
                      ": the branch was rewritten, or the target is not on it. A person must "
                      "review it; perfgate never moves the monitoring baseline");
    }
    const auto outside = std::find_if(chain.begin(), chain.end(), [&](const std::string& sha) {
      return !repository.is_ancestor(activation, sha);
    });
    chain.erase(outside, chain.end());
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// Who changes the ledger by hand (a rewrite accepted, an extension): $GITHUB_ACTOR, else
/// $USER, else "unknown".
std::string who() {
  for (const char* name : {"GITHUB_ACTOR", "USER"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return value;
  }
  return "unknown";
}

}  // namespace

PlanFile plan_history(const HistorySetup& setup, const PlanOptions& options) {
  const GitRepository& repository = *setup.repository;
  if (!setup.config.remote.empty()) {
    // The branch as the remote has it: the ledger may name commits other runners measured
    // that this checkout has not fetched, and their ancestry is checked.
    fetch_remote_branch(repository, setup.config.remote, setup.config.branch,
                        setup.repository->root().string());
  }
  const std::string target =
      resolve_commit(repository, options.target.value_or(setup.config.branch),
                     options.target ? "--target" : "branch");
  const auto snapshot = setup.archive->snapshot();
  const std::optional<std::string> recorded = recorded_activation(*snapshot, setup.archive->url());
  std::optional<Ledger> previous;
  if (const auto text = snapshot->read("plan.json")) {
    previous = read_ledger(*text, setup.archive->url() + "/plan.json");
    // A ledger an older perfgate wrote: each attempt's machine and setup from its file.
    complete_ledger(*previous, *snapshot, setup.archive->url());
  }
  // The machine and setup this plan is for: a commit is missing here when it has no
  // winning attempt on this environment in the setup perfgate.toml gives now.
  const std::string environment = options.environment.empty()
                                      ? collect_hardware_profile(real_host()).id()
                                      : options.environment;
  if (!valid_run_id(environment)) {
    throw Error(ExitCode::kUsage, "--environment: '" + environment +
                                      "' is not a machine id. Use letters, digits, '.', '_' "
                                      "and '-'");
  }
  const std::string setup_key =
      setup_id(configuration_of(setup.config), setup.config.harness_version);

  std::string activation;
  std::vector<std::string> chain;  // the target's first-parent chain, newest first
  if (options.activation) {
    activation = resolve_commit(repository, *options.activation, "--activation");
    if (recorded && *recorded != activation) {
      throw Error(ExitCode::kDataError,
                  "--activation: the archive " + setup.archive->url() +
                      " records activation commit " + *recorded +
                      "; it is never moved silently. Leave --activation out, or start a new "
                      "archive");
    }
  } else if (recorded) {
    activation = *recorded;
  } else {
    chain = repository.first_parent_chain(target);
    const auto found = find_activation_commit(repository, chain);
    if (!found) {
      throw Error(ExitCode::kDataError,
                  "no first-parent commit of " + target.substr(0, 12) +
                      " adds perfgate.toml with a [history] table, so there is no activation "
                      "commit. Commit the table first, or pass --activation SHA");
    }
    activation = *found;
  }
  if (chain.empty()) chain = repository.first_parent_chain(target, activation);

  std::vector<AcceptedRewrite> rewrites;
  if (options.accept_rewrite && previous && previous->current != target &&
      !repository.is_ancestor(previous->current, target) &&
      !repository.is_ancestor(target, previous->current)) {
    // A person reviewed the rewrite: record it, keep everything, monitor the new path.
    rewrites.push_back({previous->current, target, utc_now_with_microseconds(), who()});
  }

  // --backfill N: the N first-parent commits before the oldest monitored one, newest first.
  std::vector<std::string> backfilled;
  std::vector<HistoryExtension> extensions;
  if (options.backfill > 0) {
    if (!previous || previous->monitored.empty()) {
      throw Error(ExitCode::kUsage,
                  "--backfill extends the history of an archive that has one; " +
                      setup.archive->url() +
                      " has none yet. A first plan reaches back as far as you like with "
                      "--activation SHA");
    }
    const std::string& oldest = previous->monitored.front();
    std::vector<std::string> older = repository.first_parent_chain(oldest);
    older.erase(older.begin());  // the oldest monitored commit itself
    if (older.size() > static_cast<std::size_t>(options.backfill)) {
      older.resize(static_cast<std::size_t>(options.backfill));
    }
    if (!older.empty()) {
      extensions.push_back({oldest, older.back(), static_cast<int>(older.size()),
                            utc_now_with_microseconds(), who()});
    }
    backfilled = std::move(older);
  }

  Ledger observed;
  observed.rewrites = rewrites;
  observed.extensions = extensions;
  observed.branch = setup.config.branch;
  observed.baseline = activation;
  observed.current = target;
  observed.monitored.assign(backfilled.rbegin(), backfilled.rend());  // oldest first
  for (std::string& sha : monitored_interval(repository, activation, std::move(chain))) {
    observed.monitored.push_back(std::move(sha));
  }
  // The interval's commits are ancestors of the target: no graph walk is needed for them.
  // Only a merge with an earlier ledger asks, so only then is the set built.
  std::unordered_set<std::string> interval;
  if (previous) interval.insert(observed.monitored.begin(), observed.monitored.end());
  Ledger ledger = merge_ledger(previous, std::move(observed), [&](const auto& a, const auto& d) {
    if (d == target && interval.count(a)) return true;
    return repository.is_ancestor(a, d);
  });

  // A long history's list of SHAs is moved from step to step, never copied.
  PlanRequest request;
  request.monitored = std::move(ledger.monitored);
  request.target = target;
  request.states = commit_states(ledger, environment, setup_key);
  request.retry = options.retry;
  request.bridge = options.bridge;
  request.backfill = backfilled;
  if (options.commit) request.commit = resolve_commit(repository, *options.commit, "--commit");
  request.max = options.max.value_or(setup.config.max_per_run);
  if (options.confirm_flags && setup.archive->exists()) {
    // The flags as the export finds them, from the archive's winning attempts. Which flags
    // wait for a re-measurement does not depend on how re-measured ones are confirmed, so
    // no raw record is read for that.
    ExportInput input = gather_export_input(setup, "");
    input.run_samples = nullptr;
    std::string ignored;
    // Only flags of this machine's series in this setup: another machine re-measures its own.
    for (FlagToConfirm& flag : write_history(input, ignored).flags_to_confirm) {
      if (flag.environment != environment || flag.setup != setup_key) continue;
      request.confirm.emplace_back(std::move(flag.previous), std::move(flag.flagged));
    }
  }

  PlanFile file;
  file.branch = setup.config.branch;
  file.archive = setup.archive->url();
  file.baseline = activation;
  file.target = target;
  file.current = ledger.current;
  file.harness_sha = repository.resolve("HEAD").value_or("");
  file.harness_version = setup.config.harness_version;
  file.environment = environment;
  file.setup = setup_key;
  file.rewrites = std::move(rewrites);
  file.extensions = std::move(extensions);
  file.created_at = utc_now_with_microseconds();
  file.retry = options.retry;
  file.plan = plan_commits(request);
  file.monitored = std::move(request.monitored);
  return file;
}

}  // namespace perfgate::history
