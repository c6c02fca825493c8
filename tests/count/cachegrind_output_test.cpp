#include "count/cachegrind_output.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "count/count_metrics.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

// The shape valgrind 3.19's cachegrind writes: the header, a body per file and function,
// the summary last.
constexpr const char* kOutput =
    "desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
    "desc: D1 cache:         32768 B, 64 B, 8-way associative\n"
    "desc: LL cache:         8388608 B, 64 B, 16-way associative\n"
    "cmd: sh work.sh\n"
    "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw \n"
    "fl=./csu/../csu/libc-start.c\n"
    "fn=__libc_start_main@@GLIBC_2.34\n"
    "128 2 1 1 2 0 0 0 0 0\n"
    "134 3 0 0 1 1 0 0 0 0\n"
    "summary: 237508 1612 1576 59000 1827 1513 21843 512 478\n";

std::string error_of(const std::string& text) {
  try {
    parse_cachegrind_output(text, "cachegrind.42");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

TEST(CachegrindOutput, ReadsTheEventsAndTheirTotalsFromTheSummary) {
  const CachegrindTotals totals = parse_cachegrind_output(kOutput, "cachegrind.42");
  EXPECT_EQ(totals.events, (std::vector<std::string>{"Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr",
                                                     "Dw", "D1mw", "DLmw"}));
  const std::map<std::string, std::uint64_t> expected = {
      {"Ir", 237508}, {"I1mr", 1612}, {"ILmr", 1576}, {"Dr", 59000}, {"D1mr", 1827},
      {"DLmr", 1513}, {"Dw", 21843},  {"D1mw", 512},  {"DLmw", 478}};
  EXPECT_EQ(totals.totals, expected);
  EXPECT_EQ(totals.command, "sh work.sh");
}

TEST(CachegrindOutput, ReadsCountsUpToTwoToTheSixtyFourth) {
  const auto totals =
      parse_cachegrind_output("events: Ir\nsummary: 18446744073709551615\n", "cachegrind.1");
  EXPECT_EQ(totals.totals.at("Ir"), 18446744073709551615ull);
}

TEST(CachegrindOutput, RefusesAFileItCannotTrustNamingTheLineAndTheReason) {
  EXPECT_THAT(error_of("cmd: x\nfl=a.c\n1 2\n"), HasSubstr("cachegrind.42:3: no `events:` line"));
  EXPECT_THAT(error_of("events: Ir Dr\nfl=a.c\n1 2 3\n"),
              HasSubstr("cachegrind.42:3: no `summary:` line: the process was killed before "
                        "valgrind wrote its totals"));
  EXPECT_THAT(error_of("events: Ir Dr\nsummary: 5\n"),
              HasSubstr("cachegrind.42:2: the summary holds 1 value(s) for 2 event(s) (Ir Dr)"));
  EXPECT_THAT(error_of("events: Ir Dr\nsummary: 5 -3\n"),
              HasSubstr("the summary's value for Dr is '-3', not a count below 2^64"));
  EXPECT_THAT(error_of("events: Ir\nsummary: 18446744073709551616\n"),
              HasSubstr("not a count below 2^64"));
  EXPECT_THAT(error_of("events: Ir\nsummary: 12x\n"), HasSubstr("is '12x'"));
  EXPECT_THAT(error_of("events: Ir Ir\nsummary: 1 1\n"),
              HasSubstr("cachegrind.42:1: the event Ir is named twice"));
  EXPECT_THAT(error_of("events: Ir\nevents: Dr\nsummary: 1\n"),
              HasSubstr("cachegrind.42:2: a second `events:` line (the first is line 1)"));
  EXPECT_THAT(error_of("events:   \nsummary:\n"), HasSubstr("the `events:` line names no event"));
  EXPECT_THAT(error_of("summary: 1\nevents: Ir\n"),
              HasSubstr("cachegrind.42:1: a `summary:` line before any `events:` line"));
  EXPECT_THAT(error_of("events: Ir\nsummary: 1\nsummary: 1\n"),
              HasSubstr("cachegrind.42:3: a second `summary:` line"));
  // Every message says what to do.
  EXPECT_THAT(error_of("events: Ir\n"), HasSubstr("run the benchmark again"));
}

TEST(CachegrindOutput, ReadsAFileAndSaysWhichOneCannotBeRead) {
  const TempDir dir;
  const auto path = dir.write("cachegrind.7", kOutput);
  EXPECT_EQ(read_cachegrind_output(path).totals.at("Ir"), 237508u);
  try {
    read_cachegrind_output(dir / "cachegrind.8");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_THAT(error.what(), HasSubstr((dir / "cachegrind.8").string() + ": cannot read"));
  }
}

TEST(CachegrindMetrics, AddsTheProcessesOfARunAndDerivesMissesAndEstimatedCycles) {
  const auto sh = parse_cachegrind_output(kOutput, "a");
  const auto child = parse_cachegrind_output(
      "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
      "summary: 1000 10 2 400 30 5 100 20 3\n",
      "b");
  const auto metrics = cachegrind_metrics({sh, child});
  // Ir 238508; Dr 59400; Dw 21943; I1mr 1622, D1mr 1857, D1mw 532 -> L1 misses 4011;
  // ILmr 1578, DLmr 1518, DLmw 481 -> LL misses 3577.
  EXPECT_EQ(metrics.at("instructions"), 238508);
  EXPECT_EQ(metrics.at("l1_misses"), 4011);
  EXPECT_EQ(metrics.at("ll_misses"), 3577);
  // accesses 238508 + 59400 + 21943 = 319851; L1 hits 315840, LL hits 434, RAM 3577.
  EXPECT_EQ(metrics.at("estimated_cycles"), 315840 + 5 * 434 + 35 * 3577);
  EXPECT_EQ(metrics.size(), 4u);
}

TEST(CachegrindMetrics, WithoutCacheSimulationGivesInstructionsAlone) {
  const auto only_ir = parse_cachegrind_output("events: Ir\nsummary: 5000\n", "a");
  const auto metrics = cachegrind_metrics({only_ir, only_ir});
  EXPECT_EQ(metrics, (std::map<std::string, double>{{"instructions", 10000}}));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
