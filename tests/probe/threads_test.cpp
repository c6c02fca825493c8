// Eight threads using the probe at once: each keeps its own runs and calls, exactly, and a
// thread's data reaches the report after the thread has ended.

#include <map>
#include <thread>
#include <vector>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeThreads : public ProbeTest {};

TEST_F(ProbeThreads, KeepEachOfEightThreadsRunsAndCallsExactly) {
  constexpr int kThreads = 8;
  constexpr int kRuns = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      set_thread_name("worker-" + std::to_string(t));
      for (int i = 0; i < kRuns; ++i) {
        probe::Run run;
        PERFGATE_REGION("step");
        for (int j = 0; j <= t; ++j) {
          PERFGATE_REGION("inner");
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), static_cast<std::size_t>(kThreads * kRuns));
  ASSERT_EQ(doc["threads"].size(), static_cast<std::size_t>(kThreads + 1));  // + this thread
  std::map<std::string, int> runs_by_thread_name;
  std::map<int, std::string> names;
  for (const Json& thread : doc["threads"]) names[thread["thread_index"]] = thread["name"];
  for (const Json& run : doc["runs"]) {
    const std::string name = names.at(run["thread_index"]);
    ++runs_by_thread_name[name];
    const int t = std::stoi(name.substr(std::string("worker-").size()));
    EXPECT_EQ(run_row(run, "step")["calls"], 1);
    EXPECT_EQ(run_row(run, "step/inner")["calls"], t + 1);
  }
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(runs_by_thread_name["worker-" + std::to_string(t)], kRuns);
  }
  const Json& total = doc["key_averages"]["total_time"];
  for (const Json& row : total) {
    if (row["region_id"] == "step/inner") {
      // Each thread's first run is its implicit warmup, outside the key averages.
      EXPECT_EQ(row["calls"], (kRuns - 1) * (kThreads * (kThreads + 1) / 2));
      EXPECT_EQ(row["runs"], kThreads * (kRuns - 1));
    }
  }
  EXPECT_EQ(doc["warnings"].size(), 0u);
}

TEST_F(ProbeThreads, NumberThreadsInTheOrderTheyFirstUseTheProbe) {
  { PERFGATE_REGION("on_main"); }
  std::thread([] {
    probe::Run run;
    PERFGATE_REGION("on_worker");
  }).join();
  const Json doc = report();
  ASSERT_EQ(doc["threads"].size(), 2u);
  EXPECT_EQ(doc["threads"][1]["thread_index"], 1);
  EXPECT_EQ(doc["threads"][1]["name"], "thread-1");
  ASSERT_EQ(doc["runs"].size(), 1u);
  EXPECT_EQ(doc["runs"][0]["thread_index"], 1);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
