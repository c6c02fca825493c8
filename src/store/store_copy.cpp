#include "store/store_copy.hpp"

#include <algorithm>
#include <map>

#include "model/error.hpp"

namespace perfgate {
namespace {

Attempt read_listed_attempt(Store& store, const std::string& attempt_id) {
  auto attempt = store.read_attempt(attempt_id);
  if (!attempt) {
    throw Error(ExitCode::kDataError,
                store.url() + ": lists attempt " + attempt_id +
                    " but cannot give it back. The store is damaged; restore it from a backup");
  }
  return std::move(*attempt);
}

void verify(Store& source, Store& destination, const std::vector<std::string>& attempt_ids,
            StoreCopyOutcome& outcome) {
  for (const auto& id : attempt_ids) {
    const auto copied = destination.read_attempt(id);
    if (!copied) {
      throw Error(ExitCode::kDataError, destination.url() + ": attempt " + id +
                                            " is missing after the copy. Run the copy again");
    }
    // The append checked the source's ids against its content (check_attempt_content), so
    // a copy that reads back equal to the source, field by field, has content that gives
    // the same ids, without hashing every record again.
    if (*copied != read_listed_attempt(source, id)) {
      throw Error(ExitCode::kDataError, destination.url() + ": attempt " + id +
                                            " reads back differently from " + source.url() +
                                            ". Check who else writes to the destination");
    }
    ++outcome.verified;
  }
  std::map<std::string, std::vector<std::string>> held;
  for (auto& approval : destination.list_approvals()) {
    held[approval.approval_id] = std::move(approval.record_ids);
  }
  for (const auto& approval : source.list_approvals()) {
    const auto found = held.find(approval.approval_id);
    if (found == held.end() || found->second != approval.record_ids) {
      throw Error(ExitCode::kDataError,
                  destination.url() + ": approval " + approval.approval_id +
                      " does not name the same records as in " + source.url() +
                      " after the copy. Check who else writes to the destination");
    }
  }
}

}  // namespace

StoreCopyOutcome copy_store(Store& source, Store& destination, const StoreCopyProgress& progress) {
  StoreCopyOutcome outcome;
  // Oldest first, so that the destination's insertion order follows the source's.
  const auto summaries = source.list_attempts();
  std::vector<std::string> attempt_ids;
  for (auto it = summaries.rbegin(); it != summaries.rend(); ++it) {
    attempt_ids.push_back(it->attempt_id);
  }
  outcome.attempts = attempt_ids.size();
  for (std::size_t i = 0; i < attempt_ids.size(); ++i) {
    const Attempt attempt = read_listed_attempt(source, attempt_ids[i]);
    outcome.records += attempt.records.size();
    // A copy is exact: a source written before raw digests were unique keeps its repeats.
    if (destination.append(attempt, RepeatedMeasurements::kKeep) == AppendOutcome::kAppended) {
      ++outcome.attempts_copied;
      outcome.records_copied += attempt.records.size();
    }
    if (progress) progress(i + 1, attempt_ids.size());
  }
  const auto approvals = source.list_approvals();
  outcome.approvals = approvals.size();
  for (const auto& approval : approvals) {
    if (destination.has_approval(approval.approval_id)) continue;
    destination.approve(approval.record_ids, approval.approval_id, destination.revision());
    ++outcome.approvals_copied;
  }
  verify(source, destination, attempt_ids, outcome);
  return outcome;
}

}  // namespace perfgate
