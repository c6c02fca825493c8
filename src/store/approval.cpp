#include "store/approval.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "model/error.hpp"
#include "model/json_reader.hpp"

namespace perfgate {
namespace {

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

bool valid_approval_id(const std::string& id) {
  return !id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

std::vector<std::string> sorted_unique(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

Approval make_approval(const std::vector<std::string>& record_ids, const std::string& approval_id,
                       const std::string& store) {
  if (!valid_approval_id(approval_id)) {
    throw Error(ExitCode::kDataError, store + ": approval id '" + approval_id +
                                          "' is not 1 to 128 letters, digits, '-' or '_'. Use "
                                          "the manifest's digest");
  }
  if (record_ids.empty()) {
    throw Error(ExitCode::kDataError, store + ": approval " + approval_id +
                                          " names no records. List the records to approve");
  }
  return Approval{approval_id, sorted_unique(record_ids), utc_now()};
}

void check_repeated_approval(const std::string& store, const Approval& requested,
                             const std::vector<std::string>& stored_record_ids) {
  if (stored_record_ids == requested.record_ids) return;
  throw Error(ExitCode::kDataError,
              store + ": approval " + requested.approval_id + " is already stored with " +
                  std::to_string(stored_record_ids.size()) +
                  " other records. An approval id names one manifest; prepare a new manifest");
}

void check_revision(const std::string& store, const std::string& current,
                    const std::string& expected) {
  if (current == expected) return;
  throw Error(ExitCode::kDataError,
              store + ": the store changed since the approval was prepared (revision " + current +
                  ", expected " + expected +
                  "); nothing was approved. Prepare the approval again and review it");
}

void throw_unknown_records(const std::string& store, const std::string& approval_id,
                           const std::vector<std::string>& unknown) {
  constexpr std::size_t kShown = 3;
  std::string listed;
  for (std::size_t i = 0; i < unknown.size() && i < kShown; ++i) {
    listed += (i == 0 ? "" : ", ") + unknown[i];
  }
  if (unknown.size() > kShown)
    listed += " and " + std::to_string(unknown.size() - kShown) + " more";
  throw Error(ExitCode::kDataError,
              store + ": approval " + approval_id + " names records the store does not hold: " +
                  listed + "; nothing was approved. Prepare the approval from this store");
}

Json to_json(const Approval& approval) {
  return {{"approval_id", approval.approval_id},
          {"record_ids", approval.record_ids},
          {"created_at", approval.created_at}};
}

Approval approval_from_json(const Json& json, const std::string& source) {
  JsonObjectReader reader(json, source, "");
  Approval approval;
  approval.approval_id = reader.string("approval_id");
  const Json& ids = reader.array("record_ids");
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!ids[i].is_string()) {
      reader.fail("record_ids[" + std::to_string(i) + "]",
                  "expected a string, found " + json_type_name(ids[i]),
                  "Write each record id as a string");
    }
    approval.record_ids.push_back(ids[i].get<std::string>());
  }
  approval.record_ids = sorted_unique(approval.record_ids);
  approval.created_at = reader.string("created_at");
  reader.reject_unknown_keys();
  return approval;
}

}  // namespace perfgate
