#include <gtest/gtest.h>

#include "diff/reason_codes.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

TEST(ReasonCodes, HaveTheSeedToolsShortCodes) {
  EXPECT_EQ(short_reason_code("clear_gap_confirmed_by_bulk_cycles"), "bc-gap");
  EXPECT_EQ(short_reason_code("summary_cycle_gap_not_confirmed"), "sc-gap-miss");
  EXPECT_EQ(short_reason_code("missing_clock_rate"), "clk-miss");
  EXPECT_EQ(short_reason_code("bulk_time_same_confirmed_by_summary_cycles"), "bt-same-sc");
  EXPECT_EQ(short_reason_code("noise_too_high"), "noise-high");
  EXPECT_EQ(short_reason_code("state_skipped"), "state-skip");
}

TEST(ReasonCodes, HaveShortCodesForPerfgatesOwnReasons) {
  EXPECT_EQ(short_reason_code("clear_gap_without_clock"), "gap-no-clk");
  EXPECT_EQ(short_reason_code("only_in_reference"), "ref-only");
  EXPECT_EQ(short_reason_code("only_in_compare"), "cmp-only");
  EXPECT_EQ(short_reason_code("timing_summaries_missing"), "summ-miss");
}

TEST(ReasonCodes, ShowACodeWithoutAShortFormAsItIs) {
  EXPECT_EQ(short_reason_code("something_new"), "something_new");
  EXPECT_EQ(evidence_of("something_new"), Evidence::kNone);
}

TEST(ReasonCodes, NameTheEvidenceTheyRestOn) {
  EXPECT_EQ(evidence_of("bulk_same"), Evidence::kBulkCycles);
  EXPECT_EQ(evidence_of("bulk_time_same"), Evidence::kBulkTimes);
  EXPECT_EQ(evidence_of("same_confirmed_by_cycles"), Evidence::kSummaryClock);
  EXPECT_EQ(evidence_of("same_summary"), Evidence::kSummaries);
}

TEST(DiffStatusNames, AreTheFourLetterStatuses) {
  EXPECT_EQ(to_string(DiffStatus::kSame), "SAME");
  EXPECT_EQ(to_string(DiffStatus::kFast), "FAST");
  EXPECT_EQ(to_string(DiffStatus::kSlow), "SLOW");
  EXPECT_EQ(to_string(DiffStatus::kAmbiguous), "AMBG");
  EXPECT_EQ(to_string(DiffStatus::kUnknown), "????");
}

TEST(EvidenceNames, AreLowercaseWords) {
  EXPECT_EQ(to_string(Evidence::kNone), "none");
  EXPECT_EQ(to_string(Evidence::kSummaries), "summaries");
  EXPECT_EQ(to_string(Evidence::kBulkTimes), "bulk-times");
  EXPECT_EQ(to_string(Evidence::kBulkCycles), "bulk-cycles");
  EXPECT_EQ(to_string(Evidence::kSummaryClock), "summary-clock");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
