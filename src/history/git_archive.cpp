#include "history/git_archive.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "history/git_repository.hpp"
#include "measure/command_capture.hpp"
#include "model/error.hpp"

namespace perfgate::history {
namespace {

/// How often a publisher redoes its change after losing the race for the ref before it
/// gives up: far more than a handful of concurrent writers ever need.
constexpr int kMaxAttempts = 64;
/// The same against a remote, where each try is a fetch and a push: more than a fleet of
/// runners publishing at once needs.
constexpr int kMaxRemoteRounds = 40;
/// A fetch or a push that hangs (a dead network, a prompt for a password) ends here.
constexpr double kRemoteTimeoutS = 300;

/// The first lines of what git said, for a message.
std::string first_lines(const std::string& text) {
  std::string lines = text.substr(0, 600);
  while (!lines.empty() && (lines.back() == '\n' || lines.back() == ' ')) lines.pop_back();
  return lines.empty() ? "git gave no reason" : lines;
}

class CommitSnapshot : public ArchiveSnapshot {
 public:
  CommitSnapshot(const GitRepository& repository, std::optional<std::string> commit)
      : repository_(repository), commit_(std::move(commit)) {}

  std::optional<std::string> read(const std::string& path) const override {
    if (!commit_) return std::nullopt;
    return repository_.read_file_at(*commit_, path);
  }
  std::vector<std::string> list(const std::string& folder) const override {
    if (!commit_) return {};
    return repository_.list_folder_at(*commit_, folder);
  }

 private:
  const GitRepository& repository_;
  std::optional<std::string> commit_;
};

/// The files a change writes on top of `current`: every file to create (check_against
/// has left out those already there) and each file to replace whose bytes differ; the
/// outcome's counts are set from them.
std::map<std::string, std::string> files_to_write(const ArchiveSnapshot& current,
                                                  const CheckedChange& checked,
                                                  PublishOutcome& outcome) {
  std::map<std::string, std::string> files = checked.change.create;
  int replaced = 0;
  for (const auto& [path, content] : checked.change.replace) {
    if (current.read(path) == content) continue;
    files[path] = content;
    ++replaced;
  }
  outcome.created = static_cast<int>(checked.change.create.size());
  outcome.skipped = checked.skipped;
  outcome.replaced = replaced;
  return files;
}

}  // namespace

bool fetch_remote_branch(const GitRepository& repository, const std::string& remote,
                         const std::string& branch, const std::string& what) {
  // The remote-tracking ref follows the remote as git's own fetch does ('+' there); the
  // archive branch itself only ever moves forward.
  const CommandOutput fetched = capture_command(
      {"env", "GIT_TERMINAL_PROMPT=0", "git", "-C", repository.root().string(), "fetch", "--quiet",
       "--no-tags", remote, "+refs/heads/" + branch + ":refs/remotes/" + remote + "/" + branch},
      {}, kRemoteTimeoutS);
  if (fetched.exit_status == 0) return true;
  if (fetched.err.find("couldn't find remote ref") != std::string::npos) return false;
  throw Error(ExitCode::kIoError,
              what + ": cannot fetch refs/heads/" + branch + " from the remote '" + remote +
                  "': " + (fetched.started ? first_lines(fetched.err) : "git is not installed") +
                  ". Check [history] remote and that this machine can reach it");
}

GitArchive::GitArchive(std::string url, const std::string& branch, GitRepository& repository,
                       std::string remote)
    : url_(std::move(url)),
      ref_("refs/heads/" + branch),
      repository_(repository),
      remote_(std::move(remote)),
      tracking_("refs/remotes/" + remote_ + "/" + branch) {}

bool GitArchive::exists() const {
  sync(false);
  return repository_.ref_target(ref_).has_value();
}

std::unique_ptr<ArchiveSnapshot> GitArchive::snapshot() const {
  sync(false);
  return std::make_unique<CommitSnapshot>(repository_, repository_.ref_target(ref_));
}

void GitArchive::sync(bool always) const {
  if (remote_.empty() || (synced_ && !always)) return;
  if (!fetch_remote_branch(repository_, remote_, ref_.substr(11), url_)) {
    synced_ = true;  // the remote has no archive yet: the first publish creates it
    return;
  }
  synced_ = true;
  const std::optional<std::string> remote_tip = repository_.ref_target(tracking_);
  if (!remote_tip) return;
  for (int round = 0; round < kMaxAttempts; ++round) {
    const std::optional<std::string> local = repository_.ref_target(ref_);
    if (local == remote_tip) return;
    if (local && repository_.is_ancestor(*remote_tip, *local)) return;  // ahead: unpushed
    if (local && !repository_.is_ancestor(*local, *remote_tip)) {
      throw Error(ExitCode::kDataError,
                  url_ + ": the local branch " + ref_ + " and " + tracking_ +
                      " have diverged: this repository published attempts the remote does "
                      "not have, and others published since. perfgate never forces either "
                      "side. Merge them with git (the attempts never conflict; plan.json is "
                      "the union of both ledgers), or move the local branch to the remote's "
                      "(git branch -f " +
                      ref_.substr(11) + " " + tracking_.substr(5) +
                      ") and publish the local batches again");
    }
    if (repository_.compare_and_swap_ref(ref_, *remote_tip, local,
                                         "perfgate history: fast-forward to " + remote_)) {
      return;
    }
  }
}

bool GitArchive::push(const std::string& commit) const {
  const CommandOutput pushed =
      capture_command({"env", "GIT_TERMINAL_PROMPT=0", "git", "-C", repository_.root().string(),
                       "push", "--quiet", "--porcelain", remote_, commit + ":" + ref_},
                      {}, kRemoteTimeoutS);
  if (pushed.exit_status == 0) return true;
  const std::string said = pushed.out + pushed.err;
  for (const char* moved : {"[rejected]", "non-fast-forward", "fetch first", "stale info",
                            "cannot lock ref", "failed to update ref"}) {
    if (said.find(moved) != std::string::npos) return false;
  }
  throw Error(ExitCode::kIoError,
              url_ + ": cannot push to the remote '" + remote_ +
                  "': " + (pushed.started ? first_lines(said) : "git is not installed") +
                  ". Nothing was published there; check the remote and its permissions, then "
                  "publish again");
}

std::optional<GitArchive::ChangeCommit> GitArchive::commit_change(
    const std::optional<std::string>& tip,
    const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare,
    PublishOutcome& outcome) const {
  const CommitSnapshot current(repository_, tip);
  const CheckedChange checked = check_against(current, prepare(current));
  throw_if_conflicts(url_, checked);
  const std::map<std::string, std::string> files = files_to_write(current, checked, outcome);
  if (files.empty()) return std::nullopt;
  return ChangeCommit{repository_.create_commit(tip, files, checked.change.message),
                      checked.change.message};
}

PublishOutcome GitArchive::publish_to_remote(
    const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare) {
  std::minstd_rand jitter(std::random_device{}());
  // Another runner pushed first: wait, at random and longer each time, then fetch its
  // work and build on it.
  const auto back_off = [&jitter](int round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10 + jitter() % (50 * (round + 1))));
  };
  PublishOutcome outcome;
  for (int round = 0; round < kMaxRemoteRounds; ++round) {
    sync(true);
    const std::optional<std::string> tip = repository_.ref_target(ref_);
    // Commits published here earlier but not pushed go first: the remote gets everything.
    if (tip && repository_.ref_target(tracking_) != tip && !push(*tip)) {
      ++outcome.retries;
      back_off(round);
      continue;
    }
    const std::optional<ChangeCommit> change = commit_change(tip, prepare, outcome);
    if (!change) return outcome;
    // The commit goes to the remote first; the local branch follows only once it landed,
    // so a refused push leaves nothing behind to diverge.
    const std::string& commit = change->commit;
    if (push(commit)) {
      repository_.compare_and_swap_ref(ref_, commit, tip, change->message);
      repository_.compare_and_swap_ref(tracking_, commit, repository_.ref_target(tracking_),
                                       "perfgate history: pushed");
      return outcome;
    }
    ++outcome.retries;
    back_off(round);
  }
  throw Error(ExitCode::kIoError, url_ + ": the remote '" + remote_ + "' kept moving (" +
                                      std::to_string(kMaxRemoteRounds) +
                                      " tries); nothing was published. Publish again");
}

std::optional<std::chrono::seconds> GitArchive::lock_age() const {
  std::error_code no_lock;
  const auto written = std::filesystem::last_write_time(repository_.ref_lock_file(ref_), no_lock);
  if (no_lock) return std::nullopt;
  return std::max(std::chrono::seconds(0),
                  std::chrono::duration_cast<std::chrono::seconds>(
                      std::filesystem::file_time_type::clock::now() - written));
}

Error GitArchive::lock_error(std::chrono::seconds age) const {
  const std::string lock = repository_.ref_lock_file(ref_).string();
  return Error(ExitCode::kIoError,
               url_ + ": " + ref_ + " is locked by " + lock + " (" + std::to_string(age.count()) +
                   " s old); nothing was published. A git command or a publisher that is still "
                   "running holds it: wait for it. If none is (check with `ps`), it was left by "
                   "one that died: remove it (rm '" +
                   lock + "') and publish again");
}

PublishOutcome GitArchive::publish(
    const std::function<ArchiveChange(const ArchiveSnapshot&)>& prepare) {
  if (!remote_.empty()) return publish_to_remote(prepare);
  std::minstd_rand jitter(std::random_device{}());
  PublishOutcome outcome;
  for (int round = 0; round < kMaxAttempts; ++round) {
    const std::optional<std::string> tip = repository_.ref_target(ref_);
    const std::optional<ChangeCommit> change = commit_change(tip, prepare, outcome);
    if (!change) return outcome;
    if (repository_.compare_and_swap_ref(ref_, change->commit, tip, change->message)) {
      return outcome;
    }
    ++outcome.retries;
    // A lock older than any publish takes was left by a git process that died while moving
    // the branch, not by another publisher: say so now instead of retrying in vain.
    if (const auto age = lock_age(); age && *age > std::chrono::seconds(60)) throw lock_error(*age);
    // Another publisher moved the branch: back off a little, at random, so two writers do
    // not keep colliding in step.
    std::this_thread::sleep_for(std::chrono::milliseconds(1 + jitter() % (5 * (round + 1))));
  }
  if (const auto age = lock_age()) throw lock_error(*age);
  throw Error(ExitCode::kIoError, url_ + ": the branch kept moving under this publisher (" +
                                      std::to_string(kMaxAttempts) +
                                      " tries); nothing was published. Run the publish again");
}

}  // namespace perfgate::history
