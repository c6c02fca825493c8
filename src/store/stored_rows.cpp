#include "store/stored_rows.hpp"

#include <algorithm>
#include <exception>

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

std::vector<StoredRecord> read_stored_rows(std::vector<StoredRow>&& rows,
                                           const std::string& store_url) {
  std::vector<StoredRecord> found(rows.size());
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
        return;
      }
      const std::string source = store_url + " (record " + rows[i].record_id + ")";
      Json json = Json::parse(rows[i].json, nullptr, false);
      if (json.is_discarded() || !json.is_object()) {
        throw Error(ExitCode::kDataError,
                    source +
                        ": the stored JSON does not parse. The database is damaged; restore "
                        "it from a backup");
      }
      json["record_id"] = rows[i].record_id;  // kept in its own column, not in the content
      found[i].record = normalized_record_from_json(json, source);
    } catch (...) {
      failures[i] = std::current_exception();
    }
  });
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  return found;
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
  for (auto& stored : read_stored_rows(std::move(rows), source)) {
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
