#include "measure/cgroup_memory.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

// A folder that looks like a cgroup v2 parent whose children get the memory controller.
void make_fake_cgroup_parent(const TempDir& dir, const std::string& enabled = "memory pids") {
  dir.write("cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
  dir.write("cgroup.subtree_control", enabled + "\n");
}

std::string mountinfo_listing(const std::string& cgroup2_mount_point) {
  return "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
         "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
         "41 31 0:38 / " +
         cgroup2_mount_point + " rw,nosuid,nodev shared:9 - cgroup2 cgroup2 rw,nsdelegate\n";
}

TEST(CgroupMemory, FindsTheCgroup2MountAndUnescapesItsPath) {
  const TempDir dir;
  const auto mountinfo = dir.write("mountinfo", mountinfo_listing("/sys/fs/my\\040cgroups"));
  EXPECT_EQ(find_cgroup2_mount(mountinfo), std::filesystem::path("/sys/fs/my cgroups"));
}

TEST(CgroupMemory, FindsNoMountWhenOnlyCgroupV1IsMounted) {
  const TempDir dir;
  const auto mountinfo = dir.write(
      "mountinfo", "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n");
  EXPECT_EQ(find_cgroup2_mount(mountinfo), std::nullopt);
}

TEST(CgroupMemory, IsUsableWhenMemoryIsAvailableAndEnabledForChildren) {
  const TempDir dir;
  make_fake_cgroup_parent(dir);
  EXPECT_TRUE(cgroup_memory_usable(dir.path()));
}

TEST(CgroupMemory, IsNotUsableWhenMemoryIsNotEnabledForChildren) {
  const TempDir dir;
  make_fake_cgroup_parent(dir, "cpu pids");
  EXPECT_FALSE(cgroup_memory_usable(dir.path()));
}

TEST(CgroupMemory, IsNotUsableWithoutTheControllerFiles) {
  const TempDir dir;
  EXPECT_FALSE(cgroup_memory_usable(dir.path()));
}

TEST(CgroupMemory, DetectsAUsableMountFromMountinfo) {
  const TempDir mount;
  make_fake_cgroup_parent(mount);
  const TempDir dir;
  const auto mountinfo = dir.write("mountinfo", mountinfo_listing(mount.path().string()));
  EXPECT_EQ(detect_cgroup_memory_root(mountinfo), mount.path());
}

TEST(CgroupMemory, DetectsNothingWhenTheMountLacksTheMemoryController) {
  const TempDir mount;
  mount.write("cgroup.controllers", "hugetlb\n");
  mount.write("cgroup.subtree_control", "\n");
  const TempDir dir;
  const auto mountinfo = dir.write("mountinfo", mountinfo_listing(mount.path().string()));
  EXPECT_EQ(detect_cgroup_memory_root(mountinfo), std::nullopt);
}

TEST(CgroupMemory, CreatesTheRunCgroupMovesThePidInAndReadsThePeak) {
  const TempDir parent;
  make_fake_cgroup_parent(parent);
  const auto folder = parent / "perfgate-1-1";
  {
    CgroupMemory cgroup(parent.path(), "perfgate-1-1");
    ASSERT_TRUE(cgroup.active());
    ASSERT_TRUE(std::filesystem::is_directory(folder));
    parent.write("perfgate-1-1/cgroup.procs", "");  // the kernel provides these files
    cgroup.add(4321);
    EXPECT_TRUE(cgroup.active());
    EXPECT_EQ(read_text_file(folder / "cgroup.procs"), "4321");
    EXPECT_EQ(cgroup.peak_bytes(), std::nullopt);  // a kernel before 5.19 has no memory.peak
    parent.write("perfgate-1-1/memory.peak", "262144000\n");
    EXPECT_EQ(cgroup.peak_bytes(), 262144000u);
    // The kernel's files vanish with the cgroup; a plain folder must be emptied first.
    std::filesystem::remove(folder / "cgroup.procs");
    std::filesystem::remove(folder / "memory.peak");
  }
  EXPECT_FALSE(std::filesystem::exists(folder));
}

TEST(CgroupMemory, GivesUpAndRemovesTheCgroupWhenThePidCannotBeMovedIn) {
  const TempDir parent;
  make_fake_cgroup_parent(parent);
  CgroupMemory cgroup(parent.path(), "perfgate-1-2");
  cgroup.add(4321);  // no cgroup.procs to write to
  EXPECT_FALSE(cgroup.active());
  EXPECT_FALSE(std::filesystem::exists(parent / "perfgate-1-2"));
  EXPECT_EQ(cgroup.peak_bytes(), std::nullopt);
}

TEST(CgroupMemory, IsInactiveWhenTheParentDoesNotExist) {
  const TempDir dir;
  CgroupMemory cgroup(dir / "missing", "perfgate-1-3");
  EXPECT_FALSE(cgroup.active());
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
