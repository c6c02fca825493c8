#include "count/callgrind_output.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "count/count_metrics.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

// The shape valgrind 3.19's callgrind writes with --combine-dumps=yes: one part per dump,
// each a header (its trigger, events and summary), a body per function, and its totals;
// trailing zero events are left out of a summary.
constexpr const char* kOutput =
    "# callgrind format\n"
    "version: 1\n"
    "creator: callgrind-3.19.0\n"
    "pid: 2167\n"
    "cmd:  ./decode input.bin\n"
    "part: 1\n"
    "\n"
    "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
    "desc: Timerange: Basic block 0 - 29667\n"
    "desc: Trigger: Client Request: perfgate-probe E 0 0 1 0 decode\n"
    "\n"
    "positions: line\n"
    "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
    "summary: 128577 27895 11903 1155 914 604 1146 768 578\n"
    "\n"
    "ob=(5) /tmp/decode\n"
    "fn=(536) main\n"
    "0 19 1 9 2 0 0 2\n"
    "calls=1 28 \n"
    "0 2621 383 463 148 36 46 148 19 44\n"
    "totals: 128562 27895 11897 1153 914 604 1144 768 578\n"
    "\n"
    "part: 2\n"
    "desc: Trigger: Client Request: perfgate-probe X 0 decode\n"
    "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
    "summary: 9012 1000 1007\n"
    "fn=(536)\n"
    "0 9012 1000 1007\n"
    "totals: 9018 1000 1007\n"
    "\n"
    "part: 3\n"
    "desc: Trigger: Program termination\n"
    "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
    "summary: 1623 427 294 98 12 1 88 5 1\n"
    "totals: 1630 427 300 97 12 1 87 5 1\n";

std::string error_of(const std::string& text) {
  try {
    parse_callgrind_output(text, "callgrind.42");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

TEST(CallgrindOutput, ReadsEachDumpsTriggerAndItsSummary) {
  const CallgrindProfile profile = parse_callgrind_output(kOutput, "callgrind.42");
  EXPECT_EQ(profile.events, (std::vector<std::string>{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw",
                                                      "ILmr", "DLmr", "DLmw"}));
  EXPECT_EQ(profile.command, "./decode input.bin");
  ASSERT_EQ(profile.parts.size(), 3u);
  EXPECT_EQ(profile.parts[0].trigger, "Client Request: perfgate-probe E 0 0 1 0 decode");
  EXPECT_EQ(profile.parts[0].counts, (EventCounts{{"Ir", 128577},
                                                  {"Dr", 27895},
                                                  {"Dw", 11903},
                                                  {"I1mr", 1155},
                                                  {"D1mr", 914},
                                                  {"D1mw", 604},
                                                  {"ILmr", 1146},
                                                  {"DLmr", 768},
                                                  {"DLmw", 578}}));
  // The summary, not the totals; the events it leaves out count 0.
  EXPECT_EQ(profile.parts[1].counts, (EventCounts{{"Ir", 9012},
                                                  {"Dr", 1000},
                                                  {"Dw", 1007},
                                                  {"I1mr", 0},
                                                  {"D1mr", 0},
                                                  {"D1mw", 0},
                                                  {"ILmr", 0},
                                                  {"DLmr", 0},
                                                  {"DLmw", 0}}));
  EXPECT_EQ(profile.parts[2].trigger, "Program termination");
  EXPECT_EQ(profile.totals().at("Ir"), 128577u + 9012u + 1623u);
  EXPECT_EQ(profile.totals().at("DLmw"), 579u);
}

TEST(CallgrindOutput, ReadsAFileOfOneDumpWithoutPartLinesAndTotalsAlone) {
  const auto profile = parse_callgrind_output(
      "events: Ir\ndesc: Trigger: Program termination\nfn=main\n0 5\ntotals: "
      "18446744073709551615\n",
      "callgrind.1");
  ASSERT_EQ(profile.parts.size(), 1u);
  EXPECT_EQ(profile.parts[0].counts.at("Ir"), 18446744073709551615ull);
}

TEST(CallgrindOutput, RefusesAFileItCannotTrustNamingTheLineAndTheReason) {
  EXPECT_THAT(error_of("cmd: x\nfn=a\n1 2\n"), HasSubstr("callgrind.42:3: no `events:` line"));
  EXPECT_THAT(error_of("part: 1\nevents: Ir Dr\nfn=a\n1 2 3\n"),
              HasSubstr("callgrind.42:4: the dump that begins on line 1 has no `summary:` or "
                        "`totals:` line"));
  EXPECT_THAT(
      error_of("events: Ir Dr\nsummary: 5 1 1\n"),
      HasSubstr("callgrind.42:2: the `summary:` line holds 3 value(s) for 2 event(s) (Ir Dr)"));
  EXPECT_THAT(error_of("events: Ir Dr\nsummary: 5 -3\n"),
              HasSubstr("the `summary:` line's value for Dr is '-3', not a count below 2^64"));
  EXPECT_THAT(
      error_of("events: Ir\ntotals: 18446744073709551616\n"),
      HasSubstr("the `totals:` line's value for Ir is '18446744073709551616', not a count"));
  EXPECT_THAT(error_of("events: Ir Ir\nsummary: 1 1\n"),
              HasSubstr("callgrind.42:1: the event Ir is named twice"));
  EXPECT_THAT(
      error_of("events: Ir\nevents: Dr\nsummary: 1\n"),
      HasSubstr("callgrind.42:2: a second `events:` line in one dump (the first is line 1)"));
  EXPECT_THAT(error_of("events:   \nsummary:\n"), HasSubstr("the `events:` line names no event"));
  EXPECT_THAT(error_of("summary: 1\nevents: Ir\n"),
              HasSubstr("callgrind.42:1: a `summary:` line before any `events:` line"));
  EXPECT_THAT(error_of("events: Ir\nsummary: 1\nsummary: 1\n"),
              HasSubstr("callgrind.42:3: a second `summary:` line in one dump"));
  EXPECT_THAT(error_of("events: Ir\nsummary: 1\npart: 2\nevents: Ir Dr\nsummary: 1 1\n"),
              HasSubstr("callgrind.42:4: this dump counts the events Ir Dr, the first one Ir"));
  // Dumps the probe asked for, but not the one at exit: the process was killed.
  EXPECT_THAT(error_of("part: 1\ndesc: Trigger: Client Request: perfgate-probe R 0 1 -\n"
                       "events: Ir\nsummary: 1\n"),
              HasSubstr("callgrind.42:4: the last dump's trigger is 'Client Request: "
                        "perfgate-probe R 0 1 -', not 'Program termination': the process was "
                        "killed before valgrind wrote its totals"));
  // Every message says what to do.
  EXPECT_THAT(error_of("events: Ir\n"), HasSubstr("run the benchmark again"));
}

TEST(CallgrindOutput, ReadsAFileAndSaysWhichOneCannotBeRead) {
  const TempDir dir;
  const auto path = dir.write("callgrind.7", kOutput);
  EXPECT_EQ(read_callgrind_output(path).parts.size(), 3u);
  try {
    read_callgrind_output(dir / "callgrind.8");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_THAT(error.what(), HasSubstr((dir / "callgrind.8").string() + ": cannot read"));
  }
}

TEST(ValgrindMetrics, AddsTheProcessesOfARunAndDerivesMissesAndEstimatedCycles) {
  const EventCounts sh = {{"Ir", 237508}, {"I1mr", 1612}, {"ILmr", 1576},
                          {"Dr", 59000},  {"D1mr", 1827}, {"DLmr", 1513},
                          {"Dw", 21843},  {"D1mw", 512},  {"DLmw", 478}};
  const EventCounts child = {{"Ir", 1000}, {"I1mr", 10}, {"ILmr", 2},  {"Dr", 400}, {"D1mr", 30},
                             {"DLmr", 5},  {"Dw", 100},  {"D1mw", 20}, {"DLmw", 3}};
  const auto metrics = valgrind_metrics({sh, child});
  // Ir 238508; Dr 59400; Dw 21943; I1mr 1622, D1mr 1857, D1mw 532 -> L1 misses 4011;
  // ILmr 1578, DLmr 1518, DLmw 481 -> LL misses 3577.
  EXPECT_EQ(metrics.at("instructions"), 238508);
  EXPECT_EQ(metrics.at("l1_misses"), 4011);
  EXPECT_EQ(metrics.at("ll_misses"), 3577);
  // accesses 238508 + 59400 + 21943 = 319851; L1 hits 315840, LL hits 434, RAM 3577.
  EXPECT_EQ(metrics.at("estimated_cycles"), 315840 + 5 * 434 + 35 * 3577);
  EXPECT_EQ(metrics.size(), 4u);
}

TEST(ValgrindMetrics, WithoutCacheSimulationGivesInstructionsAlone) {
  const EventCounts only_ir = {{"Ir", 5000}};
  const auto metrics = valgrind_metrics({only_ir, only_ir});
  EXPECT_EQ(metrics, (std::map<std::string, double>{{"instructions", 10000}}));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
