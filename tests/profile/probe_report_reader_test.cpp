#include "profile/probe_report_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/probe_report_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::profile {
namespace PERFGATE_TEST_FILE {

using perfgate::testing::probe_report_json;
using ::testing::HasSubstr;

std::string rejection(const Json& document) {
  try {
    read_probe_report(document, "probe.json");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  return "accepted";
}

TEST(ProbeReportReader, ReadsEveryFieldAndWritesTheSameDocumentBack) {
  const Json document = probe_report_json();
  const ProbeReport report = read_probe_report(document, "probe.json");
  // Key for key, in the library's order: --format json reads like the file it came from.
  EXPECT_EQ(to_json(report).dump(), perfgate::testing::ordered_probe_report_json().dump());
  ASSERT_EQ(report.runs.size(), 2u);
  EXPECT_EQ(report.runs[1].regions[1].calls, 3);
  EXPECT_EQ(report.runs[1].residual_wall_time_fraction, 0.1);
  EXPECT_EQ(report.regions[1].parent, std::optional<std::string>("frame"));
  EXPECT_EQ(report.config.clock_hz, std::optional<double>(2899000000.0));
  EXPECT_EQ(report.trace->events[2].start_us, 100000.123456);
  EXPECT_EQ(report.thread_name(1), "worker");
  EXPECT_EQ(report.thread_name(7), "thread 7");
}

TEST(ProbeReportReader, IgnoresKeysTheContractDoesNotNameBecauseVersionOneMayGrow) {
  Json document = probe_report_json();
  document["future_field"] = {1, 2};
  document["runs"][0]["timing"]["device_time_us"] = 5.0;
  EXPECT_EQ(Json(to_json(read_probe_report(document, "probe.json"))), probe_report_json());
}

TEST(ProbeReportReader, ReadsAReportFromBeforeWarmupsDispatchedWorkAndTheByNameView) {
  Json document = probe_report_json();
  document["config"].erase("region_cost_ns");
  document["config"].erase("warmup_runs");
  document["config"].erase("disabled_by");
  for (Json& run : document["runs"]) {
    run.erase("warmup");
    run.erase("dispatched");
    run.erase("probe");
  }
  document["key_averages"].erase("by_name");
  document.erase("summary");
  const ProbeReport report = read_probe_report(document, "probe.json");
  EXPECT_FALSE(report.summary.has_value());
  EXPECT_FALSE(report.runs[0].warmup);
  EXPECT_TRUE(report.runs[0].dispatched.empty());
  EXPECT_FALSE(report.runs[0].probe.has_value());
  EXPECT_FALSE(report.config.warmup_runs.has_value());
  EXPECT_TRUE(report.key_averages.by_name.empty());
}

TEST(ProbeReportReader, ReadsTheSummaryAndRefusesOneThatCountsMoreListedRunsThanRuns) {
  Json document = probe_report_json();
  const ProbeReport report = read_probe_report(document, "probe.json");
  ASSERT_TRUE(report.summary.has_value());
  EXPECT_EQ(report.summary->measured_runs, 2);
  EXPECT_EQ(report.summary->regions[1].calls, 2.5);
  EXPECT_EQ(report.summary->regions[2].max_us, 80000.0);
  document["summary"]["listed_runs"] = 3;
  EXPECT_EQ(rejection(document),
            "probe.json: summary.runs: 2 runs, fewer than the 2 measured or 3 listed. runs counts "
            "every run, measured and listed ones included");
  document["summary"]["listed_runs"] = 2;
  document["summary"]["regions"][0]["region_id"] = "elsewhere";
  EXPECT_EQ(rejection(document),
            "probe.json: summary.regions[0].region_id: region \"elsewhere\" is not listed in "
            "regions[]. Describe every region id the report uses in regions[]");
}

TEST(ProbeReportReader, ReadsDispatchedRowsAndChecksTheirRegionIds) {
  Json document = probe_report_json();
  document["runs"][1]["dispatched"] = Json::parse(
      R"([{"thread_index": 2, "region_id": "frame/decode", "calls": 4, "wall_time_us": 8.0,
           "self_wall_time_us": 8.0, "wall_time_fraction": 0.00004}])");
  const ProbeReport report = read_probe_report(document, "probe.json");
  ASSERT_EQ(report.runs[1].dispatched.size(), 1u);
  EXPECT_EQ(report.runs[1].dispatched[0].thread_index, 2);
  EXPECT_EQ(report.runs[1].dispatched[0].time.calls, 4);
  document["runs"][1]["dispatched"][0]["region_id"] = "nowhere";
  EXPECT_EQ(rejection(document),
            "probe.json: runs[1].dispatched[0].region_id: region \"nowhere\" is not listed in "
            "regions[]. Describe every region id the report uses in regions[]");
}

TEST(ProbeReportReader, ReadsAReportWithoutTraceOrClockRate) {
  Json document = probe_report_json();
  document["trace"] = nullptr;
  document["config"]["clock"] = "steady_clock";
  document["config"]["clock_hz"] = nullptr;
  const ProbeReport report = read_probe_report(document, "probe.json");
  EXPECT_FALSE(report.trace.has_value());
  EXPECT_FALSE(report.config.clock_hz.has_value());
}

TEST(ProbeReportReader, RejectsAnUnknownSchemaVersionWithTheVersionItReads) {
  Json document = probe_report_json();
  document["schema_version"] = 2;
  EXPECT_EQ(rejection(document),
            "probe.json: schema_version: unknown schema_version 2. This perfgate reads "
            "schema_version 1; use the perfgate release that matches the probe library that "
            "wrote the file");
}

struct Malformation {
  std::string pointer;  ///< JSON pointer of the field to change
  Json value;           ///< its new value; a discarded value removes the field
  std::string message;  ///< expected start of the message after "probe.json: "
};

void PrintTo(const Malformation& malformation, std::ostream* out) {
  *out << malformation.pointer;
}

class ProbeReportRejection : public ::testing::TestWithParam<Malformation> {};

TEST_P(ProbeReportRejection, NamesTheFieldAndTheReason) {
  const Malformation& m = GetParam();
  Json document = probe_report_json();
  const Json::json_pointer pointer(m.pointer);
  if (m.value.is_discarded()) {
    document.at(pointer.parent_pointer()).erase(pointer.back());
  } else {
    document[pointer] = m.value;
  }
  EXPECT_THAT(rejection(document), HasSubstr("probe.json: " + m.message)) << m.pointer;
}

Json removed() {
  return Json::value_t::discarded;
}

INSTANTIATE_TEST_SUITE_P(
    EveryField, ProbeReportRejection,
    ::testing::Values(
        Malformation{"/schema_version", "1", "schema_version: expected an integer, found a string"},
        Malformation{"/created_at", removed(), "created_at: missing"},
        Malformation{"/perfgate_version", 1, "perfgate_version: expected a string"},
        Malformation{"/config/clock", "rdtsc", "config.clock: unknown clock \"rdtsc\""},
        Malformation{"/config/enabled", "yes",
                     "config.enabled: expected true or false, found a string"},
        Malformation{"/config/trace", removed(), "config.trace: missing"},
        Malformation{"/target/pid", 1.5, "target.pid: expected an integer"},
        Malformation{"/target", removed(), "target: missing"},
        Malformation{"/runs", Json::object(), "runs: expected an array"},
        Malformation{"/runs/1/run_index", -1, "runs[1].run_index: -1 is negative"},
        Malformation{"/runs/0/timing/wall_time_us", "100",
                     "runs[0].timing.wall_time_us: expected a number"},
        Malformation{"/runs/0/timing/cpu_time_us", -3.0,
                     "runs[0].timing.cpu_time_us: -3 is negative"},
        Malformation{"/runs/0/regions/2/calls", removed(), "runs[0].regions[2].calls: missing"},
        Malformation{"/runs/0/regions/0/self_wall_time_us", nullptr,
                     "runs[0].regions[0].self_wall_time_us: expected a number, found null"},
        Malformation{"/runs/1/regions/1/region_id", "paint",
                     "runs[1].regions[1].region_id: region \"paint\" is not listed in regions[]"},
        Malformation{"/runs/1/residual/wall_time_fraction", removed(),
                     "runs[1].residual.wall_time_fraction: missing"},
        Malformation{"/regions/0/id", "", "regions[0].id: empty"},
        Malformation{"/regions/2/id", "frame",
                     "regions[2].id: region id \"frame\" is listed twice"},
        Malformation{"/regions/1/parent", "draw", "regions[1].parent: unknown region \"draw\""},
        Malformation{"/regions/1/depth", 2,
                     "regions[1].depth: depth 2 under parent \"frame\" of depth 0"},
        Malformation{"/regions/0/depth", 1,
                     "regions[0].depth: depth 1 for a region without a parent"},
        Malformation{"/regions/2/line", "30", "regions[2].line: expected an integer"},
        Malformation{"/threads/1/name", removed(), "threads[1].name: missing"},
        Malformation{"/key_averages/self_time/0/runs", 1.5,
                     "key_averages.self_time[0].runs: expected an integer"},
        Malformation{"/key_averages/total_time/2/region_id", "gone",
                     "key_averages.total_time[2].region_id: region \"gone\" is not listed"},
        Malformation{"/trace/events/1/duration_us", -1.0,
                     "trace.events[1].duration_us: -1 is negative"},
        Malformation{"/trace/events/0/region_id", "gone",
                     "trace.events[0].region_id: region \"gone\" is not listed"},
        Malformation{"/trace/dropped", removed(), "trace.dropped: missing"},
        Malformation{"/warnings/0/code", 3, "warnings[0].code: expected a string"},
        Malformation{"/sources", Json({"a.json", 2}),
                     "sources[1]: expected a string, found an integer"}));

TEST(ProbeReportReader, RejectsADocumentThatIsNotAnObject) {
  EXPECT_THAT(rejection(Json::array()), HasSubstr("probe.json: (top level): expected an object"));
}

TEST(ProbeReportLoader, NamesTheFileAndTheByteOfInvalidJson) {
  TempDir dir;
  const auto path = dir.write("probe.json", "{\"schema_version\": 1,");
  try {
    load_probe_report(path);
    FAIL() << "accepted invalid JSON";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_THAT(error.what(), HasSubstr(path.string() + ": (top level): not valid JSON at byte"));
  }
}

TEST(ProbeReportLoader, ReportsAMissingFileAsNoInput) {
  TempDir dir;
  try {
    load_probe_report(dir / "absent.json");
    FAIL() << "accepted a missing file";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
    EXPECT_THAT(error.what(), HasSubstr("absent.json: no such file"));
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::profile
