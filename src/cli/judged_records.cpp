#include "cli/judged_records.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "cli/terminal.hpp"
#include "model/attempt.hpp"
#include "model/error.hpp"
#include "report/comparison_summary.hpp"

namespace perfgate {
namespace {

bool fails_ci(const NormalizedRecord& record) {
  return record.comparison_status == kInfraError || record.comparison_status == kRegression ||
         record.comparison_status == kRecipeMismatch;
}

}  // namespace

UploadChoice resolve_upload_policy(const std::string& flag, const std::string& fallback) {
  const char* environment = std::getenv("PERFGATE_UPLOAD_POLICY");
  const std::string text = !flag.empty() ? flag : (environment ? environment : fallback);
  const std::optional<UploadPolicy> policy = parse_upload_policy(text);
  if (!policy) {
    throw Error(ExitCode::kUsage,
                "PERFGATE_UPLOAD_POLICY='" + text + "': use never, pass or always");
  }
  return {*policy, text};
}

std::string store_judged_records(Store& store, std::vector<NormalizedRecord>& records,
                                 const UploadChoice& upload, const std::string& created_at) {
  Attempt attempt;
  attempt.created_at = created_at;
  for (auto& record : records) {
    assign_record_id(record);
    if (should_upload(upload.policy, record)) attempt.records.push_back(record);
  }
  if (attempt.records.empty()) return "nothing stored (upload policy " + upload.text + ")";

  attempt.commit_sha = records.front().commit_sha.value_or("");
  attempt.run_source = attempt.records.front().run_source;
  attempt.success = std::all_of(attempt.records.begin(), attempt.records.end(),
                                [](const NormalizedRecord& r) { return r.success; });
  assign_attempt_id(attempt);
  const AppendOutcome outcome = store.append(attempt);
  return (outcome == AppendOutcome::kAppended ? "stored " : "already stored: ") +
         std::to_string(attempt.records.size()) + " record(s) in " + store.url() + " (attempt " +
         attempt.attempt_id.substr(0, 12) + ")";
}

void print_judged_records(const std::vector<NormalizedRecord>& records, bool json) {
  if (json) {
    Json list = Json::array();
    for (const auto& record : records) list.push_back(to_json(record));
    std::cout << pretty_json(list);
  } else {
    std::cout << render_comparison_table(records, stdout_supports_color());
  }
}

int judged_exit_status(const std::vector<NormalizedRecord>& records) {
  const bool failed = std::any_of(records.begin(), records.end(), fails_ci);
  return static_cast<int>(failed ? ExitCode::kFailure : ExitCode::kOk);
}

}  // namespace perfgate
