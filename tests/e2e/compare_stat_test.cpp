// End-to-end: compare --method stat (the default) through the real binary, on raw records
// written in the seed's layout so that every run's time is exact: a baseline of five
// records, then a record inside, across and beyond the threshold; and the seed's rule
// beside it on a millisecond program its absolute floor hides.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;

constexpr const char* kCommit = "3333333333333333333333333333333333333333";

struct Cohort {
  TempDir dir;
  int records = 0;

  /// One raw record whose runs took `times` seconds, in a folder of its own (or `folder`).
  std::string write(const std::vector<double>& times, std::string folder = "",
                    const Json& machine_state = nullptr) {
    ++records;
    if (folder.empty()) folder = "runs/" + std::to_string(records);
    Json raw = {{"benchmark_id", "sort"},
                {"workload_id", "sort"},
                {"variant_id", "n=1000"},
                {"benchmark_version", 1},
                {"recipe_fingerprint", std::string(64, 'a')},
                {"hardware_profile_id", "hw-0123456789abcdef"},
                {"software_profile_id", "sw-0123456789abcdef"},
                {"device", "cpu"},
                {"run_source", "scheduled_main"},
                {"commit", kCommit},
                {"build_id", "build-1"},
                {"timestamp", "2026-11-30T10:" + two_digits(records) + ":00+00:00"},
                {"individual_times_s", times}};
    if (!machine_state.is_null()) raw["machine_state"] = machine_state;
    dir.write(folder + "/perf_sort_" + std::to_string(records) + ".json", raw.dump());
    return folder;
  }
  testing::CliResult perfgate(const std::vector<std::string>& args) {
    return run_perfgate(args, dir.path());
  }
  static std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

  /// Five records of one build, 2 ms give or take 1%, approved as the baseline.
  void establish_baseline(const Json& machine_state = nullptr) {
    for (double level : {0.0020, 0.00198, 0.00202, 0.0020, 0.00201})
      write({level, level * 1.001, level * 0.999}, "runs/seed", machine_state);
    const auto first = perfgate({"compare", "-r", "runs/seed", "--upload", "pass", "--json"});
    ASSERT_EQ(first.exit_code, 0) << first.err;
    ASSERT_EQ(perfgate({"baseline", "prepare", "-o", "calibration.json"}).exit_code, 0);
    const auto approved = perfgate({"baseline", "approve", "calibration.json"});
    ASSERT_EQ(approved.exit_code, 0) << approved.err;
    ASSERT_THAT(approved.out, HasSubstr("approved 5 record(s)"));
  }
};

Json only_record(const testing::CliResult& result) {
  const Json records = Json::parse(result.out);
  EXPECT_EQ(records.size(), 1u) << result.out;
  return records.size() == 1 ? records[0] : Json();
}

TEST(CompareStat, DecidesByTheIntervalAndExitsTwoWhenItStraddlesTheThreshold) {
  Cohort c;
  c.establish_baseline();

  // 2 ms -> 6 ms: far beyond 8% with no absolute floor under stat.
  const auto slower = c.perfgate({"compare", "-r", c.write({0.006, 0.00601, 0.00599}), "--json"});
  EXPECT_EQ(slower.exit_code, 1) << slower.err;
  const Json regressed = only_record(slower);
  EXPECT_EQ(regressed["comparison_status"], "REGRESSION");
  const Json& latency = regressed["comparisons"][0];
  EXPECT_EQ(latency["method"], "stat");
  EXPECT_EQ(latency["policy"]["threshold_absolute"], 0);
  EXPECT_GT(latency["interval"]["low"].get<double>(), 1.8);
  EXPECT_LT(latency["interval"]["high"].get<double>(), 2.2);
  EXPECT_EQ(regressed["metrics"]["latency"]["samples"], Json::parse("[0.006, 0.00601, 0.00599]"));

  // One record 9% slower (its trimmed mean; two runs of five scatter by ±30%): against
  // the baseline's spread its interval holds 8%.
  const auto unsure =
      c.perfgate({"compare", "-r", c.write({0.00218, 0.0015, 0.0029, 0.00218, 0.00218})});
  EXPECT_EQ(unsure.exit_code, 2) << unsure.out << unsure.err;
  EXPECT_THAT(unsure.out, HasSubstr("sort  INCONCLUSIVE  the change's interval straddles the "
                                    "threshold: latency +9%"));
  EXPECT_THAT(unsure.out, HasSubstr("Rerun, or raise the repetitions"));
  EXPECT_THAT(unsure.out, HasSubstr("INCONCLUSIVE\n"));  // the row's verdict

  // The same level with quiet runs: PASS, its interval within 8%.
  const auto same = c.perfgate({"compare", "-r", c.write({0.00201, 0.002, 0.00199}), "--json"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(only_record(same)["comparison_status"], "PASS");
}

TEST(CompareStat, TheSeedMethodSaysWhenItsFloorHidesAChange) {
  Cohort c;
  c.establish_baseline();
  const std::string folder = c.write({0.006, 0.00601, 0.00599});
  const auto seed = c.perfgate({"compare", "-r", folder, "--method", "seed"});
  EXPECT_EQ(seed.exit_code, 0) << seed.err;
  EXPECT_THAT(seed.out, HasSubstr("sort  PASS"));
  EXPECT_THAT(seed.out, HasSubstr("not gated: under the 500 ms floor"));
  EXPECT_THAT(seed.out, HasSubstr("not gated: 1 change(s) beyond the relative threshold held "
                                  "back by an absolute floor"));
  // The Markdown summary says it too.
  std::string summaries;
  for (const auto& entry : std::filesystem::directory_iterator(c.dir / folder)) {
    if (entry.path().extension() == ".md") summaries += read_text_file(entry.path());
  }
  EXPECT_THAT(summaries, HasSubstr("### Not gated"));
  EXPECT_THAT(summaries, HasSubstr("under the 500 ms floor"));

  // [policy] method = "seed" chooses the same for every compare of the project.
  c.dir.write("perfgate.toml", "[policy]\nmethod = \"seed\"\n");
  const auto chosen = c.perfgate({"compare", "-r", folder, "--json"});
  EXPECT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_FALSE(only_record(chosen)["comparisons"][0].contains("method"));
  EXPECT_THAT(chosen.err, HasSubstr("not gated: 1 change(s)"));
}

Json machine_state(double load) {
  return {{"cores", 2},
          {"load_1m_start", load},
          {"load_1m_end", load},
          {"cpu_mhz_start", nullptr},
          {"cpu_mhz_end", nullptr},
          {"steal_percent", nullptr}};
}

TEST(CompareStat, ASlowerRecordFromABusierMachineIsInconclusiveNotARegression) {
  Cohort c;
  c.establish_baseline(machine_state(0.3));
  // 30% slower, the runs agree: a regression on a machine as idle as the baseline's ...
  const std::vector<double> slower = {0.0026, 0.00261, 0.00259};
  const auto idle = c.perfgate({"compare", "-r", c.write(slower, "", machine_state(0.5))});
  EXPECT_EQ(idle.exit_code, 1) << idle.out << idle.err;
  EXPECT_THAT(idle.out, HasSubstr("sort  REGRESSION"));
  // ... but under two busy loops on two cores the load may have done it.
  const auto busy =
      c.perfgate({"compare", "-r", c.write(slower, "", machine_state(3.9)), "--json"});
  EXPECT_EQ(busy.exit_code, 2) << busy.out << busy.err;
  const Json record = only_record(busy);
  EXPECT_EQ(record["comparison_status"], "INCONCLUSIVE");
  EXPECT_THAT(record["comparison_status_reason"].get<std::string>(),
              HasSubstr("the machine was busier than for the baseline (measured at load 3.9 on 2 "
                        "core(s), its baseline at load 0.3 at most): latency +30%"));
  EXPECT_EQ(record["quality_metadata"]["machine_state"]["load_1m_start"], 3.9);
}

Json busy_state(double pressure) {
  Json state = machine_state(2.6);
  state["cpu_pressure_percent"] = pressure;
  return state;
}

TEST(CompareStat, ASlowerTimeThatABusyMachineExplainsIsInconclusiveUnlessTheLoadCannotBeAllOfIt) {
  Cohort c;
  // Baseline and record under the same busy loop on each core: not busier than the baseline.
  c.establish_baseline(busy_state(57));
  const std::vector<double> slower = {0.0026, 0.00261, 0.00259};
  const auto busy = c.perfgate({"compare", "-r", c.write(slower, "", busy_state(56)), "--json"});
  EXPECT_EQ(busy.exit_code, 2) << busy.out << busy.err;
  const Json record = only_record(busy);
  EXPECT_EQ(record["comparison_status"], "INCONCLUSIVE");
  EXPECT_THAT(record["comparison_status_reason"].get<std::string>(),
              HasSubstr("the machine was busy (measured while tasks waited for a CPU 56% of the "
                        "time): latency +30%"));
  EXPECT_THAT(record["comparison_status_reason"].get<std::string>(),
              HasSubstr("Rerun when the machine is idle, or count instructions"));
  // Three times as slow: waiting 56% of the time stretches runs 2.27 times at most.
  const auto much = c.perfgate(
      {"compare", "-r", c.write({0.006, 0.00601, 0.00599}, "", busy_state(56)), "--json"});
  EXPECT_EQ(much.exit_code, 1) << much.out << much.err;
  EXPECT_EQ(only_record(much)["comparison_status"], "REGRESSION");
}

TEST(CompareStat, RefusesAnUnknownMethod) {
  Cohort c;
  const auto result = c.perfgate({"compare", "--method", "median"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--method"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
