#include "diff/reason_codes.hpp"

#include <array>

namespace perfgate::diff {
namespace {

struct ReasonCode {
  std::string_view code;
  std::string_view short_code;
  Evidence evidence;
};

// Short codes are the seed tool's where it has one, so tables read the same in both tools.
constexpr std::array<ReasonCode, 33> kReasonCodes = {{
    // Clear gap (FAST/SLOW, or AMBG when cycles disagree or cannot be checked).
    {"clear_gap_confirmed_by_bulk_cycles", "bc-gap", Evidence::kBulkCycles},
    {"bulk_cycle_gap_not_confirmed", "bc-gap-miss", Evidence::kBulkCycles},
    {"clear_gap_confirmed_by_summary_cycles", "sc-gap", Evidence::kSummaryClock},
    {"summary_cycle_gap_not_confirmed", "sc-gap-miss", Evidence::kSummaryClock},
    {"missing_clock_rate", "clk-miss", Evidence::kSummaries},
    {"invalid_clock_rate", "clk-bad", Evidence::kSummaryClock},
    {"clear_gap_without_clock", "gap-no-clk", Evidence::kSummaries},
    // A side measured once: no spread, so no interval can say anything.
    {"single_sample", "one-sample", Evidence::kSummaries},
    // SAME tests on the summaries.
    {"noise_unavailable", "noise-miss", Evidence::kSummaries},
    {"missing_interval", "int-miss", Evidence::kNone},
    {"centers_not_close", "centers-far", Evidence::kSummaries},
    {"weak_interval_overlap", "weak-overlap", Evidence::kSummaries},
    {"noise_too_high", "noise-high", Evidence::kSummaries},
    {"same_summary", "sum-same", Evidence::kSummaries},
    {"same_without_clock_rate", "same-no-clk", Evidence::kSummaries},
    {"same_confirmed_by_cycles", "sc-same", Evidence::kSummaryClock},
    {"cycle_same_not_confirmed", "sc-same-miss", Evidence::kSummaryClock},
    // SAME tests on bulk samples.
    {"bulk_time_data_unusable", "bt-bad", Evidence::kBulkTimes},
    {"bulk_time_support_mismatch", "bt-sup-miss", Evidence::kBulkTimes},
    {"bulk_time_same", "bt-same", Evidence::kBulkTimes},
    {"bulk_time_same_without_cycles", "bt-same-no-cyc", Evidence::kBulkTimes},
    {"bulk_time_same_confirmed_by_summary_cycles", "bt-same-sc", Evidence::kBulkTimes},
    {"bulk_cycle_data_unusable", "bc-bad", Evidence::kBulkCycles},
    {"bulk_cycle_support_mismatch", "bc-sup-miss", Evidence::kBulkCycles},
    {"bulk_same", "bulk-same", Evidence::kBulkCycles},
    // Instruction counts (perfgate records): the same work, to the counts' resolution.
    {"same_count", "cnt-same", Evidence::kSummaries},
    // ????: nothing to compare.
    {"timing_summaries_missing", "summ-miss", Evidence::kNone},
    {"timing_center_missing", "center-miss", Evidence::kNone},
    {"timing_center_nonfinite", "center-nonfin", Evidence::kNone},
    {"timing_center_nonpositive", "center-nonpos", Evidence::kNone},
    {"state_skipped", "state-skip", Evidence::kNone},
    {"only_in_reference", "ref-only", Evidence::kNone},
    {"only_in_compare", "cmp-only", Evidence::kNone},
}};

const ReasonCode* find_reason(std::string_view code) {
  for (const ReasonCode& reason : kReasonCodes) {
    if (reason.code == code) return &reason;
  }
  return nullptr;
}

}  // namespace

std::string_view short_reason_code(std::string_view code) {
  const ReasonCode* reason = find_reason(code);
  return reason != nullptr ? reason->short_code : code;
}

Evidence evidence_of(std::string_view code) {
  const ReasonCode* reason = find_reason(code);
  return reason != nullptr ? reason->evidence : Evidence::kNone;
}

std::string_view to_string(DiffStatus status) {
  switch (status) {
    case DiffStatus::kSame:
      return "SAME";
    case DiffStatus::kFast:
      return "FAST";
    case DiffStatus::kSlow:
      return "SLOW";
    case DiffStatus::kAmbiguous:
      return "AMBG";
    case DiffStatus::kUnknown:
      return "????";
  }
  return "????";
}

std::string_view to_string(Evidence evidence) {
  switch (evidence) {
    case Evidence::kNone:
      return "none";
    case Evidence::kSummaries:
      return "summaries";
    case Evidence::kBulkTimes:
      return "bulk-times";
    case Evidence::kBulkCycles:
      return "bulk-cycles";
    case Evidence::kSummaryClock:
      return "summary-clock";
  }
  return "none";
}

}  // namespace perfgate::diff
