#include "store/postgres_store.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/instant.hpp"
#include "store/approval.hpp"
#include "store/attempt_checks.hpp"
#include "store/glob_prefix.hpp"
#include "store/postgres_schema.hpp"
#include "store/stored_rows.hpp"

namespace perfgate {
namespace {

// A record is eligible when it was written eligible or an approval names it.
constexpr const char* kPgEligibleSql =
    "(r.baseline_eligible OR EXISTS (SELECT 1 FROM perfgate.approvals a "
    "WHERE a.record_id = r.record_id))";

// The SQLite store's order (stored_rows.hpp): instant, then text byte by byte (the columns
// are COLLATE "C"), then insertion order.
constexpr const char* kPgNewestFirstSql =
    "r.instant_us DESC NULLS LAST, r.timestamp DESC, r.seq DESC";

PgParam optional_number(const std::optional<long long>& value) {
  if (!value) return std::nullopt;
  return std::to_string(*value);
}
std::string boolean(bool value) {
  return value ? "t" : "f";
}

}  // namespace

PostgresStore::PostgresStore(const std::string& url, bool must_exist) : db_(url) {
  if (must_exist && !postgres_store_present(db_)) {
    throw Error(ExitCode::kNoInput,
                db_.label() +
                    ": the database holds no perfgate store. Check the database name in the "
                    "URL, or create the store with 'perfgate compare --upload always --init' or "
                    "'perfgate store copy'");
  }
  migrate_postgres_store(db_);
}

long long PostgresStore::lock_revision() {
  return db_.run("SELECT value FROM perfgate.meta WHERE key = 'revision' FOR UPDATE").integer(0, 0);
}

bool PostgresStore::stored_copy_matches(const Attempt& attempt,
                                        const std::vector<std::string>& texts) {
  const PgResult header =
      db_.run("SELECT json FROM perfgate.attempts WHERE attempt_id = $1", {attempt.attempt_id});
  if (header.rows() != 1 || header.text(0, 0) != attempt_header_text(attempt)) return false;
  const PgResult records = db_.run(
      "SELECT json FROM perfgate.records WHERE attempt_id = $1 ORDER BY seq", {attempt.attempt_id});
  if (static_cast<std::size_t>(records.rows()) != texts.size()) return false;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (records.text(static_cast<int>(i), 0) != texts[i]) return false;
  }
  return true;
}

AppendOutcome PostgresStore::append(const Attempt& attempt, RepeatedMeasurements repeated) {
  const std::vector<std::string> texts = check_attempt_content(attempt, url());
  PgTransaction transaction(db_);
  // Writers queue here, as SQLite's BEGIN IMMEDIATE makes them: each append then sees every
  // attempt committed before it, so "already present" and "conflict" are decided on all.
  const long long revision = lock_revision();

  if (db_.run("SELECT 1 FROM perfgate.attempts WHERE attempt_id = $1", {attempt.attempt_id})
          .rows() > 0) {
    if (!stored_copy_matches(attempt, texts)) throw_attempt_conflict(url(), attempt.attempt_id);
    return AppendOutcome::kAlreadyPresent;
  }
  if (repeated == RepeatedMeasurements::kRefuse) {
    // After the revision lock: every append that committed before this one is seen.
    const PgResult held = db_.run(
        "SELECT DISTINCT raw_record_sha256 FROM perfgate.records WHERE raw_record_sha256 = "
        "ANY($1::text[])",
        {text_array_literal(raw_digests_of(attempt))});
    std::set<std::string> stored;
    for (int i = 0; i < held.rows(); ++i) stored.insert(held.text(i, 0));
    refuse_repeated_measurements(url(), attempt, stored);
  }
  std::vector<std::string> ids;
  ids.reserve(attempt.records.size());
  for (const auto& record : attempt.records) ids.push_back(record.record_id);
  const PgResult owners = db_.run(
      "SELECT record_id, attempt_id FROM perfgate.records WHERE record_id = ANY($1::text[])",
      {text_array_literal(ids)});
  if (owners.rows() > 0) {
    std::map<std::string, std::string> owner;
    for (int i = 0; i < owners.rows(); ++i) owner[owners.text(i, 0)] = owners.text(i, 1);
    for (const auto& record : attempt.records) {
      if (const auto found = owner.find(record.record_id); found != owner.end()) {
        throw_record_conflict(url(), record, found->second);
      }
    }
  }

  db_.run(
      "INSERT INTO perfgate.attempts (attempt_id, created_at, commit_sha, run_source, success, "
      "json) VALUES ($1, $2, $3, $4, $5, $6)",
      {attempt.attempt_id, attempt.created_at, attempt.commit_sha, attempt.run_source,
       boolean(attempt.success), attempt_header_text(attempt)});
  // COPY carries every record in one round trip: an attempt of thousands of records costs
  // about what one row does.
  std::string rows;
  for (std::size_t i = 0; i < attempt.records.size(); ++i) {
    const NormalizedRecord& r = attempt.records[i];
    const PgParam fields[] = {r.record_id,
                              attempt.attempt_id,
                              r.benchmark_id,
                              r.timestamp,
                              optional_number(parse_instant_us(r.timestamp)),
                              r.workload_id,
                              r.variant_id,
                              optional_number(r.benchmark_version),
                              r.recipe_fingerprint,
                              r.hardware_profile_id,
                              r.software_profile_id,
                              r.run_source,
                              boolean(r.success),
                              boolean(r.baseline_eligible),
                              r.raw_record_sha256,
                              texts[i]};
    bool first = true;
    for (const auto& field : fields) {
      if (!first) rows += '\t';
      first = false;
      append_copy_field(rows, field);
    }
    rows += '\n';
  }
  if (!rows.empty()) {
    db_.copy_in(
        "COPY perfgate.records (record_id, attempt_id, benchmark_id, timestamp, instant_us, "
        "workload_id, variant_id, benchmark_version, recipe_fingerprint, hardware_profile_id, "
        "software_profile_id, run_source, success, baseline_eligible, raw_record_sha256, json) "
        "FROM STDIN",
        rows);
  }
  db_.run("UPDATE perfgate.meta SET value = $1 WHERE key = 'revision'",
          {std::to_string(revision + 1)});
  transaction.commit();
  return AppendOutcome::kAppended;
}

std::vector<StoredRecord> PostgresStore::select_records(const std::string& where,
                                                        const std::vector<PgParam>& params,
                                                        std::size_t limit) {
  // Rows are put in order here, on the sort keys alone, as the SQLite store does. A limited
  // listing (a baseline window) picks its rows on the keys alone in the inner query, so that
  // the server's top-N sort does not carry every candidate's JSON.
  std::string sql = std::string("SELECT r.record_id, r.json, r.attempt_id, ") + kPgEligibleSql +
                    ", r.instant_us, r.timestamp, r.seq FROM perfgate.records r WHERE ";
  if (limit == 0) {
    sql += where;
  } else {
    sql += "r.seq IN (SELECT r.seq FROM perfgate.records r WHERE " + where + " ORDER BY " +
           kPgNewestFirstSql + " LIMIT " + std::to_string(limit) + ")";
  }
  const PgResult result = db_.run(sql, params);
  std::vector<StoredRow> rows(static_cast<std::size_t>(result.rows()));
  for (int i = 0; i < result.rows(); ++i) {
    StoredRow& row = rows[static_cast<std::size_t>(i)];
    row.record_id = result.text(i, 0);
    row.json = result.text(i, 1);
    row.attempt_id = result.text(i, 2);
    row.eligible = result.boolean(i, 3);
    if (const auto instant = result.optional_integer(i, 4)) {
      row.instant = static_cast<double>(*instant);
    }
    row.timestamp = result.text(i, 5);
    row.seq = result.integer(i, 6);
  }
  sort_newest_first(rows);
  return read_stored_rows(std::move(rows), url());
}

std::vector<std::string> PostgresStore::already_stored(const std::vector<std::string>& keys) {
  std::vector<std::string> candidates;
  for (const auto& key : keys) {
    if (!key.empty() && std::find(candidates.begin(), candidates.end(), key) == candidates.end()) {
      candidates.push_back(key);
    }
  }
  if (candidates.empty()) return {};
  const PgResult result = db_.run(
      "SELECT k FROM unnest($1::text[]) AS k WHERE EXISTS (SELECT 1 FROM perfgate.records r "
      "WHERE r.record_id = k) OR EXISTS (SELECT 1 FROM perfgate.records r WHERE "
      "r.raw_record_sha256 = k)",
      {text_array_literal(candidates)});
  std::vector<std::string> stored;
  for (int i = 0; i < result.rows(); ++i) stored.push_back(result.text(i, 0));
  std::vector<std::string> found;
  for (const auto& key : candidates) {
    if (std::find(stored.begin(), stored.end(), key) != stored.end()) found.push_back(key);
  }
  return found;
}

std::vector<StoredRecord> PostgresStore::baseline_records(const CohortKey& cohort,
                                                          std::size_t count) {
  if (count == 0 || !cohort_is_complete(cohort)) return {};
  return select_records(
      "r.workload_id = $1 AND r.variant_id = $2 AND r.benchmark_version = $3 AND "
      "r.recipe_fingerprint = $4 AND r.hardware_profile_id = $5 AND r.software_profile_id = $6 "
      "AND r.success AND " +
          std::string(kPgEligibleSql),
      {cohort.workload_id, cohort.variant_id, std::to_string(cohort.benchmark_version),
       cohort.recipe_fingerprint, cohort.hardware_profile_id, cohort.software_profile_id},
      count);
}

std::vector<StoredRecord> PostgresStore::list_records(const RecordFilter& filter) {
  std::string where = "TRUE";
  std::vector<PgParam> params;
  const auto add = [&](const std::string& condition, std::string value) {
    params.emplace_back(std::move(value));
    where += " AND " + condition + " $" + std::to_string(params.size());
  };
  if (!filter.benchmark_glob.empty()) {
    // The server has no fnmatch: the names in the glob's range of the benchmark index are
    // matched here, with the same rules as every other backend, and the query asks for those.
    const GlobRange range = glob_range(filter.benchmark_glob);
    std::vector<std::string> names;
    if (range.exact) {
      names.push_back(range.lower);
    } else {
      const PgResult candidates = db_.run(
          "SELECT DISTINCT benchmark_id FROM perfgate.records WHERE benchmark_id >= $1 AND "
          "($2::text IS NULL OR benchmark_id < $2)",
          {range.lower, range.upper});
      for (int i = 0; i < candidates.rows(); ++i) {
        std::string name = candidates.text(i, 0);
        if (::fnmatch(filter.benchmark_glob.c_str(), name.c_str(), 0) == 0) {
          names.push_back(std::move(name));
        }
      }
      if (names.empty()) return {};
    }
    params.emplace_back(text_array_literal(names));
    where += " AND r.benchmark_id = ANY($" + std::to_string(params.size()) + "::text[])";
  }
  if (!filter.since.empty()) {
    const auto since = parse_instant_us(filter.since);
    if (!since) return {};
    add("r.instant_us >=", std::to_string(*since));
  }
  if (filter.cohort) {
    if (!cohort_is_complete(*filter.cohort)) return {};
    add("r.workload_id =", filter.cohort->workload_id);
    add("r.variant_id =", filter.cohort->variant_id);
    add("r.benchmark_version =", std::to_string(filter.cohort->benchmark_version));
    add("r.recipe_fingerprint =", filter.cohort->recipe_fingerprint);
    add("r.hardware_profile_id =", filter.cohort->hardware_profile_id);
    add("r.software_profile_id =", filter.cohort->software_profile_id);
  }
  if (!filter.workload_id.empty()) add("r.workload_id =", filter.workload_id);
  if (!filter.variant_id.empty()) add("r.variant_id =", filter.variant_id);
  if (filter.benchmark_version)
    add("r.benchmark_version =", std::to_string(*filter.benchmark_version));
  return select_records(where, params, filter.limit);
}

std::vector<CohortKey> PostgresStore::list_cohorts() {
  const PgResult result = db_.run(
      "SELECT DISTINCT workload_id, variant_id, benchmark_version, recipe_fingerprint, "
      "hardware_profile_id, software_profile_id FROM perfgate.records WHERE workload_id <> '' "
      "AND variant_id <> '' AND benchmark_version IS NOT NULL AND recipe_fingerprint <> '' AND "
      "hardware_profile_id <> '' AND software_profile_id <> ''");
  std::vector<CohortKey> cohorts;
  for (int i = 0; i < result.rows(); ++i) {
    cohorts.push_back(CohortKey{result.text(i, 0), result.text(i, 1), result.integer(i, 2),
                                result.text(i, 3), result.text(i, 4), result.text(i, 5)});
  }
  std::sort(cohorts.begin(), cohorts.end());
  return cohorts;
}

std::vector<AttemptSummary> PostgresStore::list_attempts() {
  const PgResult result = db_.run(
      "SELECT a.attempt_id, a.created_at, a.commit_sha, a.run_source, a.success, "
      "(SELECT count(*) FROM perfgate.records r WHERE r.attempt_id = a.attempt_id) "
      "FROM perfgate.attempts a ORDER BY a.created_at DESC, a.seq DESC");
  std::vector<AttemptSummary> attempts;
  for (int i = 0; i < result.rows(); ++i) {
    attempts.push_back(AttemptSummary{result.text(i, 0), result.text(i, 1), result.text(i, 2),
                                      result.text(i, 3), result.boolean(i, 4),
                                      static_cast<std::size_t>(result.integer(i, 5))});
  }
  return attempts;
}

std::optional<Attempt> PostgresStore::read_attempt(const std::string& attempt_id) {
  // One statement: header and records from the same snapshot.
  const PgResult result = db_.run(
      "SELECT a.json, r.record_id, r.json FROM perfgate.attempts a LEFT JOIN perfgate.records r "
      "ON r.attempt_id = a.attempt_id WHERE a.attempt_id = $1 ORDER BY r.seq",
      {attempt_id});
  if (result.rows() == 0) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> records;
  for (int i = 0; i < result.rows(); ++i) {
    if (!result.is_null(i, 1)) records.emplace_back(result.text(i, 1), result.text(i, 2));
  }
  return attempt_from_stored_texts(result.text(0, 0), records,
                                   url() + " (attempt " + attempt_id + ")");
}

std::vector<Approval> PostgresStore::list_approvals() {
  const PgResult result = db_.run(
      "SELECT approval_id, record_id, created_at FROM perfgate.approvals ORDER BY approval_id "
      "COLLATE \"C\", record_id COLLATE \"C\"");
  std::vector<std::array<std::string, 3>> rows;
  for (int i = 0; i < result.rows(); ++i) {
    rows.push_back({result.text(i, 0), result.text(i, 1), result.text(i, 2)});
  }
  return approvals_from_rows(rows);
}

std::string PostgresStore::revision() {
  return db_.run("SELECT value FROM perfgate.meta WHERE key = 'revision'").text(0, 0);
}

bool PostgresStore::has_approval(const std::string& approval_id) {
  return db_.run("SELECT 1 FROM perfgate.approvals WHERE approval_id = $1 LIMIT 1", {approval_id})
             .rows() > 0;
}

void PostgresStore::approve(const std::vector<std::string>& record_ids,
                            const std::string& approval_id, const std::string& expected_revision) {
  const Approval approval = make_approval(record_ids, approval_id, url());
  PgTransaction transaction(db_);
  const long long revision = lock_revision();

  const PgResult existing = db_.run(
      "SELECT record_id FROM perfgate.approvals WHERE approval_id = $1 ORDER BY record_id "
      "COLLATE \"C\"",
      {approval.approval_id});
  if (existing.rows() > 0) {
    std::vector<std::string> approved;
    for (int i = 0; i < existing.rows(); ++i) approved.push_back(existing.text(i, 0));
    check_repeated_approval(url(), approval, approved);
    return;
  }
  check_revision(url(), std::to_string(revision), expected_revision);

  const PgResult known =
      db_.run("SELECT record_id FROM perfgate.records WHERE record_id = ANY($1::text[])",
              {text_array_literal(approval.record_ids)});
  std::vector<std::string> found;
  for (int i = 0; i < known.rows(); ++i) found.push_back(known.text(i, 0));
  std::vector<std::string> unknown;
  for (const auto& id : approval.record_ids) {
    if (std::find(found.begin(), found.end(), id) == found.end()) unknown.push_back(id);
  }
  if (!unknown.empty()) throw_unknown_records(url(), approval.approval_id, unknown);

  for (const auto& id : approval.record_ids) {
    db_.run(
        "INSERT INTO perfgate.approvals (approval_id, record_id, created_at) VALUES ($1, $2, $3)",
        {approval.approval_id, id, approval.created_at});
  }
  db_.run("UPDATE perfgate.meta SET value = $1 WHERE key = 'revision'",
          {std::to_string(revision + 1)});
  transaction.commit();
}

}  // namespace perfgate
