// End-to-end with the real probe library: a program linked with perfgate-probe writes its
// report, and `perfgate run` and `perfgate profile` read it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;

TEST(ProbeIntegration, TurnsTheRegionsOfAnInstrumentedProgramIntoComponentMetrics) {
  TempDir dir;
  dir.write("p.toml", std::string("benchmark_id = \"probed\"\ncommand = [\"") +
                          PERFGATE_PROBE_EXIT_PROGRAM + R"("]
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
)");
  const auto result = run_perfgate({"run", "p.toml", "--results-dir", "out", "--json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json metrics = Json::parse(result.out)[0]["metrics"];
  // The program's two finished runs hold one top-level region each; "setup" ran outside
  // any run and "frame" was still open at exit, so neither is a metric.
  for (const char* region : {"finished_thread_work", "sleeper_work"}) {
    ASSERT_TRUE(metrics.contains(region)) << metrics.dump();
    EXPECT_EQ(metrics[region]["samples"].size(), 2u);
    EXPECT_EQ(metrics[region]["unit"], "s");
    EXPECT_GE(metrics[region]["samples"][0].get<double>(), 0.0);
  }
  EXPECT_FALSE(metrics.contains("setup"));
  EXPECT_FALSE(metrics.contains("frame"));
}

TEST(ProbeIntegration, ShowsAndTracesTheReportTheLibraryWrote) {
  TempDir dir;
  const std::string command = "PERFGATE_PROBE_OUT='" + (dir / "probe.json").string() +
                              "' PERFGATE_PROBE_TRACE=1 '" + PERFGATE_PROBE_EXIT_PROGRAM + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const auto shown = run_perfgate({"profile", "probe.json", "--trace", "trace.json"}, dir.path());
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_THAT(shown.out, HasSubstr("| `finished_thread_work` | 1 | "));
  EXPECT_THAT(shown.out, HasSubstr("| `REGION_OPEN_AT_EXIT` | "));
  EXPECT_THAT(shown.out, HasSubstr("| `RUN_OPEN_AT_EXIT` | "));
  const Json trace = Json::parse(read_text_file(dir / "trace.json"));
  int complete = 0;
  for (const auto& event : trace["traceEvents"]) complete += event["ph"] == "X" ? 1 : 0;
  EXPECT_GE(complete, 2);
  EXPECT_EQ(trace["traceEvents"][0]["name"], "process_name");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
