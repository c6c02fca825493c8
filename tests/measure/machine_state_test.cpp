#include "measure/machine_state.hpp"

#include <gtest/gtest.h>

#include "support/fake_host.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::FakeHost;

TEST(MachineState, ParsesTheLoadTheTicksAndTheClock) {
  EXPECT_EQ(parse_load_1m("6.25 3.10 1.05 3/412 12345\n"), 6.25);
  EXPECT_EQ(parse_load_1m(""), std::nullopt);
  EXPECT_EQ(parse_load_1m("busy"), std::nullopt);
  const auto ticks = parse_cpu_ticks("cpu  100 5 50 800 10 1 2 32 7 0\ncpu0 1 2 3 4\n");
  ASSERT_TRUE(ticks.has_value());
  EXPECT_EQ(ticks->steal, 32u);
  EXPECT_EQ(ticks->total, 1000u);  // user..steal; guest time is inside user already
  EXPECT_EQ(parse_cpu_ticks("intr 1 2 3\n"), std::nullopt);
  // A kernel before steal was counted (four fields): no steal, but a total.
  EXPECT_EQ(parse_cpu_ticks("cpu 1 2 3 4\n")->total, 10u);
  EXPECT_EQ(parse_cpu_mhz("2450000\n", ""), 2450.0);
  EXPECT_EQ(parse_cpu_mhz("", "processor\t: 0\ncpu MHz\t\t: 2994.375\n"), 2994.375);
  EXPECT_EQ(parse_cpu_mhz("", "processor\t: 0\n"), std::nullopt);
  EXPECT_EQ(parse_cpu_pressure_total("some avg10=0.54 avg60=14.72 avg300=22.95 total=5415035569\n"
                                     "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"),
            5415035569ull);
  EXPECT_EQ(parse_cpu_pressure_total(""), std::nullopt);
  EXPECT_EQ(parse_cpu_pressure_total("some avg10=0.54\n"), std::nullopt);
  EXPECT_EQ(parse_cpu_pressure_total("full avg10=0.00 total=12\n"), std::nullopt);
}

TEST(MachineState, DescribesTheMachineBetweenTwoSnapshots) {
  FakeHost host;
  host.cores = 2;
  host.files["/proc/loadavg"] = "0.50 0.40 0.30 1/100 42\n";
  host.files["/proc/stat"] = "cpu 100 0 100 700 0 0 0 100 0 0\n";
  const MachineSnapshot start = take_machine_snapshot(host);
  EXPECT_EQ(start.cpu_mhz, 2450.0);  // the fake's /proc/cpuinfo
  host.files["/proc/loadavg"] = "3.00 1.00 0.50 4/100 43\n";
  host.files["/proc/stat"] = "cpu 200 0 200 1200 0 0 0 400 0 0\n";
  MachineSnapshot end = take_machine_snapshot(host);
  EXPECT_GE(end.taken_at_us, start.taken_at_us);
  EXPECT_EQ(machine_state_json(start, end, 2),
            Json::parse(R"({"cores": 2, "load_1m_start": 0.5, "load_1m_end": 3.0,
                            "cpu_mhz_start": 2450.0, "cpu_mhz_end": 2450.0,
                            "steal_percent": 30.0, "cpu_pressure_percent": null})"));
  // 300 of the 1,000 ticks between them were stolen: 30%.
  EXPECT_EQ(busy_machine_notice(host),
            "perfgate: warning: the load average is 3.0, above the 2 core(s) of this machine: "
            "the benchmarks will share the CPUs, and their times will be slower and noisier "
            "than the machine's own (each record keeps machine_state)\n");
  host.cores = 4;
  EXPECT_EQ(busy_machine_notice(host), "");
}

TEST(MachineState, CpuPressureIsTheShareOfTheTimeSomeTaskWaitedForACpu) {
  FakeHost host;
  host.files["/proc/pressure/cpu"] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000000\n";
  MachineSnapshot start = take_machine_snapshot(host);
  host.files["/proc/pressure/cpu"] = "some avg10=90.00 avg60=40.00 avg300=9.00 total=1900000\n";
  MachineSnapshot end = take_machine_snapshot(host);
  start.taken_at_us = 5'000'000;
  end.taken_at_us = 6'000'000;  // 0.9 s of stall in 1 s
  EXPECT_DOUBLE_EQ(machine_state_json(start, end, 2)["cpu_pressure_percent"].get<double>(), 90.0);
  end.taken_at_us = 5'800'000;  // read a moment apart: never above 100
  EXPECT_EQ(machine_state_json(start, end, 2)["cpu_pressure_percent"], 100.0);
  end.taken_at_us = start.taken_at_us;
  EXPECT_TRUE(machine_state_json(start, end, 2)["cpu_pressure_percent"].is_null());
}

TEST(MachineState, IsNullWhereNothingCanBeRead) {
  FakeHost host;
  host.files.clear();
  const MachineSnapshot nothing = take_machine_snapshot(host);
  EXPECT_EQ(machine_state_json(nothing, nothing, 8),
            Json::parse(R"({"cores": 8, "load_1m_start": null, "load_1m_end": null,
                            "cpu_mhz_start": null, "cpu_mhz_end": null,
                            "steal_percent": null, "cpu_pressure_percent": null})"));
  EXPECT_EQ(busy_machine_notice(host), "");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
