// Regions that do not end as a scope ends: across runs, out of order (a coroutine that
// suspends inside a region), on another thread. Each is reported with its own code, and
// no other region's id or time is disturbed by it.
#include <gtest/gtest.h>

#include <coroutine>
#include <optional>
#include <thread>

#include "perfgate/probe.h"
#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

using Codes = std::vector<std::string>;
using RegionEnds = ProbeTest;

/// The sum rule of a run: its top-level rows plus its residual are its whole time.
double top_level_plus_residual(const Json& run) {
  double sum = run["residual"]["wall_time_fraction"].get<double>();
  for (const Json& row : run["regions"]) {
    const std::string id = row["region_id"];
    if (id.find('/') == std::string::npos) sum += row["wall_time_fraction"].get<double>();
  }
  return sum;
}

std::vector<std::string> row_ids(const Json& run) {
  std::vector<std::string> ids;
  for (const Json& row : run["regions"]) ids.push_back(row["region_id"]);
  return ids;
}

TEST_F(RegionEnds, WarnWhenARegionCrossesARunAndKeepEveryRunsSumRule) {
  perfgate_probe_run_begin();
  perfgate_probe_region_begin("load");  // opened in run 1 ...
  spin_for(std::chrono::microseconds(200));
  perfgate_probe_run_end();
  perfgate_probe_run_begin();
  perfgate_probe_region_begin("parse");  // ... a region entered inside it in run 2
  spin_for(std::chrono::microseconds(200));
  perfgate_probe_region_end();
  perfgate_probe_region_end();  // ... and closed in run 2
  perfgate_probe_run_end();
  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["regions"].size(), 0u);
  // "parse" is at the top of run 2: its parent "load" is no part of that run.
  EXPECT_EQ(row_ids(doc["runs"][1]), std::vector<std::string>{"parse"});
  for (const Json& run : doc["runs"]) EXPECT_NEAR(top_level_plus_residual(run), 1.0, 1e-9);
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_CROSSES_RUN"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "region 'load' was opened in a run and ended outside it (after that run ended, or in "
            "a later run) 1 time(s); those calls are in no run, and regions entered inside them "
            "while a later run was open count at that run's top level");
}

TEST_F(RegionEnds, PutARegionEnteredInARunAtItsTopWhenItsParentWasOpenedBefore) {
  {
    PERFGATE_REGION("main");
    for (int i = 0; i < 2; ++i) {
      probe::Run run;
      PERFGATE_REGION("step");
    }
  }
  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), 2u);
  for (const Json& run : doc["runs"]) {
    EXPECT_EQ(row_ids(run), std::vector<std::string>{"step"});
    EXPECT_NEAR(top_level_plus_residual(run), 1.0, 1e-9);
  }
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_OUTSIDE_RUN"});
}

TEST_F(RegionEnds, SplitTheRegionsStillOpenInsideOneThatEndsOutOfOrder) {
  {
    probe::Run run;
    std::optional<NamedRegion> outer, inner;
    outer.emplace("outer");
    inner.emplace("inner");
    spin_for(std::chrono::microseconds(100));
    outer.reset();  // not the innermost: a coroutine resumed after a suspension, say
    spin_for(std::chrono::microseconds(100));
    { PERFGATE_REGION("next"); }
    inner.reset();
    { PERFGATE_REGION("after"); }
  }
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run_row(run, "outer")["calls"], 1);
  // "inner" up to the end of "outer" is inside it, and the rest is a call at the top.
  EXPECT_EQ(run_row(run, "outer/inner")["calls"], 1);
  EXPECT_EQ(run_row(run, "inner")["calls"], 1);
  EXPECT_LE(run_row(run, "outer/inner")["wall_time_us"].get<double>(),
            run_row(run, "outer")["wall_time_us"].get<double>());
  EXPECT_GE(run_row(run, "inner")["wall_time_us"].get<double>(), 100.0);
  // Entered while the rest of "inner" was open: inside that rest.
  EXPECT_EQ(run_row(run, "inner/next")["calls"], 1);
  EXPECT_EQ(run_row(run, "outer/inner/next"), nullptr);
  // And once everything has ended, the next region is at the top again.
  EXPECT_EQ(run_row(run, "after")["calls"], 1);
  EXPECT_NEAR(top_level_plus_residual(run), 1.0, 1e-9);
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_END_MISMATCH"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "region 'outer' ended 1 time(s) while a region opened inside it was still open (a "
            "coroutine suspended inside a region?); each such call is counted up to its end, "
            "and the regions still open inside it were split there: the rest of each is a "
            "call under its parent");
}

TEST_F(RegionEnds, CountARegionEndedOnAnotherThreadOnTheThreadThatOpenedIt) {
  {
    probe::Run run;
    std::optional<NamedRegion> moved;
    moved.emplace("request");
    spin_for(std::chrono::microseconds(300));
    std::thread([&] { moved.reset(); }).join();
    { PERFGATE_REGION("after"); }
  }
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run_row(run, "request")["calls"], 1);
  EXPECT_GE(run_row(run, "request")["wall_time_us"].get<double>(), 300.0);
  EXPECT_EQ(run_row(run, "after")["calls"], 1);  // not "request/after"
  EXPECT_EQ(run_row(run, "request/after"), nullptr);
  EXPECT_NEAR(top_level_plus_residual(run), 1.0, 1e-9);
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_ENDED_ON_OTHER_THREAD"});
}

TEST_F(RegionEnds, CountAnEndWithoutABegin) {
  perfgate_probe_region_end();
  const Json doc = report();
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_END_WITHOUT_BEGIN"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "1 region end(s) found no open region to end; they were ignored");
}

// A real C++20 coroutine holding a region across a suspension point, resumed inside
// another region: the old probe closed whichever region was innermost, so "outer" and
// "coro" swapped their times and neither was reported.
struct Task {
  struct promise_type {
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : handle(h) {}
  std::coroutine_handle<promise_type> handle;
  Task(const Task&) = delete;
  ~Task() { handle.destroy(); }
};

Task timed_coroutine() {
  PERFGATE_REGION("coro");
  spin_for(std::chrono::microseconds(100));
  co_await std::suspend_always{};
  spin_for(std::chrono::microseconds(100));
}

/// Every row's wall time is at most its parent's in the same run: a child never outlasts
/// its parent.
void expect_children_within_parents(const Json& run) {
  for (const Json& row : run["regions"]) {
    const std::string id = row["region_id"];
    const std::size_t slash = id.rfind('/');
    if (slash == std::string::npos) continue;
    const Json parent = run_row(run, id.substr(0, slash));
    ASSERT_NE(parent, nullptr) << id;
    EXPECT_LE(row["wall_time_us"].get<double>(), parent["wall_time_us"].get<double>()) << id;
  }
}

TEST_F(RegionEnds, KeepACoroutinesRegionAndItsResumersRegionApart) {
  {
    probe::Run run;
    Task task = timed_coroutine();  // runs to the suspension, "coro" open
    {
      PERFGATE_REGION("outer");
      spin_for(std::chrono::microseconds(400));
      task.handle.resume();  // "coro" ends here, inside "outer"
      spin_for(std::chrono::microseconds(300));
    }
  }
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run_row(run, "coro")["calls"], 1);
  // "outer" up to the end of "coro" is inside it; the 300 µs after are a top-level call.
  EXPECT_EQ(run_row(run, "coro/outer")["calls"], 1);
  EXPECT_EQ(run_row(run, "outer")["calls"], 1);
  EXPECT_GT(run_row(run, "coro")["wall_time_us"].get<double>(),
            run_row(run, "coro/outer")["wall_time_us"].get<double>());
  EXPECT_GE(run_row(run, "coro/outer")["wall_time_us"].get<double>(), 500.0);
  EXPECT_GE(run_row(run, "outer")["wall_time_us"].get<double>(), 300.0);
  expect_children_within_parents(run);
  // The top level (coro, then the rest of outer) and the residual make the whole run.
  EXPECT_NEAR(top_level_plus_residual(run), 1.0, 1e-9);
  EXPECT_EQ(warning_codes(doc), Codes{"REGION_END_MISMATCH"});
}

TEST_F(RegionEnds, KeepTheSumRuleWhenACoroutineResumesUnderNestedRegions) {
  {
    probe::Run run;
    Task first = timed_coroutine();
    {
      PERFGATE_REGION("outer");
      {
        PERFGATE_REGION("step");
        spin_for(std::chrono::microseconds(200));
        first.handle.resume();  // "coro" ends with "outer" and "step" open inside it
        spin_for(std::chrono::microseconds(200));
      }
      spin_for(std::chrono::microseconds(100));
    }
  }
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(row_ids(run).size(), 5u);  // coro, coro/outer, coro/outer/step, outer, outer/step
  EXPECT_EQ(run_row(run, "outer/step")["calls"], 1);
  EXPECT_GE(run_row(run, "outer/step")["wall_time_us"].get<double>(), 200.0);
  expect_children_within_parents(run);
  EXPECT_NEAR(top_level_plus_residual(run), 1.0, 1e-9);
}

TEST_F(RegionEnds, NameRegionsAtRunTimeAndBoundHowManyNamesAreKept) {
  detail::set_dynamic_name_cap_for_testing(4'096);  // 131,072 in a program
  {
    probe::Run run;
    for (int i = 0; i < 5'000; ++i) NamedRegion region("file-" + std::to_string(i % 5'000));
    NamedRegion again("file-7");
  }
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run_row(run, "file-7")["calls"], 2);
  EXPECT_EQ(run_row(run, "file-4095")["calls"], 1);
  EXPECT_EQ(run_row(run, "file-4096"), nullptr);
  EXPECT_EQ(run_row(run, "(other names)")["calls"], 5'000 - 4'096);
  EXPECT_EQ(doc["regions"].size(), 4'097u);
  EXPECT_EQ(warning_codes(doc), Codes{"DYNAMIC_NAMES_CAPPED"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "more than 4096 distinct region names were given at run time; 904 call(s) with "
            "further names are counted as '(other names)'");
}

TEST_F(RegionEnds, EscapeBytesThatAreNotUtf8SoTheReportStaysValidJson) {
  {
    probe::Run run;
    NamedRegion latin1("caf\xe9");
    NamedRegion utf8("caf\xc3\xa9");
  }
  // report() parses with nlohmann::json, which refuses malformed UTF-8.
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run_row(run, "caf%E9")["calls"], 1);  // in ids, the byte is percent-encoded
  EXPECT_EQ(run_row(run, "caf%E9/caf\xc3\xa9")["calls"], 1);
  EXPECT_EQ(warning_codes(doc), Codes{"NAME_NOT_UTF8"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "a region name is not valid UTF-8: its other bytes are written as \\xNN ('caf\\xe9')");
}

TEST_F(RegionEnds, FindAChildInConstantTimeAmongAThousandSiblings) {
  // Correctness of the index that replaced the list of siblings: every one of 1,000
  // siblings and a recursion 50 deep keep their own counts.
  {
    probe::Run run;
    for (int pass = 0; pass < 2; ++pass) {
      PERFGATE_REGION("parent");
      for (int i = 0; i < 1'000; ++i) NamedRegion child("child-" + std::to_string(i));
    }
  }
  const Json doc = report();
  const Json& run = doc["runs"][0];
  EXPECT_EQ(run["regions"].size(), 1'001u);
  EXPECT_EQ(run_row(run, "parent")["calls"], 2);
  EXPECT_EQ(run_row(run, "parent/child-0")["calls"], 2);
  EXPECT_EQ(run_row(run, "parent/child-999")["calls"], 2);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
