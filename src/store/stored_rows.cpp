#include "store/stored_rows.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <mutex>

#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/parallel_for.hpp"
#include "model/record_fast_reader.hpp"

namespace perfgate {

bool cohort_is_complete(const CohortKey& key) {
  return !key.workload_id.empty() && !key.variant_id.empty() && !key.recipe_fingerprint.empty() &&
         !key.hardware_profile_id.empty() && !key.software_profile_id.empty();
}

std::string attempt_header_text(const Attempt& attempt) {
  return canonical_json(attempt_header_json(attempt));
}

void sort_newest_first(std::vector<StoredRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const StoredRow& a, const StoredRow& b) {
    if (a.instant != b.instant) return a.instant > b.instant;  // nullopt below every instant
    if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
    return a.seq > b.seq;
  });
}

namespace {

std::mutex g_damaged_mutex;
std::vector<DamagedRecord> g_damaged;

/// A row the fast reader does not take (a legacy layout, damage), read by the strict
/// reader, which says what is wrong.
NormalizedRecord read_stored_row_strictly(const StoredRow& row, const std::string& store_url) {
  const std::string source = store_url + " (record " + row.record_id + ")";
  Json json = Json::parse(row.json, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    throw Error(ExitCode::kDataError,
                source +
                    ": the stored JSON does not parse. The database is damaged; restore "
                    "it from a backup");
  }
  json["record_id"] = row.record_id;  // kept in its own column, not in the content
  return normalized_record_from_json(json, source);
}

}  // namespace

void note_damaged_record(const DamagedRecord& record) {
  const std::lock_guard lock(g_damaged_mutex);
  for (const auto& known : g_damaged) {
    if (known.store == record.store && known.record_id == record.record_id &&
        known.attempt_id == record.attempt_id) {
      return;
    }
  }
  g_damaged.push_back(record);
  if (record.record_id.empty()) {
    std::cerr << "perfgate: warning: " << record.store << ": attempt " << record.attempt_id
              << " is damaged: " << record.why
              << ". Its records are left out; the other attempts are read. Run 'perfgate "
                 "store check' to list every damaged record, and restore the store from a "
                 "backup\n";
    return;
  }
  std::cerr << "perfgate: warning: " << record.store << ": record " << record.record_id
            << " of attempt " << record.attempt_id << " is damaged: "
            << (record.why.empty() ? "its content no longer matches its id" : record.why)
            << ". It is left out; the other records are read. Run 'perfgate store check' to "
               "list every damaged record, and restore the store from a backup\n";
}

std::vector<DamagedRecord> damaged_records_seen() {
  const std::lock_guard lock(g_damaged_mutex);
  return g_damaged;
}

std::vector<StoredRecord> read_stored_rows(std::vector<StoredRow>&& rows,
                                           const std::string& store_url, bool strict) {
  std::vector<StoredRecord> found(rows.size());
  std::vector<char> damaged(rows.size(), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    found[i].attempt_id = std::move(rows[i].attempt_id);
    found[i].eligible = rows[i].eligible;
  }
  // Reading the records' JSON is most of the time of a long listing (a dashboard of
  // 100,000 records): each row is independent, so every core reads some. The first bad
  // row in listing order is the one reported, whatever the threads did first.
  std::vector<std::exception_ptr> failures(rows.size());
  parallel_for(rows.size(), [&](std::size_t i) {
    try {
      // A record perfgate wrote reads straight into its struct; anything else (a legacy
      // layout, damage) takes the strict reader, which says what is wrong.
      if (auto fast = read_current_record_fast(rows[i].json, rows[i].record_id)) {
        found[i].record = std::move(*fast);
      } else {
        found[i].record = read_stored_row_strictly(rows[i], store_url);
      }
      // The stored text is the content the id is the digest of: one SHA-256 checks it.
      // Text written otherwise (another serialisation of the same content) is checked on
      // the content it holds.
      if (sha256_hex(rows[i].json) != rows[i].record_id &&
          sha256_hex(record_content_text(found[i].record)) != rows[i].record_id) {
        damaged[i] = 1;
      }
    } catch (...) {
      failures[i] = std::current_exception();
    }
  });
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  if (std::find(damaged.begin(), damaged.end(), 1) == damaged.end()) return found;
  std::vector<StoredRecord> intact;
  intact.reserve(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (!damaged[i]) {
      intact.push_back(std::move(found[i]));
      continue;
    }
    if (strict) {
      throw Error(ExitCode::kDataError,
                  store_url + ": record " + rows[i].record_id +
                      " is damaged: its content no longer matches its id. Nothing was written "
                      "from it. Run 'perfgate store check' on this store to list every damaged "
                      "record, and restore it from a backup");
    }
    note_damaged_record({store_url, rows[i].record_id, found[i].attempt_id, ""});
  }
  return intact;
}

Attempt attempt_from_stored_texts(const std::string& header,
                                  const std::vector<std::pair<std::string, std::string>>& records,
                                  const std::string& source) {
  Json json = Json::parse(header, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    throw Error(ExitCode::kDataError, source +
                                          ": the attempt's stored JSON does not parse. The "
                                          "database is damaged; restore it from a backup");
  }
  json["records"] = Json::array();
  Attempt attempt = attempt_from_json(json, source);
  // The records read as a listing reads them (fast, or strictly with the reason).
  std::vector<StoredRow> rows(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    rows[i].record_id = records[i].first;
    rows[i].json = records[i].second;
  }
  for (auto& stored : read_stored_rows(std::move(rows), source, /*strict=*/true)) {
    attempt.records.push_back(std::move(stored.record));
  }
  return attempt;
}

std::vector<Approval> approvals_from_rows(const std::vector<std::array<std::string, 3>>& rows) {
  std::vector<Approval> approvals;
  for (const auto& [approval_id, record_id, created_at] : rows) {
    if (approvals.empty() || approvals.back().approval_id != approval_id) {
      approvals.push_back({approval_id, {}, created_at});
    }
    approvals.back().record_ids.push_back(record_id);
  }
  for (auto& approval : approvals) {
    std::sort(approval.record_ids.begin(), approval.record_ids.end());
  }
  return approvals;
}

}  // namespace perfgate
