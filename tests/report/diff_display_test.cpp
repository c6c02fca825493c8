#include "report/diff_display.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "report/bulk_debug_python.hpp"
#include "report/diff_json.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using diff::DiffStatus;

ingest::ResultState make_state(const std::string& key, const std::string& t) {
  ingest::ResultState state;
  state.benchmark = "copy";
  state.device = 0;
  state.state_key = key;
  state.axis_values = {{"T", t}};
  state.timing_name = "gpu_time";
  return state;
}

diff::StateComparison decided(DiffStatus status, const std::string& code, double ref, double cmp) {
  diff::StateComparison c;
  c.status = status;
  c.reason = {code, "because", 0};
  c.robust = true;
  c.reference = diff::SideEstimate{ref, 0.004, diff::TimingInterval{ref * 0.996, ref * 1.002}};
  c.compare = diff::SideEstimate{cmp, 0.004, diff::TimingInterval{cmp * 0.996, cmp * 1.002}};
  c.difference = cmp - ref;
  c.relative_difference = (cmp - ref) / ref;
  return c;
}

class DiffDisplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    same = make_state("T=F32", "F32");
    slow = make_state("T=U8", "U8");
    gone = make_state("T=F64", "F64");
    diff::DiffSection section;
    section.benchmark = "copy";
    section.reference_device = ingest::ResultDevice{0, "GPU 0"};
    section.compare_device = ingest::ResultDevice{0, "GPU 0"};
    section.axis_names = {"T"};
    section.rows.push_back({{&same, &same, 0, 1},
                            decided(DiffStatus::kSame, "same_confirmed_by_cycles", 1e-3, 1e-3),
                            std::nullopt,
                            std::nullopt});
    section.rows.push_back(
        {{&slow, &slow, 0, 1},
         decided(DiffStatus::kSlow, "clear_gap_confirmed_by_summary_cycles", 1e-3, 1.2e-3),
         std::nullopt,
         std::nullopt});
    section.rows.push_back({{&gone, nullptr, 0, 1},
                            diff::unknown_state({"only_in_reference", "only there"}),
                            std::nullopt,
                            std::nullopt});
    outcome.sections.push_back(section);
    outcome.counts.total = 2;
    outcome.counts.same = 1;
    outcome.counts.slow = 1;
    outcome.counts.only_in_reference = 1;
  }

  ingest::ResultState same, slow, gone;
  diff::DiffOutcome outcome;
};

TEST_F(DiffDisplayTest, RendersATablePerDeviceSectionAndTheSummary) {
  DiffRenderOptions options;
  options.marks = StatusMarks::kEmoji;
  EXPECT_EQ(
      render_diff(outcome, options),
      "# copy\n\n"
      "## [0] GPU 0\n\n"
      "|  T  |                       Ref |                       Cmp |    Change | Status  |\n"
      "|:---:|--------------------------:|--------------------------:|----------:|:-------:|\n"
      "| F32 | 1.000 [-0.004, +0.002] ms | 1.000 [-0.004, +0.002] ms |   (+0.0%) | "
      "\xF0\x9F\x94\xB5 SAME |\n"
      "| U8  | 1.000 [-0.004, +0.002] ms | 1.200 [-0.005, +0.002] ms | >= +19.3% | "
      "\xF0\x9F\x94\xB4 SLOW |\n"
      "| F64 |                       n/a |                       n/a |           | "
      "\xF0\x9F\x9F\xA1 ???? |\n"
      "\n"
      "# Summary\n\n"
      "- Total matches: 2\n"
      "  - Unchanged   (SAME): 1\n"
      "  - Improvement (FAST, clear gap, compare is faster): 0\n"
      "  - Regression  (SLOW, clear gap, compare is slower): 1\n"
      "  - Ambiguous   (AMBG, the evidence decides neither way): 0\n"
      "  - Unknown     (????, a side is skipped or unusable): 0\n"
      "- Geometric mean of Cmp / Ref (gpu_time): 1.095x (+9.5%) over 2 matches\n"
      "- Not matched (????, in one file only): 1 (reference only 1, compare only 0)\n");
}

TEST_F(DiffDisplayTest, LeavesTheIntervalBoundsOutOfATableTooWideForTheTerminal) {
  DiffRenderOptions options;
  options.marks = StatusMarks::kEmoji;
  options.max_width = 80;  // the full table above is 85 columns wide
  const std::string text = render_diff(outcome, options);
  EXPECT_EQ(text.substr(0, text.find("# Summary")),
            "# copy\n\n"
            "## [0] GPU 0\n\n"
            "|  T  |      Ref |      Cmp |    Change | Status  |\n"
            "|:---:|---------:|---------:|----------:|:-------:|\n"
            "| F32 | 1.000 ms | 1.000 ms |   (+0.0%) | \xF0\x9F\x94\xB5 SAME |\n"
            "| U8  | 1.000 ms | 1.200 ms | >= +19.3% | \xF0\x9F\x94\xB4 SLOW |\n"
            "| F64 |      n/a |      n/a |           | \xF0\x9F\x9F\xA1 ???? |\n"
            "(interval bounds left out to fit 80 columns; COLUMNS=85 shows them)\n"
            "\n");
  options.max_width = 85;  // exactly wide enough: every column stays
  EXPECT_EQ(render_diff(outcome, options),
            render_diff(outcome, DiffRenderOptions{.marks = StatusMarks::kEmoji}));
}

TEST_F(DiffDisplayTest, NarrowsExplainAndSimpleToCentresWithEveryDecisionColumn) {
  DiffRenderOptions options;
  options.max_width = 60;
  options.display = DiffDisplay::kExplain;
  const std::string explain = render_diff(outcome, options);
  EXPECT_NE(explain.find("|  T  |      Ref |      Cmp | Reason   |    Change | Status |\n"
                         "|:---:|---------:|---------:|:---------|----------:|:------:|\n"
                         "| F32 | 1.000 ms | 1.000 ms | sc-same  |   (+0.0%) |  SAME  |\n"),
            std::string::npos)
      << explain;
  EXPECT_NE(explain.find("(interval bounds and noise left out to fit 60 columns; COLUMNS=121 "
                         "shows them)\n"),
            std::string::npos)
      << explain;
  options.display = DiffDisplay::kSimple;
  const std::string simple = render_diff(outcome, options);
  EXPECT_NE(simple.find("| U8  | 1.000 ms | 1.200 ms |  +20.0% | >= +19.3% |  SLOW  |\n"),
            std::string::npos)
      << simple;
  EXPECT_NE(simple.find("(interval spans left out to fit 60 columns; COLUMNS=82 shows them)\n"),
            std::string::npos)
      << simple;
}

TEST_F(DiffDisplayTest, HidesRowsBelowTheThresholdButNeverUnknownOnes) {
  DiffRenderOptions options;
  options.threshold = 0.1;
  const std::string text = render_diff(outcome, options);
  EXPECT_EQ(text.find("| F32 |"), std::string::npos) << text;
  EXPECT_NE(text.find("| U8  |"), std::string::npos) << text;
  EXPECT_NE(text.find("| F64 |"), std::string::npos) << text;
  EXPECT_NE(text.find("Total matches: 2"), std::string::npos);
}

TEST_F(DiffDisplayTest, ColoursStatusesOnlyWhenAsked) {
  EXPECT_EQ(mark_status(DiffStatus::kSlow, StatusMarks::kColor), "\x1b[31mSLOW\x1b[0m");
  EXPECT_EQ(mark_status(DiffStatus::kFast, StatusMarks::kPlain), "FAST");
  EXPECT_EQ(mark_status(DiffStatus::kAmbiguous, StatusMarks::kEmoji), "\xF0\x9F\xA4\xB7 AMBG");
}

TEST_F(DiffDisplayTest, ShowsTheStatesOwnSpellingOfAnAxisValue) {
  ingest::ResultState state;
  state.state_key = "BlockSize=2^8 T=F32";
  state.axis_values = {{"BlockSize", "256"}, {"T", "F32"}, {"N", "7"}};
  EXPECT_EQ(axis_display(state, "BlockSize"), "2^8");
  EXPECT_EQ(axis_display(state, "T"), "F32");
  EXPECT_EQ(axis_display(state, "N"), "7");
}

TEST_F(DiffDisplayTest, WritesJsonWithEveryRowAndTheCounts) {
  diff::DiffConfig config;
  config.thresholds = *diff::preset_thresholds("default");
  const Json json = diff_to_json(outcome, config, "ref.json", "cmp.json", 0);
  EXPECT_EQ(json["diff_schema_version"], 1);
  ASSERT_EQ(json["sections"][0]["rows"].size(), 3u);
  const Json& slow_row = json["sections"][0]["rows"][1];
  EXPECT_EQ(slow_row["status"], "SLOW");
  EXPECT_EQ(slow_row["reason"]["code"], "clear_gap_confirmed_by_summary_cycles");
  EXPECT_EQ(slow_row["axis_values"][0]["value"], "U8");
  EXPECT_DOUBLE_EQ(slow_row["compare"]["center"].get<double>(), 1.2e-3);
  EXPECT_EQ(json["sections"][0]["rows"][2]["in_compare"], false);
  EXPECT_EQ(json["summary"]["slow"], 1);
  EXPECT_EQ(json["config"]["clear_gap"]["relative"], 0.005);
}

TEST_F(DiffDisplayTest, WritesJsonTextExactlyAsNlohmannDumpsTheSameDocument) {
  // Every kind of member: CPU rows, a U test, coverage figures, a section without devices,
  // non-finite numbers, ambiguous reasons, and names with bytes that are not UTF-8.
  ingest::ResultState odd = make_state("T=\xE2\x82 \"q\"\n", "\xFF");
  diff::StateComparison ambiguous =
      decided(DiffStatus::kAmbiguous, "bulk_time_support_mismatch", 2e-3, 2.1e-3);
  ambiguous.time_coverage = diff::CoverageFigures{0.5, 0.96, 1.0, 0.25};
  ambiguous.cycle_coverage = diff::CoverageFigures{1.0, 1.0, 1.0, 1.0};
  ambiguous.relative_difference = std::numeric_limits<double>::quiet_NaN();
  ambiguous.reference->noise = std::nullopt;
  ambiguous.u_test = diff::StateComparison::UTest{0.0312, 4.0, true, 5, 6};
  diff::DiffSection hosts;
  hosts.benchmark = "host \x80";
  hosts.axis_names = {"T", "\xC0\xAF"};
  hosts.rows.push_back({{&odd, &odd, 1, 2},
                        ambiguous,
                        decided(DiffStatus::kFast, "clear_gap_without_clock", 1e-3, 0.5e-3),
                        decided(DiffStatus::kSlow, "clear_gap_without_clock", 4e7, 4.1e7)});
  outcome.sections.push_back(hosts);
  outcome.counts.ambiguous = 1;
  outcome.counts.ambiguous_reasons["bulk_time_support_mismatch"] = {1, "sample \xFF times", 0.2};
  outcome.counts.cpu.total = 1;
  outcome.counts.cpu.fast = 1;
  outcome.counts.instructions.total = 1;
  outcome.counts.instructions.slow = 1;
  outcome.warnings = {"a warning", "bytes \xF0\x9F"};
  diff::DiffConfig config;
  config.preset = "strict";
  config.thresholds = *diff::preset_thresholds("strict");

  const std::string text = diff_json_text(outcome, config, "ref \xFE.json", "cmp.json", 0);
  EXPECT_EQ(Json::parse(text).dump(2, ' ', false, Json::error_handler_t::replace), text);
  const Json json = diff_to_json(outcome, config, "ref \xFE.json", "cmp.json", 0);
  const Json& row = json["sections"][1]["rows"][0];
  EXPECT_EQ(row["u_test"]["reference_count"], 5);
  EXPECT_EQ(row["relative_difference"], nullptr);
  EXPECT_EQ(row["reference"]["noise"], nullptr);
  EXPECT_EQ(row["occurrence"], 1);
  EXPECT_EQ(row["cpu_time"]["status"], "FAST");
  EXPECT_EQ(row["instructions"]["status"], "SLOW");
  EXPECT_EQ(row["instructions"]["compare"]["center"], 4.1e7);
  EXPECT_EQ(row["time_coverage"]["sample_compare_in_reference"], 0.96);
  EXPECT_EQ(row["axis_values"][0]["value"], "\xEF\xBF\xBD");
  EXPECT_EQ(json["sections"][1]["reference_device"], nullptr);
  EXPECT_EQ(json["summary"]["cpu_time"]["fast"], 1);
  EXPECT_EQ(json["summary"]["instructions"]["slow"], 1);
  EXPECT_DOUBLE_EQ(json["summary"]["geometric_mean"]["instructions"]["ratio"].get<double>(), 1.025);
  EXPECT_EQ(json["config"]["preset"], "strict");
}

TEST_F(DiffDisplayTest, WritesOneBulkRowPerDisplayedRowBetweenTheMarkers) {
  const std::string script = render_bulk_debug_python(outcome, "ref.json", "cmp.json", 0.1);
  EXPECT_EQ(script.rfind("# NVB-BULK-BEGIN\n", 0), 0u);
  EXPECT_TRUE(script.ends_with("# NVB-BULK-END\n"));
  EXPECT_EQ(script.find("\"state_key\": \"T=F32\""), std::string::npos) << script;
  EXPECT_NE(script.find("\"row_index\": 0,\n        \"table_row_index\": 0,\n        "
                        "\"benchmark\": \"copy\""),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("\"state_key\": \"T=F64\""), std::string::npos);
  EXPECT_NE(script.find("\"compare_sample_filename\": None"), std::string::npos);
  EXPECT_NE(script.find("def load_bulk_data(row):"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
