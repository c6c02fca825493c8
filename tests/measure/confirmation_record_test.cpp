#include "measure/confirmation_record.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A raw record of two measured runs with latency and memory, as `perfgate run` writes it.
Json first_record() {
  RawRecord record;
  record.identity.benchmark_id = "sort";
  record.num_measurement_runs = 2;
  record.runs = {{0, false, true, "", 1.0, 0.5, 0.1, 3.0, {}},
                 {1, false, true, "", 1.2, 0.6, 0.1, 3.2, {}}};
  record.metrics["latency"] = {{"latency", "s", Direction::kLowerIsBetter}, {1.0, 1.2}, {}};
  record.metrics["latency"].summary = summarize(record.metrics["latency"].samples);
  record.metrics["memory"] = {{"memory", "MB", Direction::kLowerIsBetter}, {3.0, 3.2}, {}};
  record.metrics["memory"].summary = summarize(record.metrics["memory"].samples);
  record.quality_metadata = {{"measurement_warnings", Json::array()}};
  return to_json(record);
}

// Three more runs: a warmup and two measured ones.
RawRecord confirmation_record() {
  RawRecord record;
  record.identity.benchmark_id = "sort";
  record.num_warmup_runs = 1;
  record.num_measurement_runs = 2;
  record.runs = {{0, true, true, "", 2.0, 0, 0, 0, {}},
                 {1, false, true, "", 1.1, 0, 0, 0, {}},
                 {2, false, true, "", 1.3, 0, 0, 0, {}}};
  record.metrics["latency"] = {{"latency", "s", Direction::kLowerIsBetter}, {1.1, 1.3}, {}};
  record.metrics["memory"] = {{"memory", "MB", Direction::kLowerIsBetter}, {3.1, 3.3}, {}};
  record.warnings = {"load 5.0 above 2 cores"};
  record.provenance.timestamp = "2026-12-04T10:00:00Z";
  record.machine_state = {{"load_1m_start", 5.0}};
  return record;
}

ConfirmationSubject subject() {
  return {first_record(),
          "runs/perf_sort.json",
          std::string(64, 'b'),
          "REGRESSION",
          {{"latency", "+9.0% worse (95%: +6.5% to +11.6%)"}}};
}

TEST(MergeConfirmation, AppendsTheSamplesAndRecomputesEachSummary) {
  const Json merged = merge_confirmation(subject(), confirmation_record());
  EXPECT_EQ(merged["metrics"]["latency"]["samples"], Json({1.0, 1.2, 1.1, 1.3}));
  EXPECT_EQ(merged["metrics"]["latency"]["summary"]["count"], 4);
  EXPECT_DOUBLE_EQ(merged["metrics"]["latency"]["summary"]["mean"].get<double>(), 1.15);
  EXPECT_DOUBLE_EQ(merged["metrics"]["latency"]["summary"]["median"].get<double>(), 1.15);
  EXPECT_EQ(merged["metrics"]["memory"]["samples"], Json({3.0, 3.2, 3.1, 3.3}));
  EXPECT_EQ(merged["num_measurement_runs"], 4);
}

TEST(MergeConfirmation, NumbersTheNewRunsAfterTheFirstOnesAndKeepsTheirWarnings) {
  const Json merged = merge_confirmation(subject(), confirmation_record());
  ASSERT_EQ(merged["runs"].size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(merged["runs"][i]["index"], i);
  EXPECT_EQ(merged["runs"][2]["warmup"], true);
  EXPECT_EQ(merged["warnings"], Json({"confirmation: load 5.0 above 2 cores"}));
}

TEST(MergeConfirmation, SaysWhatItConfirmsWhyAndWhereTheNewSamplesBegin) {
  const Json merged = merge_confirmation(subject(), confirmation_record());
  const Json& confirmation = merged["quality_metadata"]["confirmation"];
  EXPECT_EQ(confirmation["raw_record"], "runs/perf_sort.json");
  EXPECT_EQ(confirmation["raw_record_sha256"], std::string(64, 'b'));
  EXPECT_EQ(confirmation["runs_before"], 2);
  EXPECT_EQ(confirmation["runs_added"], 2);
  EXPECT_EQ(confirmation["first_samples"], Json({{"latency", 2}, {"memory", 2}}));
  EXPECT_EQ(confirmation["first_status"], "REGRESSION");
  EXPECT_EQ(
      confirmation["first_evidence"],
      Json::array({{{"metric", "latency"}, {"change", "+9.0% worse (95%: +6.5% to +11.6%)"}}}));
  EXPECT_EQ(confirmation["measured_at"], "2026-12-04T10:00:00Z");
  EXPECT_EQ(confirmation["machine_state"], Json({{"load_1m_start", 5.0}}));
  // What was there stays.
  EXPECT_EQ(merged["quality_metadata"]["measurement_warnings"], Json::array());
  EXPECT_EQ(confirmed_raw_sha256(merged), std::string(64, 'b'));
  EXPECT_EQ(confirmed_raw_sha256(first_record()), "");
}

TEST(MergeConfirmation, RefusesAConfirmationThatFailedOrLacksAMetric) {
  RawRecord failed = confirmation_record();
  failed.success = false;
  failed.failure_reason = "measured run 1 of 2: exit status 3";
  try {
    merge_confirmation(subject(), failed);
    FAIL() << "a failed confirmation was merged";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "the confirmation runs failed: measured run 1 of 2: exit status 3");
  }
  RawRecord partial = confirmation_record();
  partial.metrics.erase("memory");
  try {
    merge_confirmation(subject(), partial);
    FAIL() << "a confirmation without memory was merged";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "the confirmation runs did not measure memory, which the first runs did; the "
              "first verdict stands");
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
