#include "history/git_archive.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "history/git_repository.hpp"
#include "model/error.hpp"

namespace perfgate::history {
namespace {

/// How often a publisher redoes its change after losing the race for the ref before it
/// gives up: far more than a handful of concurrent writers ever need.
constexpr int kMaxAttempts = 64;

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

}  // namespace

GitArchive::GitArchive(std::string url, const std::string& branch, GitRepository& repository)
    : url_(std::move(url)), ref_("refs/heads/" + branch), repository_(repository) {}

bool GitArchive::exists() const {
  return repository_.ref_target(ref_).has_value();
}

std::unique_ptr<ArchiveSnapshot> GitArchive::snapshot() const {
  return std::make_unique<CommitSnapshot>(repository_, repository_.ref_target(ref_));
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
  std::minstd_rand jitter(std::random_device{}());
  PublishOutcome outcome;
  for (int round = 0; round < kMaxAttempts; ++round) {
    const std::optional<std::string> tip = repository_.ref_target(ref_);
    const CommitSnapshot current(repository_, tip);
    const CheckedChange checked = check_against(current, prepare(current));
    throw_if_conflicts(url_, checked);
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
    if (files.empty()) return outcome;
    const std::string commit = repository_.create_commit(tip, files, checked.change.message);
    if (repository_.compare_and_swap_ref(ref_, commit, tip, checked.change.message)) {
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
