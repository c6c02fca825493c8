#include "gate/comparison_status.hpp"

#include <gtest/gtest.h>

#include "gate/normalized_fixtures.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

const std::string kRecipeB = "bbbbbbbbbbbb2222222222222222222222222222222222222222222222222222";
const std::string kRecipeC = "cccccccccccc3333333333333333333333333333333333333333333333333333";

NormalizedRecord classified(NormalizedRecord record, const ClassificationInputs& inputs) {
  classify(record, inputs);
  return record;
}

ClassificationInputs with_baseline(std::vector<NormalizedRecord> baseline) {
  ClassificationInputs inputs;
  inputs.baseline = std::move(baseline);
  return inputs;
}

ClassificationInputs statically_breached() {
  ClassificationInputs inputs;
  inputs.static_breach = true;
  inputs.static_breach_detail = "latency mean 2.1 s > 2 s";
  inputs.batch_has_static_breach = true;
  return inputs;
}

NormalizedRecord legacy_record() {
  NormalizedRecord record = v2_record({{"latency", 1.0}});
  record.config_schema_version = 1;
  record.workload_id.reset();
  record.variant_id.reset();
  record.benchmark_version.reset();
  return record;
}

// --- one test per status ---------------------------------------------------------------

TEST(ComparisonStatus, PassesARecordWhoseComparableBaselineShowsNoGatedRegression) {
  const NormalizedRecord r =
      classified(v2_record({{"latency", 5.1}}), with_baseline(flat_baseline("latency", 5.0)));
  EXPECT_EQ(r.comparison_status, "PASS");
  EXPECT_EQ(r.comparison_status_reason, "Comparable baseline found with no gated regressions");
  EXPECT_EQ(r.baseline_status, "compared");
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_EQ(r.comparisons[0].baseline, 5.0);
  EXPECT_TRUE(r.success);
  EXPECT_TRUE(r.baseline_eligible);
}

TEST(ComparisonStatus, ReportsGatedRegressionsByNameWithPercentAndAbsoluteDeltas) {
  std::vector<NormalizedRecord> baseline(
      5, v2_record({{"latency", 4.96}, {"memory", 5000.0}, {"throughput", 2.0}}));
  const NormalizedRecord r =
      classified(v2_record({{"memory", 5300.0}, {"latency", 5.58}, {"throughput", 2.01}}),
                 with_baseline(baseline));
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.comparison_status_reason,
            "gated metrics regressed against the rolling baseline: "
            "latency +12.5% (+0.62 s), memory +6% (+0.293 GiB)");
  EXPECT_EQ(r.baseline_status, "compared");
  EXPECT_TRUE(r.success) << "a gated regression is a successful measurement";
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, GivesADeltaInTheUnitTheTableShowsItsValuesIn) {
  std::vector<NormalizedRecord> baseline(5, v2_record({{"latency", 500e-9}}));
  NormalizedRecord current = v2_record({{"latency", 567e-9}});
  current.regression_thresholds["latency"] = {0.05, 10e-9, true};
  const NormalizedRecord r = classified(current, with_baseline(baseline));
  EXPECT_EQ(r.comparison_status_reason,
            "gated metrics regressed against the rolling baseline: latency +13.4% (+67 ns)");
}

TEST(ComparisonStatus, FormatsDeltasWithUpToThreeSignificantDigitsAndInfinityForAZeroBaseline) {
  std::vector<NormalizedRecord> baseline(
      5, v2_record({{"decode", 0.0}, {"latency", 3.0}, {"memory", 1000.0}}));
  const NormalizedRecord r =
      classified(v2_record({{"decode", 0.3}, {"latency", 3.6234}, {"memory", 3345.67}}),
                 with_baseline(baseline));
  EXPECT_EQ(r.comparison_status_reason,
            "gated metrics regressed against the rolling baseline: "
            "decode +inf% (+300 ms), latency +20.8% (+0.623 s), memory +235% (+2.29 GiB)");
}

TEST(ComparisonStatus, PassesAMetricThatExceedsItsPolicyButIsNotGated) {
  NormalizedRecord current = v2_record({{"latency", 6.0}});
  current.regression_thresholds["latency"].gated = false;
  const NormalizedRecord r = classified(current, with_baseline(flat_baseline("latency", 5.0)));
  EXPECT_EQ(r.comparison_status, "PASS");
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_TRUE(r.comparisons[0].threshold_exceeded);
  EXPECT_FALSE(r.comparisons[0].regressed);
}

TEST(ComparisonStatus, AsksForCalibrationWhenAV2RecordOpensANewCohort) {
  const NormalizedRecord r = classified(v2_record({{"latency", 1.0}}), {});
  EXPECT_EQ(r.comparison_status, "CALIBRATION_NEEDED");
  EXPECT_EQ(r.comparison_status_reason, "No baseline found for exact comparable identity");
  EXPECT_EQ(r.baseline_status, "initialized_new_cohort");
  EXPECT_TRUE(r.comparisons.empty());
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.baseline_eligible) << "a new cohort becomes eligible only through approval";
}

TEST(ComparisonStatus, ReportsARecipeMismatchWhenTrustedRecordsExistUnderOtherRecipes) {
  ClassificationInputs inputs;
  inputs.other_trusted_recipes = {kRecipeC, kRecipeB, kRecipeC, kRecipeA};
  const NormalizedRecord r = classified(v2_record({{"latency", 1.0}}), inputs);
  EXPECT_EQ(r.comparison_status, "RECIPE_MISMATCH");
  EXPECT_EQ(r.comparison_status_reason,
            "no baseline for recipe aaaaaaaaaaaa; trusted records of "
            "primes-sieve/single-thread/v1 exist under recipe(s) bbbbbbbbbbbb, cccccccccccc");
  EXPECT_EQ(r.baseline_status, "initialized_new_cohort");
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, AsksForCalibrationWhenTrustedRecordsShareTheRecipeOnOtherProfiles) {
  ClassificationInputs inputs;
  inputs.other_trusted_recipes = {kRecipeA};
  EXPECT_EQ(classified(v2_record({{"latency", 1.0}}), inputs).comparison_status,
            "CALIBRATION_NEEDED");
}

TEST(ComparisonStatus, ReportsAnInfraErrorForAV2RecordMissingIdentityFields) {
  NormalizedRecord record = v2_record({{"latency", 1.0}});
  record.variant_id.reset();
  record.hardware_profile_id.clear();
  const NormalizedRecord r = classified(record, with_baseline(flat_baseline("latency", 1.0)));
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  EXPECT_EQ(r.comparison_status_reason,
            "v2 record is missing required identity fields: variant_id, hardware_profile_id");
  EXPECT_EQ(r.baseline_status, "skipped_missing_identity");
  EXPECT_TRUE(r.comparisons.empty()) << "a record outside any cohort has nothing to compare";
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, ListsEveryMissingIdentityFieldInTheFixedOrder) {
  NormalizedRecord record = v2_record({{"latency", 1.0}});
  record.software_profile_id.clear();
  record.hardware_profile_id.clear();
  record.recipe_fingerprint.clear();
  record.benchmark_version.reset();
  record.variant_id = "";
  record.workload_id.reset();
  EXPECT_EQ(classified(record, {}).comparison_status_reason,
            "v2 record is missing required identity fields: workload_id, variant_id, "
            "benchmark_version, recipe_fingerprint, hardware_profile_id, software_profile_id");
}

TEST(ComparisonStatus, ReportsAnInfraErrorForAFailedRunWithoutAStaticBreach) {
  ClassificationInputs inputs = with_baseline(flat_baseline("latency", 1.0));
  inputs.run_succeeded = false;
  inputs.run_failure = "measured run 2: exit status 3";
  const NormalizedRecord r = classified(v2_record({{"latency", 1.0}}), inputs);
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  EXPECT_EQ(r.comparison_status_reason,
            "run failed with no attributable static-threshold breach: "
            "measured run 2: exit status 3");
  EXPECT_EQ(r.baseline_status, "skipped_failed_run");
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, ReportsARegressionForAStaticBreach) {
  const NormalizedRecord r = classified(v2_record({{"latency", 2.1}}), [] {
    ClassificationInputs inputs = statically_breached();
    inputs.baseline = flat_baseline("latency", 2.05);
    return inputs;
  }());
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.comparison_status_reason, "static threshold breached: latency mean 2.1 s > 2 s");
  EXPECT_EQ(r.baseline_status, "compared");
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, AttributesAFailedRunWithAStaticBreachToTheBreach) {
  ClassificationInputs inputs = statically_breached();
  inputs.run_succeeded = false;
  inputs.run_failure = "measured run 1: timed out after 2 s";
  const NormalizedRecord r = classified(v2_record({{"latency", 2.1}}), inputs);
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.comparison_status_reason, "static threshold breached: latency mean 2.1 s > 2 s");
  EXPECT_EQ(r.baseline_status, "skipped_failed_run");
  EXPECT_FALSE(r.success);
}

// --- legacy v1 ----------------------------------------------------------------------

TEST(ComparisonStatus, PassesALegacyV1RecordOnStaticThresholdsAlone) {
  const NormalizedRecord r =
      classified(legacy_record(), with_baseline(flat_baseline("latency", 0.1)));
  EXPECT_EQ(r.comparison_status, "PASS");
  EXPECT_EQ(r.comparison_status_reason, "legacy v1 record: gated by static thresholds only");
  EXPECT_EQ(r.baseline_status, "skipped_missing_identity");
  EXPECT_TRUE(r.comparisons.empty());
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.baseline_eligible) << "legacy records never join a baseline";
}

TEST(ComparisonStatus, ReportsAStaticBreachOfALegacyV1RecordAsARegression) {
  const NormalizedRecord r = classified(legacy_record(), statically_breached());
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.comparison_status_reason, "static threshold breached: latency mean 2.1 s > 2 s");
  EXPECT_EQ(r.baseline_status, "skipped_missing_identity");
}

TEST(ComparisonStatus, ReportsAnInfraErrorForALegacyV1RecordOfAFailedTestRunner) {
  ClassificationInputs inputs;
  inputs.run_rc = 2;
  const NormalizedRecord r = classified(legacy_record(), inputs);
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  EXPECT_EQ(r.comparison_status_reason,
            "test runner exited with status 2 with no attributable static-threshold breach");
}

// --- test-runner exit status (--run-rc) ---------------------------------------------

TEST(ComparisonStatus, ReportsAnInfraErrorWhenTheTestRunnerFailedWithNoBreachInTheBatch) {
  ClassificationInputs inputs = with_baseline(flat_baseline("latency", 1.0));
  inputs.run_rc = 1;
  const NormalizedRecord r = classified(v2_record({{"latency", 1.0}}), inputs);
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  EXPECT_EQ(r.comparison_status_reason,
            "test runner exited with status 1 with no attributable static-threshold breach");
  EXPECT_EQ(r.baseline_status, "compared");
  EXPECT_EQ(r.comparisons.size(), 1u) << "comparisons stay for the report";
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, KeepsTheRollingStatusOfACleanRecordWhenTheBreachIsElsewhereInTheBatch) {
  ClassificationInputs inputs = with_baseline(flat_baseline("latency", 1.0));
  inputs.run_rc = 1;
  inputs.batch_has_static_breach = true;
  const NormalizedRecord r = classified(v2_record({{"latency", 1.0}}), inputs);
  EXPECT_EQ(r.comparison_status, "PASS");
  EXPECT_TRUE(r.baseline_eligible);
}

TEST(ComparisonStatus, AttributesAFailedTestRunnerToTheRecordsOwnStaticBreach) {
  ClassificationInputs inputs = statically_breached();
  inputs.run_rc = 1;
  inputs.batch_has_static_breach = false;  // the record's own breach is part of the batch
  const NormalizedRecord r = classified(v2_record({{"latency", 2.1}}), inputs);
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.comparison_status_reason, "static threshold breached: latency mean 2.1 s > 2 s");
}

TEST(ComparisonStatus, IgnoresATestRunnerThatExitedWithZero) {
  ClassificationInputs inputs;
  inputs.run_rc = 0;
  EXPECT_EQ(classified(v2_record({{"latency", 1.0}}), inputs).comparison_status,
            "CALIBRATION_NEEDED");
}

// --- precedence ---------------------------------------------------------------------

TEST(ComparisonStatus, RanksMissingIdentityInfraErrorAboveAStaticRegression) {
  NormalizedRecord record = v2_record({{"latency", 2.1}});
  record.workload_id.reset();
  EXPECT_EQ(classified(record, statically_breached()).comparison_status, "INFRA_ERROR");
}

TEST(ComparisonStatus, RanksTestRunnerInfraErrorAboveAGatedRegression) {
  ClassificationInputs inputs = with_baseline(flat_baseline("latency", 5.0));
  inputs.run_rc = 1;
  const NormalizedRecord r = classified(v2_record({{"latency", 6.0}}), inputs);
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_TRUE(r.comparisons[0].regressed);
}

TEST(ComparisonStatus, RanksInfraErrorAboveARecipeMismatch) {
  ClassificationInputs inputs;
  inputs.run_rc = 1;
  inputs.other_trusted_recipes = {kRecipeB};
  EXPECT_EQ(classified(v2_record({{"latency", 1.0}}), inputs).comparison_status, "INFRA_ERROR");
}

TEST(ComparisonStatus, RanksAStaticRegressionAboveAGatedRegressionInTheReason) {
  ClassificationInputs inputs = statically_breached();
  inputs.baseline = flat_baseline("latency", 1.0);
  const NormalizedRecord r = classified(v2_record({{"latency", 2.1}}), inputs);
  EXPECT_EQ(r.comparison_status_reason, "static threshold breached: latency mean 2.1 s > 2 s");
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_TRUE(r.comparisons[0].regressed);
}

TEST(ComparisonStatus, RanksAStaticRegressionAboveARecipeMismatch) {
  ClassificationInputs inputs = statically_breached();
  inputs.other_trusted_recipes = {kRecipeB};
  const NormalizedRecord r = classified(v2_record({{"latency", 2.1}}), inputs);
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.baseline_status, "initialized_new_cohort");
}

TEST(ComparisonStatus, RanksAStaticRegressionAboveCalibration) {
  EXPECT_EQ(classified(v2_record({{"latency", 2.1}}), statically_breached()).comparison_status,
            "REGRESSION");
}

TEST(ComparisonStatus, RanksARecipeMismatchAboveCalibration) {
  ClassificationInputs inputs;
  inputs.other_trusted_recipes = {kRecipeB};
  EXPECT_EQ(classified(v2_record({{"latency", 1.0}}), inputs).comparison_status, "RECIPE_MISMATCH");
}

TEST(ComparisonStatus, RanksAGatedRegressionAbovePass) {
  EXPECT_EQ(classified(v2_record({{"latency", 6.0}}), with_baseline(flat_baseline("latency", 5.0)))
                .comparison_status,
            "REGRESSION");
}

// --- eligibility --------------------------------------------------------------------

TEST(ComparisonStatus, LeavesAPassingRecordFromAnUntrustedSourceIneligible) {
  NormalizedRecord record = v2_record({{"latency", 1.0}});
  record.run_source = "pr";
  const NormalizedRecord r = classified(record, with_baseline(flat_baseline("latency", 1.0)));
  EXPECT_EQ(r.comparison_status, "PASS");
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, MakesAPassingRecordEligibleFromAConfiguredTrustedSource) {
  NormalizedRecord record = v2_record({{"latency", 1.0}});
  record.run_source = "local";
  ClassificationInputs inputs = with_baseline(flat_baseline("latency", 1.0));
  inputs.trusted_run_sources = {"scheduled_main", "local"};
  EXPECT_TRUE(classified(record, inputs).baseline_eligible);
}

TEST(ComparisonStatus, NeverMakesACalibrationRecordEligibleEvenFromATrustedSource) {
  const NormalizedRecord r = classified(v2_record({{"latency", 1.0}}), {});
  EXPECT_EQ(r.run_source, "scheduled_main");
  EXPECT_FALSE(r.baseline_eligible);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// --- issue 10: records that measured nothing, and raw records that cannot be read ----------

TEST(ComparisonStatus, ReportsAnInfraErrorForARecordWithNoMeasuredMetric) {
  // Every metric missing or null: the record keeps its policies but has no values.
  NormalizedRecord record = v2_record({});
  record.regression_thresholds["latency"] = default_policy("latency");
  ClassificationInputs inputs = with_baseline(flat_baseline("latency", 1.0));
  inputs.trusted_run_sources = {"scheduled_main"};
  const NormalizedRecord r = classified(record, inputs);
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  EXPECT_EQ(r.comparison_status_reason,
            "no metric was measured (every metric is missing or null): the record cannot be "
            "gated. Check the benchmark's worker log");
  EXPECT_EQ(r.baseline_status, "skipped_no_metric");
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, ReportsAnInfraErrorForAMalformedRawRecordWithItsReason) {
  ClassificationInputs inputs;
  inputs.run_succeeded = false;
  inputs.malformed = "out/perf_x.json: metrics.latency.samples[1]: must be a number";
  const NormalizedRecord r = classified(v2_record({}), inputs);
  EXPECT_EQ(r.comparison_status, "INFRA_ERROR");
  EXPECT_EQ(r.comparison_status_reason,
            "the raw record cannot be read: out/perf_x.json: metrics.latency.samples[1]: must be "
            "a number");
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(ComparisonStatus, ReportsAThroughputDropAsANegativeChangeLikeEveryTable) {
  // 1.5 -> 1.2 units/s: 20% worse, by 0.3 units/s (policy 8% and 0.05).
  const NormalizedRecord r =
      classified(v2_record({{"throughput", 1.2}}), with_baseline(flat_baseline("throughput", 1.5)));
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  EXPECT_EQ(r.comparison_status_reason,
            "gated metrics regressed against the rolling baseline: throughput -20% (-0.3 units/s)");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
