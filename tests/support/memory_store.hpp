#pragma once
// An in-memory Store for tests of the logic above the store: records are listed newest
// first and baseline_records follows the interface's eligibility rules.
#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/error.hpp"
#include "model/instant.hpp"
#include "store/store.hpp"

namespace perfgate {

class MemoryStore final : public Store {
 public:
  using Store::append;
  AppendOutcome append(const Attempt& attempt, RepeatedMeasurements /*repeated*/) override {
    for (const auto& stored : attempts_) {
      if (stored.attempt_id == attempt.attempt_id) return AppendOutcome::kAlreadyPresent;
    }
    attempts_.push_back(attempt);
    for (const auto& record : attempt.records)
      records_.push_back({record, attempt.attempt_id, record.baseline_eligible});
    ++revision_;
    return AppendOutcome::kAppended;
  }

  std::vector<std::string> already_stored(const std::vector<std::string>& keys) override {
    std::vector<std::string> found;
    for (const auto& key : keys) {
      const bool stored =
          !key.empty() && std::any_of(records_.begin(), records_.end(), [&](const StoredRecord& s) {
            return s.record.record_id == key || s.record.raw_record_sha256 == key;
          });
      if (stored && std::find(found.begin(), found.end(), key) == found.end()) found.push_back(key);
    }
    return found;
  }

  std::vector<StoredRecord> baseline_records(const CohortKey& cohort, std::size_t count) override {
    std::vector<StoredRecord> out;
    for (const auto& stored : newest_first()) {
      if (stored.record.cohort() == cohort && stored.record.success && stored.eligible &&
          out.size() < count) {
        out.push_back(stored);
      }
    }
    return out;
  }

  std::vector<StoredRecord> list_records(const RecordFilter& filter) override {
    std::vector<StoredRecord> out;
    for (const auto& stored : newest_first()) {
      const NormalizedRecord& r = stored.record;
      if (!filter.benchmark_glob.empty() &&
          ::fnmatch(filter.benchmark_glob.c_str(), r.benchmark_id.c_str(), 0) != 0)
        continue;
      if (!filter.since.empty() && instant_before(r.timestamp, filter.since)) continue;
      if (filter.cohort && r.cohort() != filter.cohort) continue;
      if (!filter.workload_id.empty() && r.workload_id != filter.workload_id) continue;
      if (!filter.variant_id.empty() && r.variant_id != filter.variant_id) continue;
      if (filter.benchmark_version && r.benchmark_version != filter.benchmark_version) continue;
      out.push_back(stored);
      if (filter.limit != 0 && out.size() == filter.limit) break;
    }
    return out;
  }

  std::vector<CohortKey> list_cohorts() override {
    std::set<CohortKey> cohorts;
    for (const auto& stored : records_) {
      if (auto cohort = stored.record.cohort()) cohorts.insert(*cohort);
    }
    return {cohorts.begin(), cohorts.end()};
  }

  std::vector<AttemptSummary> list_attempts() override {
    std::vector<AttemptSummary> out;
    for (auto it = attempts_.rbegin(); it != attempts_.rend(); ++it) {
      out.push_back({it->attempt_id, it->created_at, it->commit_sha, it->run_source, it->success,
                     it->records.size()});
    }
    return out;
  }

  std::optional<Attempt> read_attempt(const std::string& attempt_id) override {
    for (const auto& stored : attempts_) {
      if (stored.attempt_id == attempt_id) return stored;
    }
    return std::nullopt;
  }

  std::vector<Approval> list_approvals() override {
    std::vector<Approval> out;
    for (const auto& [id, records] : approvals_) out.push_back({id, records, ""});
    return out;
  }

  std::string revision() override { return "rev-" + std::to_string(revision_); }

  void approve(const std::vector<std::string>& record_ids, const std::string& approval_id,
               const std::string& expected_revision) override {
    if (approvals_.contains(approval_id)) return;
    if (expected_revision != revision()) throw Error(ExitCode::kDataError, "store changed");
    for (const auto& id : record_ids) {
      auto it = std::find_if(records_.begin(), records_.end(),
                             [&](const StoredRecord& s) { return s.record.record_id == id; });
      if (it == records_.end()) throw Error(ExitCode::kDataError, "unknown record " + id);
    }
    for (auto& stored : records_) {
      if (std::find(record_ids.begin(), record_ids.end(), stored.record.record_id) !=
          record_ids.end())
        stored.eligible = true;
    }
    std::vector<std::string> sorted = record_ids;
    std::sort(sorted.begin(), sorted.end());
    approvals_.emplace(approval_id, sorted);
    ++revision_;
  }

  bool has_approval(const std::string& approval_id) override {
    return approvals_.contains(approval_id);
  }

  std::string url() const override { return "memory:"; }

 private:
  std::vector<StoredRecord> newest_first() const {
    std::vector<StoredRecord> out(records_.rbegin(), records_.rend());
    std::stable_sort(out.begin(), out.end(), [](const StoredRecord& a, const StoredRecord& b) {
      return instant_before(b.record.timestamp, a.record.timestamp);
    });
    return out;
  }

  std::vector<Attempt> attempts_;
  std::vector<StoredRecord> records_;
  std::map<std::string, std::vector<std::string>> approvals_;
  int revision_ = 0;
};

}  // namespace perfgate
