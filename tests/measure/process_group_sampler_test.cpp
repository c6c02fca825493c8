#include "measure/process_group_sampler.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <vector>

#include "support/temp_dir.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

// A /proc/<pid>/stat line as Linux writes it, with the fields the sampler reads set.
std::string stat_line(int pid, const std::string& command, int process_group, long rss_pages,
                      int threads = 1) {
  return fmt::format(
      "{} ({}) S 1 {} {} 0 -1 4194304 120 0 0 0 5 3 0 0 20 0 {} 0 12345 10485760 {} "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
      pid, command, process_group, process_group, threads, rss_pages);
}

const std::uint64_t kPage = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));

TEST(ProcStat, ReadsTheProcessGroupAndResidentPages) {
  const auto stat = parse_proc_stat(stat_line(42, "bench", 40, 2560));
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->process_group, 40);
  EXPECT_EQ(stat->threads, 1);
  EXPECT_EQ(stat->rss_pages, 2560);
  EXPECT_EQ(parse_proc_stat(stat_line(42, "bench", 40, 2560, 12))->threads, 12);
}

TEST(ProcStat, CountsFieldsAfterTheLastParenthesisOfTheCommandName) {
  const auto stat = parse_proc_stat(stat_line(42, "a) (9 9 9) x", 77, 12));
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->process_group, 77);
  EXPECT_EQ(stat->rss_pages, 12);
}

TEST(ProcStat, RejectsTruncatedOrGarbledText) {
  EXPECT_FALSE(parse_proc_stat("42 (bench) S 1 40").has_value());
  EXPECT_FALSE(parse_proc_stat("no parenthesis at all").has_value());
  EXPECT_FALSE(
      parse_proc_stat("42 (bench) S 1 x 40 0 -1 4 1 0 0 0 5 3 0 0 20 0 1 0 1 1 9 1").has_value());
}

TEST(ProcStat, ReadsThisProcessFromTheRealProc) {
  std::ifstream in("/proc/self/stat");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto stat = parse_proc_stat(text);
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->process_group, ::getpgrp());
  EXPECT_GT(stat->rss_pages, 0);
}

TEST(ProcessGroupSampler, SumsTheResidentSetOfEveryProcessInTheGroup) {
  const TempDir proc;
  proc.write("100/stat", stat_line(100, "leader", 100, 10));
  proc.write("101/stat", stat_line(101, "worker (1)", 100, 5));
  proc.write("102/stat", stat_line(102, "other", 200, 1000));
  proc.write("self/stat", stat_line(100, "leader", 100, 10));  // not a pid: skipped
  proc.write("103/stat", "103 (broken");
  std::filesystem::create_directories(proc / "104");  // vanished before its stat was read
  ProcessGroupSampler sampler(proc.path());
  sampler.sample(100);
  EXPECT_EQ(sampler.peak_bytes(), 15 * kPage);
}

TEST(ProcessGroupSampler, KeepsTheLargestSumAcrossSamples) {
  const TempDir proc;
  proc.write("100/stat", stat_line(100, "leader", 100, 10));
  ProcessGroupSampler sampler(proc.path());
  sampler.sample(100);
  proc.write("101/stat", stat_line(101, "child", 100, 50));
  sampler.sample(100);
  proc.write("100/stat", stat_line(100, "leader", 100, 1));
  std::filesystem::remove_all(proc / "101");
  sampler.sample(100);
  EXPECT_EQ(sampler.peak_bytes(), 60 * kPage);
}

// The tree below perfgate (pid 1 here, with two threads): the run's leader 100, its children
// 101 and 102 (102 moved to a group of its own, its child 103 back in the run's), and 200, a
// process of the run's group that is not below perfgate.
void write_tree(const TempDir& proc) {
  proc.write("1/stat", stat_line(1, "perfgate", 1, 3000, 2));
  proc.write("1/task/1/children", "");
  proc.write("1/task/7/children", "100 ");
  proc.write("100/stat", stat_line(100, "leader", 100, 10));
  proc.write("100/task/100/children", "101 102 ");
  proc.write("101/stat", stat_line(101, "worker", 100, 5));
  proc.write("101/task/101/children", "");
  proc.write("102/stat", stat_line(102, "apart", 300, 7));
  proc.write("102/task/102/children", "103 ");
  proc.write("103/stat", stat_line(103, "back", 100, 2));
  proc.write("103/task/103/children", "");
  proc.write("200/stat", stat_line(200, "elsewhere", 100, 1000));
}

// The run's peak, in pages, from one sample of group 100 below pid 1.
std::uint64_t peak_pages_below_perfgate(const TempDir& proc) {
  ProcessGroupSampler sampler(proc.path(), 1);
  sampler.sample(100);
  return sampler.peak_bytes() / kPage;
}

TEST(ProcessGroupSampler, WalksTheTreeBelowTheRootInsteadOfEveryProcess) {
  const TempDir proc;
  write_tree(proc);
  // 100, 101 and 103; not 102 (another group) nor 200 (not below the root).
  EXPECT_EQ(peak_pages_below_perfgate(proc), 17u);
}

TEST(ProcessGroupSampler, ReadsTheChildrenOfEveryThreadOfAProcessOfSeveral) {
  const TempDir proc;
  write_tree(proc);
  proc.write("100/stat", stat_line(100, "leader", 100, 10, 2));
  proc.write("100/task/100/children", "101 ");
  proc.write("100/task/104/children", "102 ");
  EXPECT_EQ(peak_pages_below_perfgate(proc), 17u);
}

TEST(ProcessGroupSampler, SkipsAChildThatVanishedWhileTheTreeWasWalked) {
  const TempDir proc;
  write_tree(proc);
  std::filesystem::remove_all(proc / "101");
  EXPECT_EQ(peak_pages_below_perfgate(proc), 12u);
}

TEST(ProcessGroupSampler, ReadsEveryProcessWhereTheKernelListsNoChildren) {
  const TempDir proc;
  write_tree(proc);
  std::filesystem::remove_all(proc / "1" / "task");
  EXPECT_EQ(peak_pages_below_perfgate(proc), 1017u);
}

TEST(ProcessGroupSampler, SeesAChildOfThisProcessOnTheRealProc) {
  // A child in a process group of its own, holding 32 MiB it has touched.
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::setpgid(0, 0);
    std::vector<char> held(32u << 20, 1);
    const char byte = held[held.size() / 2];
    if (::write(ready[1], &byte, 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ::close(ready[0]);
  ProcessGroupSampler sampler;
  sampler.sample(child);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_GE(sampler.peak_bytes(), std::uint64_t{32} << 20);
}

TEST(ProcessGroupSampler, SeesNothingWhenTheProcTreeIsMissing) {
  const TempDir dir;
  ProcessGroupSampler sampler(dir / "no-proc");
  sampler.sample(100);
  EXPECT_EQ(sampler.peak_bytes(), 0u);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
