#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "model/json.hpp"
#include "model/raw_record.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A record with something in every member raw_record_text writes itself (runs, reported
// values, metrics, summaries) and in the ones it hands to the JSON writer, including the
// values whose text is easy to get wrong: whole and tiny doubles, NaN and infinity, text
// with quotes, control characters and bytes that are not UTF-8.
RawRecord rich_record() {
  RawRecord record;
  record.identity.benchmark_id = "sort[n=1000]";
  record.identity.config_benchmark_id = "sort";
  record.identity.config_schema_version = 2;
  record.identity.workload_id = "w\"1";
  record.identity.benchmark_version = 7;
  record.identity.parameters = {{"n", "1000"}, {"algo", "qu\xC3\xA9ue"}};
  record.config_path = "bench/sort.toml";
  record.perfgate_version = "0.9.0";
  record.num_warmup_runs = 1;
  record.num_measurement_runs = 2;
  record.success = false;
  record.failure_reason = "exit status 3 \xFF\xFE then \t tab";
  RunObservation warmup;
  warmup.index = 0;
  warmup.warmup = true;
  warmup.wall_s = 2.0;
  warmup.user_s = 1e-05;
  warmup.system_s = 0.0;
  warmup.peak_rss_mb = 1.08203125;
  RunObservation failed;
  failed.index = 1;
  failed.ok = false;
  failed.failure = "timed out after 2 s";
  failed.wall_s = 0.004516040912130847;
  failed.user_s = std::numeric_limits<double>::infinity();
  failed.system_s = -0.0;
  failed.peak_rss_mb = 123456789012345680000.0;
  failed.reported = {{"decode", 0.25}, {"a\"b", std::nan("")}, {"\x01z", 3.0}};
  record.runs = {warmup, failed};
  record.metrics["latency"] = {
      {"latency", "s", Direction::kLowerIsBetter}, {0.1, 2.0, std::nan(""), -1.5e-07}, {}};
  record.metrics["latency"].summary.count = 4;
  record.metrics["latency"].summary.mean = 0.5;
  record.metrics["latency"].summary.stdev = std::numeric_limits<double>::quiet_NaN();
  record.metrics["throughput"] = {{"throughput", "items/s", Direction::kHigherIsBetter}, {}, {}};
  record.missing_components = {"parse"};
  record.warnings = {"load 3.1 above 2 cores"};
  record.static_verdict.selected_block = "default";
  record.static_verdict.checks = {{"latency", "mean", 0.5, 1.0, false, false}};
  record.regression_thresholds = {{"latency", {{"pct", 10}, {"abs", 0.0}}}};
  record.quality_metadata = {{"cv", 0.01}, {"notes", Json::array()}};
  record.recipe = {{"command", {"/bin/sort", "-n"}}, {"env", Json::object()}};
  record.recipe_fingerprint = "rcp-1234";
  record.provenance.timestamp = "2026-12-06T12:00:00Z";
  record.provenance.device = "cpu";
  record.provenance.hardware_profile = {{"cores", 2u}, {"model", "x"}, {"mhz", -1}};
  record.provenance.hardware_profile_id = "hw-ab";
  record.provenance.software_profile_id = "sw-cd";
  record.provenance.environment_fingerprint = "env-ef";
  record.provenance.ci = {{"provider", nullptr}};
  record.worker_log_path = "worker_logs/w.log";
  record.machine_state = {{"load_start", 0.5}, {"steal", {1, 2.5}}};
  return record;
}

TEST(RawRecordText, IsExactlyWhatNlohmannDumpsOfTheSameRecord) {
  const RawRecord record = rich_record();
  const std::string text = raw_record_text(record);
  EXPECT_EQ(text, pretty_json(to_json(record)));
  // The members it writes itself are really there, in their place (not nulls left by the
  // split between the two writers).
  EXPECT_NE(text.find("\"runs\": [\n    {\n      \"failure\": null,\n      \"index\": 0,"),
            std::string::npos);
  EXPECT_NE(text.find("\"samples\": [\n        0.1,\n        2.0,\n        null,\n"
                      "        -1.5e-07\n      ],"),
            std::string::npos);
}

TEST(RawRecordText, WritesARecordWithNoRunsNoMetricsAndNoMachineStateAsNlohmannDoes) {
  RawRecord record;
  record.identity.benchmark_id = "empty";
  const std::string text = raw_record_text(record);
  EXPECT_EQ(text, pretty_json(to_json(record)));
  EXPECT_NE(text.find("\n  \"metrics\": {},\n"), std::string::npos);
  EXPECT_NE(text.find("\n  \"runs\": [],\n"), std::string::npos);
  EXPECT_EQ(text.find("machine_state"), std::string::npos);
}

TEST(RawRecordText, WritesManyRunsAsNlohmannDoes) {
  RawRecord record = rich_record();
  record.success = true;
  record.failure_reason.clear();
  record.runs.clear();
  MetricSeries& wall = record.metrics["latency"];
  wall.samples.clear();
  for (int i = 0; i < 500; ++i) {
    RunObservation run;
    run.index = i;
    run.wall_s = 0.001 + i * 1e-7;
    run.user_s = i % 3 == 0 ? 0.0 : 0.0004 * i;
    run.peak_rss_mb = 1.0 + i / 1024.0;
    if (i % 7 == 0) run.reported["decode"] = i / 3.0;
    record.runs.push_back(run);
    wall.samples.push_back(run.wall_s);
  }
  EXPECT_EQ(raw_record_text(record), pretty_json(to_json(record)));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
