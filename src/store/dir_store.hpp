#pragma once
// The directory store (SPEC §12, `dir:PATH`): a folder of JSON files that a git branch
// can hold. <root>/store.json marks it; attempts/<attempt_id>.json and
// approvals/<approval_id>.json are created once and never changed. Writers take an
// flock on <root>/store.lock; readers need no lock because files appear whole.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "store/approval.hpp"
#include "store/store.hpp"

namespace perfgate {

inline constexpr int kDirStoreSchemaVersion = 1;

class DirStore final : public Store {
 public:
  /// Opens the folder, creating it (and its layout) when missing or empty.
  DirStore(std::string url, std::filesystem::path root);

  using Store::append;
  AppendOutcome append(const Attempt& attempt, RepeatedMeasurements repeated) override;
  std::vector<std::string> already_stored(const std::vector<std::string>& keys) override;
  std::vector<StoredRecord> baseline_records(const CohortKey& cohort, std::size_t count) override;
  std::vector<StoredRecord> list_records(const RecordFilter& filter) override;
  std::vector<CohortKey> list_cohorts() override;
  std::vector<AttemptSummary> list_attempts() override;
  std::optional<Attempt> read_attempt(const std::string& attempt_id) override;
  std::vector<Approval> list_approvals() override;
  std::string revision() override;
  void approve(const std::vector<std::string>& record_ids, const std::string& approval_id,
               const std::string& expected_revision) override;
  bool has_approval(const std::string& approval_id) override;
  std::string url() const override { return url_; }

 private:
  void initialise();
  /// Reads the attempt and approval files that appeared since the last call. Stored
  /// files never change, so what was read once stays valid.
  void refresh();
  void load_attempt(const std::filesystem::path& file);
  void load_approval(const std::filesystem::path& file);
  /// Every record, newest first, with `keep` deciding which.
  template <typename Keep>
  std::vector<StoredRecord> records_newest_first(Keep keep, std::size_t limit);

  std::string url_;
  std::filesystem::path root_;
  std::map<std::string, Attempt> attempts_;          ///< by attempt_id
  std::map<std::string, std::string> record_owner_;  ///< record_id -> attempt_id
  std::map<std::string, Approval> approvals_;        ///< by approval_id
  std::set<std::string> approved_records_;
  /// Attempts whose file is damaged (by file name), with what is wrong: left out whole,
  /// or without their damaged records, and refused to read_attempt.
  std::map<std::string, std::string> damaged_attempts_;
};

}  // namespace perfgate
