// A record measured on a machine busier than its baseline's: its slower times are the
// load's as much as the code's, so --method stat calls them INCONCLUSIVE, not REGRESSION.
#include "gate/machine_load.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "gate/comparison_status.hpp"
#include "gate/normalized_fixtures.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

Json machine_state(double load_start, double load_end, int cores = 2) {
  return {{"cores", cores},           {"load_1m_start", load_start}, {"load_1m_end", load_end},
          {"cpu_mhz_start", nullptr}, {"cpu_mhz_end", nullptr},      {"steal_percent", nullptr}};
}

// Runs of `level` with a little spread, measured at the given load.
NormalizedRecord measured(const std::map<std::string, double>& levels, double load_start,
                          double load_end) {
  NormalizedRecord record = v2_record(levels);
  for (auto& [name, metric] : record.metrics) {
    metric.samples = {metric.value * 0.99, metric.value, metric.value * 1.01};
    record.regression_thresholds[name] = default_policy(name, CompareMethod::kStat);
  }
  record.quality_metadata["machine_state"] = machine_state(load_start, load_end);
  return record;
}

NormalizedRecord judged(NormalizedRecord record, const std::vector<NormalizedRecord>& baseline,
                        CompareMethod method = CompareMethod::kStat) {
  ClassificationInputs inputs;
  inputs.baseline = baseline;
  inputs.method = method;
  classify(record, inputs);
  return record;
}

std::vector<NormalizedRecord> idle_baseline(const std::map<std::string, double>& levels) {
  std::vector<NormalizedRecord> baseline;
  for (double load : {0.2, 0.4, 0.3}) baseline.push_back(measured(levels, load, load + 0.9));
  return baseline;
}

TEST(BackgroundLoad, IsTheSmallerLoadAroundTheRunsOfTheBusiestPart) {
  NormalizedRecord record = measured({{"latency", 1.0}}, 3.5, 4.25);
  ASSERT_TRUE(background_load(record).has_value());
  EXPECT_EQ(background_load(record)->load, 3.5);
  EXPECT_EQ(background_load(record)->cores, 2);
  record.quality_metadata["confirmation"] = {{"machine_state", machine_state(5.5, 5.0)}};
  EXPECT_EQ(background_load(record)->load, 5.0) << "a confirmation under more load";
  record.quality_metadata["machine_state"]["load_1m_start"] = nullptr;
  record.quality_metadata["confirmation"] = {{"machine_state", machine_state(0.5, 0.25)}};
  EXPECT_EQ(background_load(record)->load, 4.25) << "an unread load is left out";
}

TEST(BackgroundLoad, IsUnknownWithoutALoadOrCores) {
  NormalizedRecord record = v2_record({{"latency", 1.0}});
  EXPECT_FALSE(background_load(record).has_value());
  record.quality_metadata["machine_state"] = machine_state(3, 3);
  record.quality_metadata["machine_state"]["cores"] = nullptr;
  EXPECT_FALSE(background_load(record).has_value());
  record.quality_metadata["machine_state"] = machine_state(3, 3);
  record.quality_metadata["machine_state"]["load_1m_start"] = nullptr;
  record.quality_metadata["machine_state"]["load_1m_end"] = "high";
  EXPECT_FALSE(background_load(record).has_value());
}

TEST(LoadSensitiveUnit, TimesAndRatesButNotCountsOrSizes) {
  for (const char* unit : {"s", "ms", "us", "ns", "items/s", "frames/s"}) {
    EXPECT_TRUE(load_sensitive_unit(unit)) << unit;
  }
  for (const char* unit : {"MB", "bytes", "instructions", "", "/s"}) {
    EXPECT_FALSE(load_sensitive_unit(unit)) << unit;
  }
}

TEST(BusierThanBaseline, NeedsMoreTasksThanCoresAndOneMoreThanTheBusiestBaseline) {
  const auto baseline = idle_baseline({{"latency", 1.0}});
  EXPECT_EQ(busier_than_baseline(measured({{"latency", 1.3}}, 3.9, 4.0), baseline),
            "measured at load 3.9 on 2 core(s), its baseline at load 0.4 at most");
  EXPECT_EQ(busier_than_baseline(measured({{"latency", 1.3}}, 2.0, 2.5), baseline), "")
      << "no more runnable tasks than cores";
  std::vector<NormalizedRecord> busy_baseline = baseline;
  busy_baseline.push_back(measured({{"latency", 1.0}}, 3.0, 3.1));
  EXPECT_EQ(busier_than_baseline(measured({{"latency", 1.3}}, 3.9, 4.0), busy_baseline), "")
      << "a baseline measured under nearly the same load";
  std::vector<NormalizedRecord> unknown(3, v2_record({{"latency", 1.0}}));
  EXPECT_EQ(busier_than_baseline(measured({{"latency", 1.3}}, 3.9, 4.0), unknown), "")
      << "a baseline that does not say its load";
}

NormalizedRecord with_pressure(NormalizedRecord record, double pressure) {
  record.quality_metadata["machine_state"]["cpu_pressure_percent"] = pressure;
  return record;
}

TEST(CpuPressure, IsTheBusiestPartsShareOfTimeSomeTaskWaited) {
  NormalizedRecord record = measured({{"latency", 1.0}}, 0.5, 0.5);
  EXPECT_FALSE(cpu_pressure(record).has_value());
  record = with_pressure(record, 12.5);
  EXPECT_EQ(cpu_pressure(record), 12.5);
  record.quality_metadata["confirmation"] = {{"machine_state", machine_state(0.5, 0.5)}};
  record.quality_metadata["confirmation"]["machine_state"]["cpu_pressure_percent"] = 96.0;
  EXPECT_EQ(cpu_pressure(record), 96.0);
}

TEST(BusierThanBaseline, ThePressureDecidesWhereBothSidesSayIt) {
  std::vector<NormalizedRecord> baseline;
  for (double pressure : {2.0, 4.0, 3.0}) {
    baseline.push_back(with_pressure(measured({{"latency", 1.0}}, 0.3, 1.0), pressure));
  }
  // Busy loops that started a moment ago: the load average has not caught up, the
  // pressure has.
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 0.9, 1.9), 97), baseline),
      "measured while tasks waited for a CPU 97% of the time, its baseline 4% at most");
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 3.9, 4.0), 20), baseline), "")
      << "a high load whose tasks found free CPUs";
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 0.9, 1.9), 24), baseline), "")
      << "under a quarter of the time";
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 0.9, 1.9), 57), baseline),
      "measured while tasks waited for a CPU 57% of the time, its baseline 4% at most")
      << "a busy loop on each core of 2, as measured";
  baseline.push_back(with_pressure(measured({{"latency", 1.0}}, 0.3, 1.0), 80));
  // 97 is not 20 points beyond 80.
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 0.9, 1.9), 97), baseline), "")
      << "a baseline record measured nearly as busy";
  // A baseline that does not say its pressure: the load average decides.
  EXPECT_EQ(busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 3.9, 4.0), 97),
                                 idle_baseline({{"latency", 1.0}})),
            "measured at load 3.9 on 2 core(s), its baseline at load 0.4 at most");
}

TEST(BusierThanBaseline, BothSidesBusyTheLoadAverageRanksThem) {
  // A baseline measured under a busy loop on each core of 2: the pressure near 100%.
  std::vector<NormalizedRecord> baseline;
  for (double pressure : {96.0, 100.0, 99.0}) {
    baseline.push_back(with_pressure(measured({{"latency", 1.0}}, 2.1, 3.0), pressure));
  }
  // The loops and a build beside them: the pressure cannot be 20 points higher, the load is.
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 4.2, 4.5), 100), baseline),
      "measured at load 4.2 on 2 core(s), its baseline at load 2.1 at most");
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 2.5, 3.4), 100), baseline),
      "")
      << "the same loops: less than one task more";
  EXPECT_EQ(
      busier_than_baseline(with_pressure(measured({{"latency", 1.3}}, 4.2, 4.5), 10), baseline), "")
      << "runs that met an idle machine, while the 1-minute average remembers the load";
}

TEST(LoadAwareVerdict, ASlowerTimeOnABusierMachineIsInconclusive) {
  const NormalizedRecord r =
      judged(measured({{"latency", 1.3}}, 3.9, 4.0), idle_baseline({{"latency", 1.0}}));
  EXPECT_EQ(r.comparison_status, "INCONCLUSIVE");
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_FALSE(r.comparisons[0].regressed);
  EXPECT_TRUE(r.comparisons[0].inconclusive);
  EXPECT_TRUE(r.comparisons[0].threshold_exceeded);
  const std::string opening =
      "the machine was busier than for the baseline (measured at load 3.9 on 2 core(s), "
      "its baseline at load 0.4 at most): latency +30% (+0.3 s), 95% interval ";
  EXPECT_EQ(r.comparison_status_reason.substr(0, opening.size()), opening);
  EXPECT_NE(r.comparison_status_reason.find(
                " may be the load's, not the code's. Rerun when the machine is idle"),
            std::string::npos)
      << r.comparison_status_reason;
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(LoadAwareVerdict, TheSameChangeOnAMachineAsIdleAsItsBaselineRegresses) {
  const NormalizedRecord r =
      judged(measured({{"latency", 1.3}}, 0.5, 1.4), idle_baseline({{"latency", 1.0}}));
  EXPECT_EQ(r.comparison_status, "REGRESSION");
}

TEST(LoadAwareVerdict, ASizeThatRegressedKeepsTheRecordARegression) {
  const NormalizedRecord r = judged(measured({{"latency", 1.3}, {"memory", 1300.0}}, 3.9, 4.0),
                                    idle_baseline({{"latency", 1.0}, {"memory", 1000.0}}));
  EXPECT_EQ(r.comparison_status, "REGRESSION");
  for (const MetricComparison& c : r.comparisons) EXPECT_TRUE(c.regressed) << c.metric;
}

TEST(LoadAwareVerdict, SeedMethodKeepsTheSeedRule) {
  const NormalizedRecord r = judged(measured({{"latency", 13.0}}, 3.9, 4.0),
                                    idle_baseline({{"latency", 10.0}}), CompareMethod::kSeed);
  EXPECT_EQ(r.comparison_status, "REGRESSION");
}

TEST(BusyMachine, ByThePressureWhereItIsSaidElseByTheLoadAverage) {
  const auto busy = busy_machine(with_pressure(measured({{"latency", 1.0}}, 2.5, 3.4), 57));
  ASSERT_TRUE(busy.has_value());
  EXPECT_EQ(busy->description, "tasks waited for a CPU 57% of the time");
  EXPECT_DOUBLE_EQ(busy->explainable_slowdown, 100.0 / 43);
  EXPECT_FALSE(busy_machine(with_pressure(measured({{"latency", 1.0}}, 3.9, 4.0), 24)))
      << "a high load average that the runs' own pressure does not bear out";
  EXPECT_TRUE(std::isinf(busy_machine(with_pressure(measured({{"latency", 1.0}}, 0.2, 0.2), 100))
                             ->explainable_slowdown));
  const auto by_load = busy_machine(measured({{"latency", 1.0}}, 3.9, 4.0));
  ASSERT_TRUE(by_load.has_value());
  EXPECT_EQ(by_load->description, "load 3.9 on 2 core(s)");
  EXPECT_DOUBLE_EQ(by_load->explainable_slowdown, 1.95);
  EXPECT_FALSE(busy_machine(measured({{"latency", 1.0}}, 2.0, 2.5))) << "no more tasks than cores";
  EXPECT_FALSE(busy_machine(v2_record({{"latency", 1.0}}))) << "a record that does not say";
  EXPECT_FALSE(busy_machine(with_pressure(measured({{"latency", 1.0}}, 0.2, 0.2), 500)))
      << "not a share of the time: unsaid";
  NormalizedRecord confirmed = with_pressure(measured({{"latency", 1.0}}, 2.5, 3.4), 80);
  confirmed.quality_metadata["confirmation"] = {{"machine_state", machine_state(2.4, 3.3)}};
  confirmed.quality_metadata["confirmation"]["machine_state"]["cpu_pressure_percent"] = 60.0;
  ASSERT_TRUE(busy_machine(confirmed).has_value());
  EXPECT_EQ(busy_machine(confirmed)->description, "tasks waited for a CPU 60% of the time")
      << "the least busy part bounds what the load explains";
  confirmed.quality_metadata["confirmation"]["machine_state"]["cpu_pressure_percent"] = 5.0;
  EXPECT_FALSE(busy_machine(confirmed)) << "a confirmation that met an idle machine";
}

// Records measured under a busy loop on each core of 2, as bench/compare_verdicts.sh's
// busy baseline: both sides wait for a CPU alike, so the machine is not busier than for them.
std::vector<NormalizedRecord> loops_baseline(const std::map<std::string, double>& levels) {
  std::vector<NormalizedRecord> baseline;
  for (double pressure : {56.0, 58.0, 57.0}) {
    baseline.push_back(with_pressure(measured(levels, 2.1, 3.0), pressure));
  }
  return baseline;
}

TEST(LoadAwareVerdict, ASlowerTimeThatABusyMachineExplainsIsInconclusive) {
  const NormalizedRecord r = judged(with_pressure(measured({{"latency", 1.3}}, 2.5, 3.4), 57),
                                    loops_baseline({{"latency", 1.0}}));
  EXPECT_EQ(r.comparison_status, "INCONCLUSIVE");
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_TRUE(r.comparisons[0].inconclusive);
  const std::string opening =
      "the machine was busy (measured while tasks waited for a CPU 57% of the time): latency "
      "+30% (+0.3 s), 95% interval ";
  EXPECT_EQ(r.comparison_status_reason.substr(0, opening.size()), opening);
  const std::string ending =
      " may be the load's, not the code's. Rerun when the machine is idle, or count "
      "instructions (run --measure time,instructions)";
  ASSERT_GE(r.comparison_status_reason.size(), ending.size());
  EXPECT_EQ(r.comparison_status_reason.substr(r.comparison_status_reason.size() - ending.size()),
            ending);
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(LoadAwareVerdict, AConfirmationOnABusyMachineTooCannotVouchForTheMoment) {
  NormalizedRecord confirmed = with_pressure(measured({{"latency", 1.3}}, 2.5, 3.4), 57);
  confirmed.quality_metadata["confirmation"] = {{"machine_state", machine_state(2.4, 3.3)}};
  confirmed.quality_metadata["confirmation"]["machine_state"]["cpu_pressure_percent"] = 58.0;
  EXPECT_EQ(judged(confirmed, loops_baseline({{"latency", 1.0}})).comparison_status,
            "INCONCLUSIVE");
  confirmed.quality_metadata["confirmation"]["machine_state"]["cpu_pressure_percent"] = 4.0;
  EXPECT_EQ(judged(confirmed, loops_baseline({{"latency", 1.0}})).comparison_status, "REGRESSION")
      << "confirmed at a quiet moment";
}

TEST(LoadAwareVerdict, AChangeLargerThanTheLoadCouldMakeRegresses) {
  // Waiting 57% of the time makes runs at most 1 / 0.43 = 2.33 times as slow.
  EXPECT_EQ(judged(with_pressure(measured({{"latency", 3.0}}, 2.5, 3.4), 57),
                   loops_baseline({{"latency", 1.0}}))
                .comparison_status,
            "REGRESSION");
  EXPECT_EQ(judged(with_pressure(measured({{"latency", 2.0}}, 2.5, 3.4), 57),
                   loops_baseline({{"latency", 1.0}}))
                .comparison_status,
            "INCONCLUSIVE");
  // A rate: 10 units/s falling to 2 is five times as slow; to 6, 1.67 times.
  EXPECT_EQ(judged(with_pressure(measured({{"throughput", 2.0}}, 2.5, 3.4), 57),
                   loops_baseline({{"throughput", 10.0}}))
                .comparison_status,
            "REGRESSION");
  EXPECT_EQ(judged(with_pressure(measured({{"throughput", 6.0}}, 2.5, 3.4), 57),
                   loops_baseline({{"throughput", 10.0}}))
                .comparison_status,
            "INCONCLUSIVE");
}

TEST(LoadAwareVerdict, AnIdleMachineJudgesAsBefore) {
  std::vector<NormalizedRecord> baseline;
  for (double pressure : {2.0, 4.0, 3.0}) {
    baseline.push_back(with_pressure(measured({{"latency", 1.0}}, 0.3, 1.0), pressure));
  }
  EXPECT_EQ(
      judged(with_pressure(measured({{"latency", 1.3}}, 0.3, 1.2), 6), baseline).comparison_status,
      "REGRESSION");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
