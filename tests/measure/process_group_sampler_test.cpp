#include "measure/process_group_sampler.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "support/temp_dir.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

// A /proc/<pid>/stat line as Linux writes it, with the fields the sampler reads set.
std::string stat_line(int pid, const std::string& command, int process_group, long rss_pages) {
  return fmt::format(
      "{} ({}) S 1 {} {} 0 -1 4194304 120 0 0 0 5 3 0 0 20 0 1 0 12345 10485760 {} "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
      pid, command, process_group, process_group, rss_pages);
}

const std::uint64_t kPage = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));

TEST(ProcStat, ReadsTheProcessGroupAndResidentPages) {
  const auto stat = parse_proc_stat(stat_line(42, "bench", 40, 2560));
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->process_group, 40);
  EXPECT_EQ(stat->rss_pages, 2560);
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

TEST(ProcessGroupSampler, SeesNothingWhenTheProcTreeIsMissing) {
  const TempDir dir;
  ProcessGroupSampler sampler(dir / "no-proc");
  sampler.sample(100);
  EXPECT_EQ(sampler.peak_bytes(), 0u);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
