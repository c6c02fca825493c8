#include "count/perf_events.hpp"

#include <sys/wait.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cerrno>

#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

/// perf_event_open as a machine with or without counters answers it: each open returns
/// `open_result` (an fd, or -errno), each read the metric's value from `values`.
class FakePerfEvents : public PerfEventApi {
 public:
  int open_result = 3;
  std::map<std::string, std::uint64_t> values = {
      {"instructions", 1000}, {"cycles", 2000}, {"branch_misses", 7}};
  bool reads = true;
  std::vector<std::pair<pid_t, bool>> opened;  // pid, enable_on_exec
  std::vector<int> closed;

  int open(pid_t pid, const PerfEvent& event, bool enable_on_exec) override {
    opened.emplace_back(pid, enable_on_exec);
    if (open_result < 0) return open_result;
    const int fd = open_result + static_cast<int>(metrics_.size());
    metrics_[fd] = event.metric;
    return fd;
  }
  std::optional<std::uint64_t> read(int fd) override {
    if (!reads) return std::nullopt;
    return values.at(metrics_.at(fd));
  }
  void close(int fd) override { closed.push_back(fd); }

 private:
  std::map<int, std::string> metrics_;
};

TEST(PerfCounters, AreUsableWhenEveryCounterOpensAndCounts) {
  FakePerfEvents fake;
  EXPECT_EQ(perf_counters_unavailable(fake, 2), std::nullopt);
  ASSERT_EQ(fake.opened.size(), 3u);
  EXPECT_EQ(fake.opened[0], std::make_pair(pid_t{0}, false));  // this process, at once
  EXPECT_EQ(fake.closed.size(), 3u);
}

TEST(PerfCounters, APermissionErrorNamesPerfEventParanoidAndItsValue) {
  FakePerfEvents fake;
  fake.open_result = -EACCES;
  const auto reason = perf_counters_unavailable(fake, 3);
  ASSERT_TRUE(reason);
  EXPECT_THAT(*reason, HasSubstr("perf_event_open(instructions): Permission denied"));
  EXPECT_THAT(*reason, HasSubstr("kernel.perf_event_paranoid is 3"));
  EXPECT_THAT(*reason, HasSubstr("sysctl kernel.perf_event_paranoid=2"));
  fake.open_result = -EPERM;
  EXPECT_THAT(*perf_counters_unavailable(fake, std::nullopt),
              HasSubstr("kernel.perf_event_paranoid could not be read"));
}

TEST(PerfCounters, ACpuWithoutCountersNamesTheVirtualisation) {
  FakePerfEvents fake;
  fake.open_result = -ENOENT;
  const auto reason = perf_counters_unavailable(fake, 2);
  ASSERT_TRUE(reason);
  EXPECT_THAT(*reason, HasSubstr("perf_event_open(instructions): No such file or directory"));
  EXPECT_THAT(*reason, HasSubstr("a virtual machine without a virtual PMU"));
  fake.open_result = -ENOSYS;
  EXPECT_THAT(*perf_counters_unavailable(fake, 2),
              HasSubstr("this kernel was built without perf events"));
  fake.open_result = 3;
  fake.reads = false;
  EXPECT_THAT(*perf_counters_unavailable(fake, 2),
              HasSubstr("perf_event_open(instructions): the counter opened but never counted"));
}

TEST(RunCounted, AttachesTheCountersToTheChildBeforeItExecsAndReadsThemAfterItExits) {
  FakePerfEvents fake;
  const CountedExit counted = run_counted({"sh", "-c", "exit 3"}, fake);
  EXPECT_EQ(counted.failure, "");
  ASSERT_TRUE(counted.wait_status);
  EXPECT_TRUE(WIFEXITED(*counted.wait_status));
  EXPECT_EQ(WEXITSTATUS(*counted.wait_status), 3);
  EXPECT_EQ(counted.counts, (std::map<std::string, std::uint64_t>{
                                {"instructions", 1000}, {"cycles", 2000}, {"branch_misses", 7}}));
  ASSERT_EQ(fake.opened.size(), 3u);
  for (const auto& [pid, on_exec] : fake.opened) {
    EXPECT_GT(pid, 0);  // the child, not this process
    EXPECT_TRUE(on_exec);
  }
  EXPECT_EQ(fake.closed.size(), 3u);
}

TEST(RunCounted, NeverStartsTheProgramWhenACounterCannotBeOpened) {
  const TempDir dir;
  FakePerfEvents fake;
  fake.open_result = -EACCES;
  const auto marker = dir / "ran";
  const CountedExit counted = run_counted({"touch", marker.string()}, fake);
  EXPECT_EQ(counted.failure, "perf_event_open(instructions): Permission denied");
  EXPECT_FALSE(counted.wait_status);
  EXPECT_TRUE(counted.counts.empty());
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(RunCounted, SaysWhenACounterNeverCountedAndKeepsNoCounts) {
  FakePerfEvents fake;
  fake.reads = false;
  const CountedExit counted = run_counted({"true"}, fake);
  EXPECT_EQ(counted.failure, "instructions: the counter never counted");
  EXPECT_TRUE(counted.counts.empty());
}

// This machine's own counters: where the kernel gives them, a real count of a real
// program; where not (a virtual machine, as CI's), the reason names the fix.
TEST(PerfCounters, OnThisMachineEitherCountARealProgramOrSayWhyNot) {
  const auto reason = perf_counters_unavailable(system_perf_events(), read_perf_event_paranoid());
  if (reason) {
    EXPECT_THAT(*reason,
                ::testing::AnyOf(HasSubstr("perf_event_paranoid"),
                                 HasSubstr("virtual machine without a virtual PMU"),
                                 HasSubstr("without perf events"), HasSubstr("never counted")));
    return;
  }
  const CountedExit counted = run_counted({"true"}, system_perf_events());
  EXPECT_EQ(counted.failure, "");
  EXPECT_GT(counted.counts.at("instructions"), 1000u);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
