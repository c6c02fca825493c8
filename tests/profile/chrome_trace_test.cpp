#include "profile/chrome_trace.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "model/error.hpp"
#include "profile/probe_report_reader.hpp"
#include "profile/report_merge.hpp"
#include "support/probe_report_fixture.hpp"

namespace perfgate::profile {
namespace PERFGATE_TEST_FILE {

ProbeReport fixture() {
  return read_probe_report(perfgate::testing::probe_report_json(), "fixture");
}

/// The trace as a viewer gets it: written to text and parsed back.
Json exported(const ProbeReport& report) {
  return Json::parse(chrome_trace(report, "probe.json"));
}

TEST(ChromeTrace, HasTheFieldsPerfettoNeedsOnEveryCompleteEvent) {
  const Json trace = exported(fixture());
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  ASSERT_TRUE(trace["traceEvents"].is_array());
  int complete = 0;
  for (const auto& event : trace["traceEvents"]) {
    ASSERT_TRUE(event["ph"].is_string());
    ASSERT_TRUE(event["pid"].is_number_integer());
    ASSERT_TRUE(event["tid"].is_number_integer());
    ASSERT_TRUE(event["name"].is_string());
    if (event["ph"] != "X") continue;
    ++complete;
    EXPECT_EQ(event["cat"], "region");
    EXPECT_TRUE(event["ts"].is_number());
    EXPECT_TRUE(event["dur"].is_number());
    EXPECT_EQ(event["pid"], 4242);
  }
  EXPECT_EQ(complete, 3);
}

TEST(ChromeTrace, NamesTheProcessAndEveryThreadFirst) {
  const Json events = exported(fixture())["traceEvents"];
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[0], Json::parse(R"({"name": "process_name", "ph": "M", "pid": 4242,
                                        "tid": 0, "args": {"name": "frames"}})"));
  EXPECT_EQ(events[1], Json::parse(R"({"name": "thread_name", "ph": "M", "pid": 4242,
                                        "tid": 0, "args": {"name": "main"}})"));
  EXPECT_EQ(events[2], Json::parse(R"({"name": "thread_name", "ph": "M", "pid": 4242,
                                        "tid": 1, "args": {"name": "worker"}})"));
}

TEST(ChromeTrace, WritesMicrosecondsWithWholeNanosecondsInTheReportOrder) {
  const Json events = exported(fixture())["traceEvents"];
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[3], Json::parse(R"({"name": "decode", "cat": "region", "ph": "X",
      "ts": 10.001, "dur": 30000.0, "pid": 4242, "tid": 0,
      "args": {"region_id": "frame/decode"}})"));
  EXPECT_EQ(events[4]["ts"], 0.25);
  EXPECT_EQ(events[5]["name"], "render");
  EXPECT_EQ(events[5]["ts"], 100000.123);
  EXPECT_EQ(events[5]["tid"], 1);
}

TEST(ChromeTrace, NamesAThreadTheReportDoesNotDescribeByItsIndex) {
  ProbeReport report = fixture();
  report.threads.pop_back();
  const Json events = exported(report)["traceEvents"];
  EXPECT_EQ(events[2]["args"]["name"], "thread 1");
}

TEST(ChromeTrace, PutsEachThreadOfAMergedReportUnderItsOwnProgramsPid) {
  ProbeReport second = read_probe_report(perfgate::testing::probe_report_json(), "b");
  second.target = {"/bin/upload", 5151, "upload"};
  const ProbeReport merged =
      merge_reports({{"a.json", read_probe_report(perfgate::testing::probe_report_json(), "a")},
                     {"b.json", second}});
  const Json trace = Json::parse(chrome_trace(merged, "merged"));
  std::map<long long, long long> pid_by_tid;
  std::vector<std::string> processes;
  for (const Json& event : trace["traceEvents"]) {
    if (event["name"] == "process_name") processes.push_back(event["args"]["name"]);
    if (event["ph"] == "X") pid_by_tid[event["tid"]] = event["pid"];
  }
  EXPECT_EQ(processes, (std::vector<std::string>{"frames", "upload"}));
  EXPECT_EQ(pid_by_tid.at(0), 4242);
  EXPECT_EQ(pid_by_tid.at(1), 4242);
  EXPECT_EQ(pid_by_tid.at(2), 5151);  // the second program's thread 0, shifted past the first's
  EXPECT_EQ(pid_by_tid.at(3), 5151);
}

TEST(ChromeTrace, RefusesAReportWrittenWithoutTracing) {
  ProbeReport report = fixture();
  report.trace.reset();
  try {
    chrome_trace(report, "probe.json");
    FAIL() << "exported a report without a trace";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_THAT(error.what(), ::testing::StartsWith("probe.json: trace: no trace events"));
    EXPECT_THAT(error.what(), ::testing::HasSubstr("PERFGATE_PROBE_TRACE=1"));
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::profile
