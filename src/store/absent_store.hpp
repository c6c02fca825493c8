#pragma once
// A store that does not exist yet, seen by a command that must not create it
// (`compare --upload never`, `import --dry-run`; see open_judging_store): it holds nothing, so
// every record judged against it has no baseline, and it refuses to be written.
#include <memory>
#include <string>
#include <utility>

#include "store/store.hpp"

namespace perfgate {

class AbsentStore final : public Store {
 public:
  explicit AbsentStore(std::string url) : url_(std::move(url)) {}

  /// Error(kSoftware): a caller that only reads asked to write.
  using Store::append;
  AppendOutcome append(const Attempt& attempt, RepeatedMeasurements repeated) override;
  std::vector<std::string> already_stored(const std::vector<std::string>&) override { return {}; }
  std::vector<StoredRecord> baseline_records(const CohortKey&, std::size_t) override { return {}; }
  std::vector<StoredRecord> list_records(const RecordFilter&) override { return {}; }
  std::vector<CohortKey> list_cohorts() override { return {}; }
  std::vector<AttemptSummary> list_attempts() override { return {}; }
  std::optional<Attempt> read_attempt(const std::string&) override { return std::nullopt; }
  std::vector<Approval> list_approvals() override { return {}; }
  std::string revision() override { return ""; }
  /// Error(kSoftware), like append.
  void approve(const std::vector<std::string>& record_ids, const std::string& approval_id,
               const std::string& expected_revision) override;
  bool has_approval(const std::string&) override { return false; }
  std::string url() const override { return url_; }

 private:
  std::string url_;
};

}  // namespace perfgate
