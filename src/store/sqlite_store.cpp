#include "store/sqlite_store.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <system_error>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "store/approval.hpp"
#include "store/attempt_checks.hpp"
#include "store/glob_prefix.hpp"
#include "store/sqlite_schema.hpp"
#include "store/stored_rows.hpp"

namespace perfgate {
namespace {

// A record is eligible when it was written eligible or an approval names it.
constexpr const char* kEligibleSql =
    "(r.baseline_eligible OR EXISTS (SELECT 1 FROM approvals a WHERE a.record_id = r.record_id))";

std::string with_folder(const std::filesystem::path& file) {
  const auto folder = file.parent_path();
  std::error_code error;
  if (!folder.empty()) std::filesystem::create_directories(folder, error);
  if (error) {
    throw Error(ExitCode::kIoError, folder.string() + ": cannot create the store's folder: " +
                                        error.message() + ". Check the path and its permissions");
  }
  return file.string();
}

// perfgate_glob(pattern, text): shell-glob matching with the same rules as every other
// backend (fnmatch), which SQLite's own GLOB does not quite follow.
void glob_function(sqlite3_context* context, int, sqlite3_value** values) {
  const auto* pattern = sqlite3_value_text(values[0]);
  const auto* text = sqlite3_value_text(values[1]);
  const bool match = pattern != nullptr && text != nullptr &&
                     ::fnmatch(reinterpret_cast<const char*>(pattern),
                               reinterpret_cast<const char*>(text), 0) == 0;
  sqlite3_result_int(context, match ? 1 : 0);
}

// Newest instant first: julianday() reads every ISO 8601 form records arrive in (Z,
// +09:00, fractions), where text order would put 22:00+09:00 after 14:00Z. Text that is no
// date (NULL) sorts last; insertion order breaks ties.
constexpr const char* kNewestFirstSql = "julianday(r.timestamp) DESC, r.timestamp DESC, r.seq DESC";

}  // namespace

SqliteStore::SqliteStore(std::string url, const std::filesystem::path& file, SqliteAccess access)
    : url_(std::move(url)),
      db_(access == SqliteAccess::kReadWrite ? with_folder(file) : file.string(), access) {
  // Writers wait for each other's transactions instead of failing at once.
  db_.exec("PRAGMA busy_timeout = 30000");
  db_.exec("PRAGMA foreign_keys = ON");
  // WAL lets readers run while one writer commits. With synchronous=NORMAL a commit is
  // not flushed to disk on its own, but WAL still keeps every committed transaction
  // atomic: a power cut may lose the last few commits, never half of one, and a crash
  // of the process alone loses nothing committed. The mode is kept in the file: a reader
  // does not set it.
  if (access == SqliteAccess::kReadWrite) {
    // Processes that create the store at once race to switch it to WAL: the switch reads the
    // header, then writes it, and SQLite does not wait for a writer there (see
    // exec_waiting_for_locks). The same 30 s as the busy timeout.
    db_.exec_waiting_for_locks("PRAGMA journal_mode = WAL", std::chrono::seconds(30));
    db_.exec("PRAGMA synchronous = NORMAL");
  }
  const int rc = sqlite3_create_function_v2(db_.handle(), "perfgate_glob", 2,
                                            SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                            glob_function, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw_sqlite_error(db_.handle(), rc, db_.file(), "cannot register glob");
  migrate_sqlite_store(db_);
}

bool SqliteStore::stored_copy_matches(const Attempt& attempt,
                                      const std::vector<std::string>& texts) {
  SqliteStatement header = db_.prepare("SELECT json FROM attempts WHERE attempt_id = ?1");
  header.bind(1, attempt.attempt_id);
  if (!header.step() || header.text(0) != attempt_header_text(attempt)) return false;
  SqliteStatement records =
      db_.prepare("SELECT json FROM records WHERE attempt_id = ?1 ORDER BY seq");
  records.bind(1, attempt.attempt_id);
  for (const auto& text : texts) {
    if (!records.step() || records.text(0) != text) return false;
  }
  return !records.step();
}

AppendOutcome SqliteStore::append(const Attempt& attempt, RepeatedMeasurements repeated) {
  // Each record is kept as its content text (the id is its own column): the text the
  // check computes anyway, so a record is serialised once per append.
  const std::vector<std::string> texts = check_attempt_content(attempt, url_);
  SqliteTransaction transaction(db_, SqliteTransaction::Kind::kWrite);

  SqliteStatement exists = db_.prepare("SELECT 1 FROM attempts WHERE attempt_id = ?1");
  exists.bind(1, attempt.attempt_id);
  if (exists.step()) {
    if (!stored_copy_matches(attempt, texts)) throw_attempt_conflict(url_, attempt.attempt_id);
    return AppendOutcome::kAlreadyPresent;
  }
  if (repeated == RepeatedMeasurements::kRefuse) {
    // Inside the write transaction: a writer that checked already_stored before another
    // one appended the same measurement learns of it here.
    SqliteStatement held =
        db_.prepare("SELECT 1 FROM records WHERE raw_record_sha256 = ?1 LIMIT 1");
    std::set<std::string> stored;
    for (const auto& digest : raw_digests_of(attempt)) {
      held.bind(1, digest);
      if (held.step()) stored.insert(digest);
      held.reset();
    }
    refuse_repeated_measurements(url_, attempt, stored);
  }
  SqliteStatement owner = db_.prepare("SELECT attempt_id FROM records WHERE record_id = ?1");
  for (const auto& record : attempt.records) {
    owner.bind(1, record.record_id);
    if (owner.step()) throw_record_conflict(url_, record, owner.text(0));
    owner.reset();
  }

  db_.prepare(
         "INSERT INTO attempts (attempt_id, created_at, commit_sha, run_source, success, json) "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(1, attempt.attempt_id)
      .bind(2, attempt.created_at)
      .bind(3, attempt.commit_sha)
      .bind(4, attempt.run_source)
      .bind(5, static_cast<long long>(attempt.success))
      .bind(6, attempt_header_text(attempt))
      .run();
  SqliteStatement insert = db_.prepare(
      "INSERT INTO records (record_id, attempt_id, benchmark_id, timestamp, workload_id, "
      "variant_id, benchmark_version, recipe_fingerprint, hardware_profile_id, "
      "software_profile_id, run_source, success, baseline_eligible, json, raw_record_sha256) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
  for (std::size_t i = 0; i < attempt.records.size(); ++i) {
    const NormalizedRecord& r = attempt.records[i];
    insert.bind(1, r.record_id)
        .bind(2, attempt.attempt_id)
        .bind(3, r.benchmark_id)
        .bind(4, r.timestamp)
        .bind(5, r.workload_id)
        .bind(6, r.variant_id)
        .bind(7, r.benchmark_version)
        .bind(8, r.recipe_fingerprint)
        .bind(9, r.hardware_profile_id)
        .bind(10, r.software_profile_id)
        .bind(11, r.run_source)
        .bind(12, static_cast<long long>(r.success))
        .bind(13, static_cast<long long>(r.baseline_eligible))
        .bind(14, texts[i])
        .bind(15, r.raw_record_sha256)
        .run();
    insert.reset();
  }
  db_.exec("UPDATE meta SET value = value + 1 WHERE key = 'revision'");
  transaction.commit();
  return AppendOutcome::kAppended;
}

std::vector<StoredRecord> SqliteStore::select_records(const std::string& where,
                                                      const std::vector<SqlArgument>& arguments,
                                                      std::size_t limit) {
  // Rows are put in order here, on the sort keys alone: SQLite's sorter would carry every
  // row's JSON (through a temporary file, for a dashboard of 100,000 records). A limited
  // listing (a baseline window) picks its rows on the keys alone in the inner query.
  std::string sql = std::string("SELECT r.record_id, r.json, r.attempt_id, ") + kEligibleSql +
                    ", julianday(r.timestamp), r.timestamp, r.seq FROM records r WHERE ";
  if (limit == 0) {
    sql += where;
  } else {
    sql += "r.seq IN (SELECT r.seq FROM records r WHERE " + where + " ORDER BY " + kNewestFirstSql +
           " LIMIT " + std::to_string(limit) + ")";
  }
  SqliteTransaction snapshot(db_, SqliteTransaction::Kind::kRead);
  SqliteStatement query = db_.prepare(sql);
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    std::visit([&](const auto& value) { query.bind(static_cast<int>(i + 1), value); },
               arguments[i]);
  }
  std::vector<StoredRow> rows;
  while (query.step()) {
    rows.push_back({query.text(0), query.text(1), query.text(2), query.integer(3) != 0,
                    query.real(4), query.text(5), query.integer(6)});
  }
  // kNewestFirstSql's order: SQLite sorts NULL below every number, so DESC puts it last;
  // text compares byte by byte, as std::string does.
  sort_newest_first(rows);
  return read_stored_rows(std::move(rows), url_);
}

std::vector<std::string> SqliteStore::already_stored(const std::vector<std::string>& keys) {
  SqliteTransaction snapshot(db_, SqliteTransaction::Kind::kRead);
  SqliteStatement query =
      db_.prepare("SELECT 1 FROM records WHERE record_id = ?1 OR raw_record_sha256 = ?1 LIMIT 1");
  std::vector<std::string> found;
  for (const auto& key : keys) {
    if (key.empty() || std::find(found.begin(), found.end(), key) != found.end()) continue;
    query.bind(1, key);
    if (query.step()) found.push_back(key);
    query.reset();
  }
  return found;
}

std::vector<StoredRecord> SqliteStore::baseline_records(const CohortKey& cohort,
                                                        std::size_t count) {
  if (count == 0 || !cohort_is_complete(cohort)) return {};
  return select_records(
      "r.workload_id = ?1 AND r.variant_id = ?2 AND r.benchmark_version = ?3 AND "
      "r.recipe_fingerprint = ?4 AND r.hardware_profile_id = ?5 AND r.software_profile_id = ?6 "
      "AND r.success = 1 AND " +
          std::string(kEligibleSql),
      {cohort.workload_id, cohort.variant_id, cohort.benchmark_version, cohort.recipe_fingerprint,
       cohort.hardware_profile_id, cohort.software_profile_id},
      count);
}

std::vector<StoredRecord> SqliteStore::list_records(const RecordFilter& filter) {
  std::string where = "1 = 1";
  std::vector<SqlArgument> arguments;
  const auto add = [&](const std::string& condition, SqlArgument value) {
    arguments.push_back(std::move(value));
    where += " AND " + condition + " ?" + std::to_string(arguments.size());
  };
  if (!filter.benchmark_glob.empty()) {
    // The glob's literal prefix narrows the rows through the benchmark index; fnmatch
    // decides on those.
    const GlobRange range = glob_range(filter.benchmark_glob);
    if (!range.lower.empty()) add("r.benchmark_id >=", range.lower);
    if (range.upper) add("r.benchmark_id <", *range.upper);
    arguments.push_back(filter.benchmark_glob);
    where += " AND perfgate_glob(?" + std::to_string(arguments.size()) + ", r.benchmark_id)";
  }
  if (!filter.since.empty()) {
    arguments.push_back(filter.since);
    where += " AND julianday(r.timestamp) >= julianday(?" + std::to_string(arguments.size()) + ")";
  }
  if (filter.cohort) {
    if (!cohort_is_complete(*filter.cohort)) return {};
    add("r.workload_id =", filter.cohort->workload_id);
    add("r.variant_id =", filter.cohort->variant_id);
    add("r.benchmark_version =", filter.cohort->benchmark_version);
    add("r.recipe_fingerprint =", filter.cohort->recipe_fingerprint);
    add("r.hardware_profile_id =", filter.cohort->hardware_profile_id);
    add("r.software_profile_id =", filter.cohort->software_profile_id);
  }
  if (!filter.workload_id.empty()) add("r.workload_id =", filter.workload_id);
  if (!filter.variant_id.empty()) add("r.variant_id =", filter.variant_id);
  if (filter.benchmark_version) add("r.benchmark_version =", *filter.benchmark_version);
  return select_records(where, arguments, filter.limit);
}

std::vector<CohortKey> SqliteStore::list_cohorts() {
  SqliteStatement query = db_.prepare(
      "SELECT DISTINCT workload_id, variant_id, benchmark_version, recipe_fingerprint, "
      "hardware_profile_id, software_profile_id FROM records WHERE workload_id <> '' AND "
      "variant_id <> '' AND benchmark_version IS NOT NULL AND recipe_fingerprint <> '' AND "
      "hardware_profile_id <> '' AND software_profile_id <> ''");
  std::vector<CohortKey> cohorts;
  while (query.step()) {
    cohorts.push_back(CohortKey{query.text(0), query.text(1), query.integer(2), query.text(3),
                                query.text(4), query.text(5)});
  }
  std::sort(cohorts.begin(), cohorts.end());
  return cohorts;
}

std::vector<AttemptSummary> SqliteStore::list_attempts() {
  SqliteStatement query = db_.prepare(
      "SELECT a.attempt_id, a.created_at, a.commit_sha, a.run_source, a.success, "
      "(SELECT count(*) FROM records r WHERE r.attempt_id = a.attempt_id) "
      "FROM attempts a ORDER BY a.created_at DESC, a.rowid DESC");
  std::vector<AttemptSummary> attempts;
  while (query.step()) {
    attempts.push_back(AttemptSummary{query.text(0), query.text(1), query.text(2), query.text(3),
                                      query.integer(4) != 0,
                                      static_cast<std::size_t>(query.integer(5))});
  }
  return attempts;
}

std::optional<Attempt> SqliteStore::read_attempt(const std::string& attempt_id) {
  SqliteTransaction snapshot(db_, SqliteTransaction::Kind::kRead);
  SqliteStatement header = db_.prepare("SELECT json FROM attempts WHERE attempt_id = ?1");
  header.bind(1, attempt_id);
  if (!header.step()) return std::nullopt;
  SqliteStatement query =
      db_.prepare("SELECT record_id, json FROM records WHERE attempt_id = ?1 ORDER BY seq");
  query.bind(1, attempt_id);
  std::vector<std::pair<std::string, std::string>> records;
  while (query.step()) records.emplace_back(query.text(0), query.text(1));
  return attempt_from_stored_texts(header.text(0), records, url_ + " (attempt " + attempt_id + ")");
}

std::vector<Approval> SqliteStore::list_approvals() {
  SqliteStatement query = db_.prepare(
      "SELECT approval_id, record_id, created_at FROM approvals ORDER BY approval_id, record_id");
  std::vector<std::array<std::string, 3>> rows;
  while (query.step()) rows.push_back({query.text(0), query.text(1), query.text(2)});
  return approvals_from_rows(rows);
}

std::string SqliteStore::revision() {
  SqliteStatement query = db_.prepare("SELECT value FROM meta WHERE key = 'revision'");
  query.step();
  return std::to_string(query.integer(0));
}

bool SqliteStore::has_approval(const std::string& approval_id) {
  SqliteStatement query = db_.prepare("SELECT 1 FROM approvals WHERE approval_id = ?1 LIMIT 1");
  query.bind(1, approval_id);
  return query.step();
}

void SqliteStore::approve(const std::vector<std::string>& record_ids,
                          const std::string& approval_id, const std::string& expected_revision) {
  const Approval approval = make_approval(record_ids, approval_id, url_);
  SqliteTransaction transaction(db_, SqliteTransaction::Kind::kWrite);

  SqliteStatement existing =
      db_.prepare("SELECT record_id FROM approvals WHERE approval_id = ?1 ORDER BY record_id");
  existing.bind(1, approval.approval_id);
  std::vector<std::string> approved;
  while (existing.step()) approved.push_back(existing.text(0));
  if (!approved.empty()) {
    check_repeated_approval(url_, approval, approved);
    return;
  }
  check_revision(url_, revision(), expected_revision);

  std::vector<std::string> unknown;
  for (const auto& id : approval.record_ids) {
    SqliteStatement known = db_.prepare("SELECT 1 FROM records WHERE record_id = ?1");
    known.bind(1, id);
    if (!known.step()) unknown.push_back(id);
  }
  if (!unknown.empty()) throw_unknown_records(url_, approval.approval_id, unknown);

  for (const auto& id : approval.record_ids) {
    db_.prepare("INSERT INTO approvals (approval_id, record_id, created_at) VALUES (?1, ?2, ?3)")
        .bind(1, approval.approval_id)
        .bind(2, id)
        .bind(3, approval.created_at)
        .run();
  }
  db_.exec("UPDATE meta SET value = value + 1 WHERE key = 'revision'");
  transaction.commit();
}

}  // namespace perfgate
