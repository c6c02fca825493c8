#include "store/dir_store.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <system_error>
#include <tuple>

#include "measure/exclusive_file.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/instant.hpp"
#include "store/attempt_checks.hpp"
#include "store/file_lock.hpp"
#include "store/stored_rows.hpp"

namespace perfgate {
namespace fs = std::filesystem;
namespace {

constexpr const char* kStoreKind = "perfgate-dir-store";
constexpr const char* kAttemptsFolder = "attempts";
constexpr const char* kApprovalsFolder = "approvals";
constexpr const char* kMarkerFile = "store.json";
constexpr const char* kLockFile = "store.lock";

Error not_a_store(const fs::path& root, const std::string& why) {
  return Error(ExitCode::kIoError, root.string() + ": is not a perfgate directory store (" + why +
                                       "). Point dir: at a store, an empty folder or a path "
                                       "that does not exist yet");
}

// The .json files of a folder, sorted, without temporary or hidden files.
std::vector<std::string> json_file_names(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with('.') || !name.ends_with(".json")) continue;
    names.push_back(name);
  }
  if (error) {
    throw Error(ExitCode::kNoInput, folder.string() + ": cannot list the store's files: " +
                                        error.message() + ". Check that the folder is readable");
  }
  std::sort(names.begin(), names.end());
  return names;
}

Json parse_file(const fs::path& file) {
  const Json json = Json::parse(read_whole_file(file), nullptr, false);
  if (json.is_discarded()) {
    throw Error(ExitCode::kDataError, file.string() +
                                          ": is not valid JSON. Stored files are never edited; "
                                          "restore it from the store's history (e.g. git)");
  }
  return json;
}

void check_marker(const fs::path& root, const fs::path& marker) {
  const Json json = Json::parse(read_whole_file(marker), nullptr, false);
  if (!json.is_object() || json.value("kind", "") != kStoreKind) {
    throw not_a_store(root, "store.json does not say kind \"perfgate-dir-store\"");
  }
  const auto version = json.find("store_schema_version");
  if (version == json.end() || !version->is_number_integer() || *version < 1) {
    throw not_a_store(root, "store.json has no valid store_schema_version");
  }
  if (*version > kDirStoreSchemaVersion) {
    throw Error(ExitCode::kIoError, root.string() + ": store schema version " + version->dump() +
                                        " was written by a newer perfgate (this one knows up to " +
                                        std::to_string(kDirStoreSchemaVersion) +
                                        "). Upgrade perfgate");
  }
}

}  // namespace

DirStore::DirStore(std::string url, fs::path root) : url_(std::move(url)), root_(std::move(root)) {
  initialise();
  refresh();
}

void DirStore::initialise() {
  std::error_code error;
  if (fs::exists(root_, error) && !fs::is_directory(root_, error)) {
    throw not_a_store(root_, "it is a file, not a folder");
  }
  // A store that is laid out already is only read here, without its lock: a reader with
  // no write access to the folder (report, serve as another user) opens it.
  const fs::path existing_marker = root_ / kMarkerFile;
  if (fs::exists(existing_marker, error) && fs::is_directory(root_ / kAttemptsFolder, error) &&
      fs::is_directory(root_ / kApprovalsFolder, error)) {
    check_marker(root_, existing_marker);
    return;
  }
  fs::create_directories(root_, error);
  if (error) {
    throw Error(ExitCode::kIoError, root_.string() + ": cannot create the store's folder: " +
                                        error.message() + ". Check the path and its permissions");
  }
  // Two processes opening a new store at once: one lays it out, the other then sees it.
  const FileLock lock(root_ / kLockFile);
  const fs::path marker = root_ / kMarkerFile;
  if (fs::exists(marker, error)) {
    check_marker(root_, marker);
  } else {
    for (const auto& entry : fs::directory_iterator(root_, error)) {
      const std::string name = entry.path().filename().string();
      if (name.starts_with('.') || name == kLockFile || name == kAttemptsFolder ||
          name == kApprovalsFolder) {
        continue;
      }
      throw not_a_store(root_, "it holds " + name + " but no store.json");
    }
    fs::create_directories(root_ / kAttemptsFolder, error);
    fs::create_directories(root_ / kApprovalsFolder, error);
    // A git branch holding the store should not track the lock or leftover temporaries.
    create_file_exclusively(root_ / ".gitignore",
                            std::string(kLockFile) + "\n" + kTemporaryFilePrefix + "*\n");
    const Json content = {{"kind", kStoreKind}, {"store_schema_version", kDirStoreSchemaVersion}};
    create_file_exclusively(marker, content.dump(2) + "\n");
  }
  // git does not keep empty folders, so a fresh checkout may lack them.
  fs::create_directories(root_ / kAttemptsFolder, error);
  fs::create_directories(root_ / kApprovalsFolder, error);
  if (error) {
    throw Error(ExitCode::kIoError, root_.string() + ": cannot create the store's folders: " +
                                        error.message() + ". Check the folder's permissions");
  }
}

void DirStore::load_attempt(const fs::path& file) {
  const std::string stem = file.stem().string();
  // Damage keeps one attempt, or one record, out; it does not close the whole store.
  const auto damaged_attempt = [&](const std::string& why,
                                   const std::vector<NormalizedRecord>& records) {
    damaged_attempts_[stem] = why;
    if (records.empty()) note_damaged_record({url_, "", stem, file.string() + ": " + why});
    for (const auto& record : records) {
      note_damaged_record({url_, record.record_id, stem, file.string() + ": " + why});
    }
  };
  Attempt attempt;
  try {
    attempt = attempt_from_json(parse_file(file), file.string());
  } catch (const Error& error) {
    if (error.code() != ExitCode::kDataError) throw;
    damaged_attempt("it does not read as an attempt (" + std::string(error.what()) + ")", {});
    return;
  }
  if (stem != attempt.attempt_id) {
    damaged_attempt("it holds attempt " + attempt.attempt_id + ", not the one its name says",
                    attempt.records);
    return;
  }
  // The attempt id digests its header and its record ids; each record id digests its
  // record: rechecking both tells what was edited since it was written.
  if (attempt.attempt_id != attempt_content_id(attempt)) {
    damaged_attempt("its header or record list no longer matches its id", attempt.records);
    return;
  }
  std::vector<NormalizedRecord> intact;
  for (auto& record : attempt.records) {
    if (record.record_id != sha256_hex(record_content_text(record))) {
      damaged_attempts_[stem] = "record " + record.record_id + " no longer matches its id";
      note_damaged_record({url_, record.record_id, stem, ""});
      continue;
    }
    if (const auto owner = record_owner_.find(record.record_id); owner != record_owner_.end()) {
      damaged_attempts_[stem] =
          "record " + record.record_id + " is also in attempt " + owner->second;
      note_damaged_record(
          {url_, record.record_id, stem, "it is also stored under attempt " + owner->second});
      continue;
    }
    intact.push_back(std::move(record));
  }
  attempt.records = std::move(intact);
  for (const auto& record : attempt.records) record_owner_[record.record_id] = attempt.attempt_id;
  const std::string id = attempt.attempt_id;
  attempts_.emplace(id, std::move(attempt));
}

void DirStore::load_approval(const fs::path& file) {
  Approval approval = approval_from_json(parse_file(file), file.string());
  if (file.filename().string() != approval.approval_id + ".json") {
    throw Error(ExitCode::kDataError, file.string() + ": holds approval " + approval.approval_id +
                                          ", not the one its name says. Stored files are never "
                                          "renamed; restore it from the store's history");
  }
  approved_records_.insert(approval.record_ids.begin(), approval.record_ids.end());
  const std::string id = approval.approval_id;
  approvals_.emplace(id, std::move(approval));
}

void DirStore::refresh() {
  for (const auto& name : json_file_names(root_ / kAttemptsFolder)) {
    const std::string id = name.substr(0, name.size() - 5);
    if (!attempts_.contains(id) && !damaged_attempts_.contains(id)) {
      load_attempt(root_ / kAttemptsFolder / name);
    }
  }
  for (const auto& name : json_file_names(root_ / kApprovalsFolder)) {
    const std::string id = name.substr(0, name.size() - 5);
    if (!approvals_.contains(id)) load_approval(root_ / kApprovalsFolder / name);
  }
}

AppendOutcome DirStore::append(const Attempt& attempt, RepeatedMeasurements repeated) {
  check_attempt_content(attempt, url_);
  const FileLock lock(root_ / kLockFile);
  refresh();
  if (damaged_attempts_.contains(attempt.attempt_id)) {
    throw_attempt_conflict(url_, attempt.attempt_id);
  }
  if (const auto stored = attempts_.find(attempt.attempt_id); stored != attempts_.end()) {
    if (stored->second != attempt) throw_attempt_conflict(url_, attempt.attempt_id);
    return AppendOutcome::kAlreadyPresent;
  }
  if (repeated == RepeatedMeasurements::kRefuse) {
    const std::vector<std::string> digests = raw_digests_of(attempt);
    std::set<std::string> stored;
    for (const auto& [id, held] : attempts_) {
      for (const auto& record : held.records) {
        if (std::find(digests.begin(), digests.end(), record.raw_record_sha256) != digests.end()) {
          stored.insert(record.raw_record_sha256);
        }
      }
    }
    refuse_repeated_measurements(url_, attempt, stored);
  }
  for (const auto& record : attempt.records) {
    const auto owner = record_owner_.find(record.record_id);
    if (owner != record_owner_.end()) throw_record_conflict(url_, record, owner->second);
  }
  const fs::path file = root_ / kAttemptsFolder / (attempt.attempt_id + ".json");
  if (!create_file_exclusively(file, to_json(attempt).dump(2) + "\n")) {
    throw Error(ExitCode::kIoError, file.string() +
                                        ": appeared while perfgate held the store's lock. "
                                        "Only perfgate may write into a store; retry");
  }
  for (const auto& record : attempt.records) record_owner_[record.record_id] = attempt.attempt_id;
  attempts_.emplace(attempt.attempt_id, attempt);
  return AppendOutcome::kAppended;
}

template <typename Keep>
std::vector<StoredRecord> DirStore::records_newest_first(Keep keep, std::size_t limit) {
  refresh();
  struct Row {
    const NormalizedRecord* record;
    const Attempt* attempt;
    std::size_t index;
  };
  std::vector<Row> rows;
  for (const auto& [id, attempt] : attempts_) {
    for (std::size_t i = 0; i < attempt.records.size(); ++i) {
      if (keep(attempt.records[i])) rows.push_back({&attempt.records[i], &attempt, i});
    }
  }
  // Newest instant first, whatever offset the timestamp text carries. A folder has no
  // insertion order: attempts stand in for it by their creation time, records by their
  // position inside the attempt.
  const auto order = [](const Row& row) {
    return std::tie(row.attempt->created_at, row.attempt->attempt_id, row.index);
  };
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (instant_before(b.record->timestamp, a.record->timestamp)) return true;
    if (instant_before(a.record->timestamp, b.record->timestamp)) return false;
    return order(a) > order(b);
  });
  if (limit > 0 && rows.size() > limit) rows.resize(limit);
  std::vector<StoredRecord> found;
  for (const auto& row : rows) {
    found.push_back(
        {*row.record, row.attempt->attempt_id,
         row.record->baseline_eligible || approved_records_.contains(row.record->record_id)});
  }
  return found;
}

std::vector<std::string> DirStore::already_stored(const std::vector<std::string>& keys) {
  refresh();
  std::set<std::string> stored;
  for (const auto& [id, attempt] : attempts_) {
    for (const auto& record : attempt.records) {
      stored.insert(record.record_id);
      if (!record.raw_record_sha256.empty()) stored.insert(record.raw_record_sha256);
    }
  }
  std::vector<std::string> found;
  for (const auto& key : keys) {
    if (!key.empty() && stored.contains(key) &&
        std::find(found.begin(), found.end(), key) == found.end()) {
      found.push_back(key);
    }
  }
  return found;
}

std::vector<StoredRecord> DirStore::baseline_records(const CohortKey& cohort, std::size_t count) {
  if (count == 0) return {};
  return records_newest_first(
      [&](const NormalizedRecord& r) {
        return r.success && r.cohort() == cohort &&
               (r.baseline_eligible || approved_records_.contains(r.record_id));
      },
      count);
}

std::vector<StoredRecord> DirStore::list_records(const RecordFilter& filter) {
  return records_newest_first(
      [&](const NormalizedRecord& r) {
        if (!filter.benchmark_glob.empty() &&
            ::fnmatch(filter.benchmark_glob.c_str(), r.benchmark_id.c_str(), 0) != 0) {
          return false;
        }
        if (!filter.since.empty() && instant_before(r.timestamp, filter.since)) return false;
        if (filter.cohort && r.cohort() != filter.cohort) return false;
        if (!filter.workload_id.empty() && r.workload_id != filter.workload_id) return false;
        if (!filter.variant_id.empty() && r.variant_id != filter.variant_id) return false;
        if (filter.benchmark_version && r.benchmark_version != filter.benchmark_version) {
          return false;
        }
        return true;
      },
      filter.limit);
}

std::vector<CohortKey> DirStore::list_cohorts() {
  refresh();
  std::set<CohortKey> cohorts;
  for (const auto& [id, attempt] : attempts_) {
    for (const auto& record : attempt.records) {
      if (const auto cohort = record.cohort()) cohorts.insert(*cohort);
    }
  }
  return {cohorts.begin(), cohorts.end()};
}

std::vector<AttemptSummary> DirStore::list_attempts() {
  refresh();
  std::vector<AttemptSummary> summaries;
  for (const auto& [id, a] : attempts_) {
    summaries.push_back(
        {id, a.created_at, a.commit_sha, a.run_source, a.success, a.records.size()});
  }
  // Listed too, so that a copy of the store stops at them instead of leaving them out.
  for (const auto& [id, why] : damaged_attempts_) {
    if (!attempts_.contains(id)) summaries.push_back({id, "", "", "", false, 0});
  }
  std::sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.created_at, a.attempt_id) > std::tie(b.created_at, b.attempt_id);
  });
  return summaries;
}

std::string DirStore::revision() {
  std::string names;
  for (const char* folder : {kAttemptsFolder, kApprovalsFolder}) {
    for (const auto& name : json_file_names(root_ / folder)) {
      names += std::string(folder) + "/" + name + "\n";
    }
  }
  return sha256_hex(names);
}

std::optional<Attempt> DirStore::read_attempt(const std::string& attempt_id) {
  refresh();
  // Read whole (store copy): an attempt that lost a record on the way must not be copied.
  if (const auto damaged = damaged_attempts_.find(attempt_id); damaged != damaged_attempts_.end()) {
    throw Error(ExitCode::kDataError,
                url_ + ": attempt " + attempt_id + " is damaged: " + damaged->second +
                    ". Nothing was written from it. Run 'perfgate store check' on this store to "
                    "list every damaged record, and restore the file from the store's history "
                    "(e.g. git)");
  }
  const auto found = attempts_.find(attempt_id);
  if (found == attempts_.end()) return std::nullopt;
  return found->second;
}

std::vector<Approval> DirStore::list_approvals() {
  refresh();
  std::vector<Approval> approvals;
  for (const auto& [id, approval] : approvals_) approvals.push_back(approval);
  return approvals;
}

bool DirStore::has_approval(const std::string& approval_id) {
  refresh();
  return approvals_.contains(approval_id);
}

void DirStore::approve(const std::vector<std::string>& record_ids, const std::string& approval_id,
                       const std::string& expected_revision) {
  Approval approval = make_approval(record_ids, approval_id, url_);
  const FileLock lock(root_ / kLockFile);
  refresh();
  if (const auto stored = approvals_.find(approval.approval_id); stored != approvals_.end()) {
    check_repeated_approval(url_, approval, stored->second.record_ids);
    return;
  }
  check_revision(url_, revision(), expected_revision);
  std::vector<std::string> unknown;
  for (const auto& id : approval.record_ids) {
    if (!record_owner_.contains(id)) unknown.push_back(id);
  }
  if (!unknown.empty()) throw_unknown_records(url_, approval.approval_id, unknown);

  const fs::path file = root_ / kApprovalsFolder / (approval.approval_id + ".json");
  if (!create_file_exclusively(file, to_json(approval).dump(2) + "\n")) {
    throw Error(ExitCode::kIoError, file.string() +
                                        ": appeared while perfgate held the store's lock. "
                                        "Only perfgate may write into a store; retry");
  }
  approved_records_.insert(approval.record_ids.begin(), approval.record_ids.end());
  const std::string id = approval.approval_id;
  approvals_.emplace(id, std::move(approval));
}

}  // namespace perfgate
