#include "report/store_report.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

NormalizedRecord v2_record() {
  NormalizedRecord r;
  r.record_id = "r1";
  r.benchmark_id = "sort";
  r.config_schema_version = 2;
  r.workload_id = "sort";
  r.variant_id = "std";
  r.benchmark_version = 3;
  r.recipe_fingerprint = "0123456789abcdef0123";
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-2";
  r.timestamp = "2026-11-30T10:00:00Z";
  r.run_source = "local";
  r.comparison_status = kPass;
  r.baseline_status = kBaselineCompared;
  r.metrics["latency"] = {0.25, "s", Direction::kLowerIsBetter};
  return r;
}

TEST(StoreReport, LabelsCohortsLegacyAndInvalidRecords) {
  NormalizedRecord v2 = v2_record();
  EXPECT_EQ(cohort_label(v2), "sort/std/v3 (recipe 0123456789ab, hw-1, sw-2)");
  NormalizedRecord legacy;
  legacy.benchmark_id = "old";
  legacy.device = "NVIDIA L40S";
  EXPECT_EQ(cohort_label(legacy), "Legacy v1 (old, NVIDIA L40S)");
  v2.variant_id.reset();
  EXPECT_EQ(cohort_label(v2), "Invalid v2 (sort)");
}

TEST(StoreReport, QuotesCsvFieldsAndDefusesSpreadsheetFormulas) {
  NormalizedRecord r = v2_record();
  r.benchmark_id = "=HYPERLINK(\"x\",\"y\")";
  r.commit_sha = "a,b";
  r.metrics["delta"] = {-1.5, "s", Direction::kLowerIsBetter};
  const std::string csv = render_report_csv({{r, "att", true}});
  const std::string row = csv.substr(csv.find("\r\n") + 2);
  EXPECT_EQ(row,
            "2026-11-30T10:00:00Z,\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",sort,std,3,"
            "0123456789abcdef0123,hw-1,sw-2,"
            "\"a,b\",local,PASS,compared,true,true,r1,-1.5,0.25\r\n");
  EXPECT_EQ(csv.substr(0, csv.find("\r\n")),
            "timestamp,benchmark_id,workload_id,variant_id,benchmark_version,recipe_fingerprint,"
            "hardware_profile_id,"
            "software_profile_id,commit_sha,run_source,comparison_status,baseline_status,eligible,"
            "success,record_id,"
            "delta (s),latency (s)");
}

TEST(StoreReport, EscapesRecordTextInMarkdown) {
  NormalizedRecord r = v2_record();
  r.benchmark_id = "a|b<script>";
  r.comparison_status_reason = "line one\nline two";
  const std::string md =
      render_report_markdown({{r, "att", false}}, {"sqlite:x.db", "2026-11-30T11:00:00Z", {}});
  EXPECT_NE(md.find("a\\|b\\<script\\>"), std::string::npos) << md;
  EXPECT_NE(md.find("line one line two"), std::string::npos);
  EXPECT_EQ(md.find("<script>"), std::string::npos);
}

TEST(StoreReport, SaysCountsAreAProxyWhereTheReportShowsThem) {
  NormalizedRecord r = v2_record();
  const auto markdown = [](const NormalizedRecord& record) {
    return render_report_markdown({{record, "att", false}}, {"sqlite:x.db", "now", {}});
  };
  const std::string note =
      "\nInstruction counts are a proxy for the work: they miss I/O, waiting, contention, "
      "memory bandwidth and a faster instruction mix; latency stays the truth "
      "(docs/measurement.md, \"What counts miss\").\n";
  EXPECT_EQ(markdown(r).find("proxy"), std::string::npos);
  r.metrics["decode.instructions"] = {4.2e7, "instructions", Direction::kLowerIsBetter};
  const std::string md = markdown(r);
  ASSERT_GE(md.size(), note.size());
  EXPECT_EQ(md.substr(md.size() - note.size()), note) << md;
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
