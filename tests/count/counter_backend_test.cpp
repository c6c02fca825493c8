#include "count/counter_backend.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cerrno>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

class ScriptedPerf : public PerfEventApi {
 public:
  int error = 0;  // 0: counters work
  int open(pid_t, const PerfEvent&, bool) override { return error != 0 ? -error : 5; }
  std::optional<std::uint64_t> read(int) override { return 1; }
  void close(int) override {}
};

CounterSources sources(ScriptedPerf& perf, bool valgrind) {
  CounterSources out;
  out.perf = &perf;
  out.perf_event_paranoid = 2;
  if (valgrind) {
    out.valgrind = "/usr/bin/valgrind";
    out.valgrind_version = "valgrind-3.19.0";
  }
  out.perfgate = "/opt/perfgate/bin/perfgate";
  return out;
}

std::string error_of(const std::string& choice, const CounterSources& from) {
  try {
    choose_counter(choice, from);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
    return error.what();
  }
  ADD_FAILURE() << "no error for " << choice;
  return "";
}

TEST(CounterChoice, AutoTakesHardwareCountersWhereTheKernelGivesThemElseValgrind) {
  ScriptedPerf perf;
  EXPECT_EQ(choose_counter("auto", sources(perf, true))->name(), "hardware");
  perf.error = ENOENT;
  EXPECT_EQ(choose_counter("auto", sources(perf, true))->name(), "valgrind");
  perf.error = 0;
  EXPECT_EQ(choose_counter("valgrind", sources(perf, true))->name(), "valgrind");
  EXPECT_EQ(choose_counter("hardware", sources(perf, false))->name(), "hardware");
}

TEST(CounterChoice, RefusesWithWhatToInstallOrAllow) {
  ScriptedPerf perf;
  perf.error = ENOENT;
  const std::string neither = error_of("auto", sources(perf, false));
  EXPECT_THAT(neither, HasSubstr("counting instructions needs hardware counters or Valgrind"));
  EXPECT_THAT(neither, HasSubstr("virtual machine without a virtual PMU"));
  EXPECT_THAT(neither, HasSubstr("apt-get install valgrind"));
  EXPECT_THAT(neither, HasSubstr("run_config.measure = [\"time\"]"));
  perf.error = EACCES;
  const std::string hardware = error_of("hardware", sources(perf, true));
  EXPECT_THAT(hardware, HasSubstr("run_config.counter = \"hardware\": no hardware counters here"));
  EXPECT_THAT(hardware, HasSubstr("kernel.perf_event_paranoid is 2"));
  EXPECT_THAT(error_of("valgrind", sources(perf, false)),
              HasSubstr("run_config.counter = \"valgrind\": valgrind is not installed"));
}

TEST(CounterChoice, ValgrindRunsCallgrindOverTheWholeTreeWithPinnedCachesAndAsksForMarks) {
  ScriptedPerf perf;
  const auto backend = choose_counter("valgrind", sources(perf, true));
  const std::vector<std::string> expected = {"/usr/bin/valgrind",
                                             "--tool=callgrind",
                                             "--trace-children=yes",
                                             "--cache-sim=yes",
                                             "--I1=32768,8,64",
                                             "--D1=32768,8,64",
                                             "--LL=8388608,16,64",
                                             "--combine-dumps=yes",
                                             "--dump-line=no",
                                             "--callgrind-out-file=/scratch/c0/callgrind.%p",
                                             "--log-file=/scratch/c0/valgrind.%p",
                                             "-q",
                                             "./sort",
                                             "--n",
                                             "10"};
  EXPECT_EQ(backend->wrap({"./sort", "--n", "10"}, "/scratch/c0"), expected);
  EXPECT_EQ(backend->recipe()["backend"], "valgrind");
  EXPECT_EQ(backend->recipe()["tool"], "callgrind");
  EXPECT_EQ(backend->recipe()["version"], "valgrind-3.19.0");
  EXPECT_EQ(backend->environment(),
            (std::map<std::string, std::string>{{"PERFGATE_COUNT_REGIONS", "1"}}));
  EXPECT_EQ(backend->recipe()["cache"]["LL"], "8388608,16,64");
}

TEST(CounterChoice, ValgrindSumsEveryProcessFileOfTheRunAndItsRegions) {
  ScriptedPerf perf;
  const auto backend = choose_counter("valgrind", sources(perf, true));
  const TempDir dir;
  // The program, with one measured run of its region "sort", and a child without the probe.
  dir.write("callgrind.100",
            "version: 1\ncmd: ./sort\n"
            "part: 1\ndesc: Trigger: Client Request: perfgate-probe R 0 1 0\n"
            "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 100\n"
            "part: 2\ndesc: Trigger: Client Request: perfgate-probe E 0 0 1 0 sort\n"
            "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 10\n"
            "part: 3\ndesc: Trigger: Client Request: perfgate-probe X 0 sort\n"
            "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 800 100 100 1 1 1 1 1 1\n"
            "part: 4\ndesc: Trigger: Client Request: perfgate-probe r 0 1\n"
            "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 5\n"
            "part: 5\ndesc: Trigger: Program termination\n"
            "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 85\n");
  dir.write("callgrind.101",
            "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
            "desc: Trigger: Program termination\n"
            "summary: 500 50 50 0 0 0 0 0 0\n");
  dir.write("worker.log", "not a count");
  const CountedRun run = backend->collect(dir.path());
  EXPECT_EQ(run.counts.at("instructions"), 1500);
  EXPECT_EQ(run.counts.at("l1_misses"), 3);
  EXPECT_EQ(run.regions.regions, (std::vector<RegionCount>{{"sort", 0, 800}}));
  EXPECT_EQ(run.regions.measured_runs, 1u);
  const TempDir empty;
  empty.write("valgrind.77", "\n==77== valgrind: ./sort: No such file or directory\n");
  try {
    backend->collect(empty.path());
    ADD_FAILURE() << "no error without files";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_THAT(error.what(),
                HasSubstr("valgrind wrote no callgrind file; the program did not run under "
                          "valgrind (valgrind: ==77== valgrind: ./sort: No such file or "
                          "directory)"));
  }
}

TEST(CounterChoice, HardwareWrapsTheRunInPerfgatesOwnCounterAndReadsItsFile) {
  ScriptedPerf perf;
  const auto backend = choose_counter("hardware", sources(perf, false));
  EXPECT_EQ(backend->wrap({"./sort"}, "/scratch/c1"),
            (std::vector<std::string>{"/opt/perfgate/bin/perfgate", "__count-hardware",
                                      "/scratch/c1/hardware-counts.json", "--", "./sort"}));
  EXPECT_EQ(backend->recipe()["backend"], "hardware");
  const TempDir dir;
  dir.write("hardware-counts.json",
            R"({"branch_misses": 12, "cycles": 90000, "instructions": 120000})");
  EXPECT_EQ(backend->collect(dir.path()).counts,
            (std::map<std::string, double>{
                {"branch_misses", 12}, {"cycles", 90000}, {"instructions", 120000}}));
  dir.write("hardware-counts.json", R"({"cycles": 90000, "instructions": -1})");
  try {
    backend->collect(dir.path());
    ADD_FAILURE() << "no error for a bad count";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("no count of instructions"));
  }
}

TEST(CounterChoices, ChoosesOnceAndReadsTheSourcesOnce) {
  ScriptedPerf perf;
  int reads = 0;
  CounterChoices choices([&] {
    ++reads;
    return sources(perf, true);
  });
  const CounterBackend& first = choices.get("auto");
  EXPECT_EQ(&choices.get("auto"), &first);
  EXPECT_EQ(choices.get("valgrind").name(), "valgrind");
  EXPECT_EQ(reads, 1);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
