#include "ingest/bulk_file.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstring>
#include <filesystem>

#include "ingest/result_file.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

// Little-endian binary32 bytes of `values`, as nvbench writes them.
std::string float32_bytes(const std::vector<float>& values) {
  std::string bytes;
  for (const float value : values) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int shift = 0; shift < 32; shift += 8) bytes += static_cast<char>((bits >> shift) & 0xff);
  }
  return bytes;
}

TEST(BulkFile, ReadsLittleEndianFloat32ValuesAsDoubles) {
  const TempDir dir;
  const auto path = dir.write("t.bin", float32_bytes({0.5f, 1.25e-5f, 3.0f}));
  std::string warning;
  const auto values = load_bulk_file(BulkFile{"t.bin", path, 3}, warning);
  ASSERT_TRUE(values.has_value()) << warning;
  EXPECT_EQ(*values, (std::vector<double>{0.5, static_cast<double>(1.25e-5f), 3.0}));
  EXPECT_EQ(warning, "");
}

TEST(BulkFile, ReadsTheExactBytesOfAKnownValue) {
  const TempDir dir;
  const auto path = dir.write("t.bin", std::string("\x00\x00\x80\x3f", 4));  // 1.0f
  std::string warning;
  EXPECT_EQ(load_bulk_file(BulkFile{"t.bin", path, 1}, warning), std::vector<double>{1.0});
}

TEST(BulkFile, WarnsWhenTheFileIsMissing) {
  const TempDir dir;
  std::string warning;
  EXPECT_FALSE(load_bulk_file(BulkFile{"t.bin", dir / "t.bin", 3}, warning).has_value());
  EXPECT_EQ(warning, (dir / "t.bin").string() + ": cannot read: No such file or directory");
}

TEST(BulkFile, WarnsWhenTheSizeDisagreesWithTheCount) {
  const TempDir dir;
  const auto path = dir.write("t.bin", float32_bytes({1.0f, 2.0f}));
  std::string warning;
  EXPECT_FALSE(load_bulk_file(BulkFile{"t.bin", path, 3}, warning).has_value());
  EXPECT_EQ(warning,
            path.string() + ": holds 8 bytes, but the JSON states 3 float32 values (12 bytes)");
}

TEST(BulkFile, WarnsWithoutAllocatingWhenTheCountIsAbsurd) {
  const TempDir dir;
  const auto path = dir.write("t.bin", float32_bytes({1.0f}));
  std::string warning;
  const std::size_t absurd = static_cast<std::size_t>(-1) / 2;
  EXPECT_FALSE(load_bulk_file(BulkFile{"t.bin", path, absurd}, warning).has_value());
  EXPECT_EQ(warning, path.string() + ": holds 4 bytes, but the JSON states " +
                         std::to_string(absurd) + " float32 values (too many)");
}

TEST(BulkFile, WarnsWhenThePathIsAFolder) {
  const TempDir dir;
  std::string warning;
  EXPECT_FALSE(load_bulk_file(BulkFile{"d", dir.path(), 0}, warning).has_value());
  EXPECT_EQ(warning, dir.path().string() + ": cannot read: not a regular file");
}

TEST(BulkFile, WarnsWhenTheFileIsLongerThanStated) {
  // The first read asks for one byte more than stated: a longer file is caught by it.
  const TempDir dir;
  const auto path = dir.write("t.bin", float32_bytes({1.0f, 2.0f, 3.0f}));
  std::string warning;
  EXPECT_FALSE(load_bulk_file(BulkFile{"t.bin", path, 2}, warning).has_value());
  EXPECT_EQ(warning,
            path.string() + ": holds 12 bytes, but the JSON states 2 float32 values (8 bytes)");
}

TEST(BulkFile, ReadsAnEmptyFileThatStatesNoValues) {
  const TempDir dir;
  const auto path = dir.write("t.bin", "");
  std::string warning;
  EXPECT_EQ(load_bulk_file(BulkFile{"t.bin", path, 0}, warning), std::vector<double>{});
  EXPECT_EQ(warning, "");
}

TEST(BulkFile, WarnsWhenThePathIsAFifoWithoutWaitingForAWriter) {
  const TempDir dir;
  const auto path = dir / "t.bin";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string warning;
  EXPECT_FALSE(load_bulk_file(BulkFile{"t.bin", path, 2}, warning).has_value());
  EXPECT_EQ(warning, path.string() + ": cannot read: not a regular file");
}

TEST(BulkFilePath, KeepsAnAbsoluteNameAndResolvesOthersBesideTheJson) {
  const TempDir dir;
  EXPECT_EQ(resolve_bulk_path(dir / "r.json", "/abs/0.bin"), "/abs/0.bin");
  EXPECT_EQ(resolve_bulk_path(dir / "r.json", "r.json-bin/0.bin"), dir / "r.json-bin/0.bin")
      << "nothing exists anywhere: beside the JSON, so the read reports that path";
}

TEST(BulkFilePath, ResolvesAgainstTheWorkingDirectoryForAJsonWithoutFolder) {
  EXPECT_EQ(resolve_bulk_path("r.json", "x/0.bin"), "x/0.bin");
}

TEST(BulkFolders, AnswersAsTheFileSystemDoesForFilesLinksAndMissingFolders) {
  const TempDir dir;
  dir.write("bin/a.bin", "x");
  std::filesystem::create_symlink(dir / "bin/a.bin", dir / "bin/link.bin");
  std::filesystem::create_symlink(dir / "bin/gone.bin", dir / "bin/dangling.bin");
  std::filesystem::create_directory(dir / "bin/sub");
  BulkFolders folders;
  EXPECT_TRUE(folders.exists(dir / "bin/a.bin"));
  EXPECT_TRUE(folders.exists(dir / "bin/link.bin"));
  EXPECT_FALSE(folders.exists(dir / "bin/dangling.bin")) << "exists() follows the link";
  EXPECT_TRUE(folders.exists(dir / "bin/sub"));
  EXPECT_FALSE(folders.exists(dir / "bin/b.bin"));
  EXPECT_FALSE(folders.exists(dir / "nowhere/a.bin"));
  EXPECT_FALSE(folders.exists(dir / "bin/a.bin/x")) << "a file is no folder";
  EXPECT_TRUE(folders.exists(dir / "bin/."));
}

TEST(BulkFolders, ListsAFolderOnceSoLaterFilesAreNotSeen) {
  // The listing is the folder as it was when first asked about: a diff reads its files
  // once, and a file that appears meanwhile is read from where the rule first put it.
  const TempDir dir;
  dir.write("bin/a.bin", "x");
  BulkFolders folders;
  EXPECT_TRUE(folders.exists(dir / "bin/a.bin"));
  dir.write("bin/b.bin", "x");
  EXPECT_FALSE(folders.exists(dir / "bin/b.bin"));
  EXPECT_TRUE(BulkFolders().exists(dir / "bin/b.bin"));
}

TEST(BulkFilePath, ResolvesThousandsOfNamesWithOneListingPerFolderAsTheRuleSays) {
  const TempDir dir;
  dir.write("run/r.json", "{}");
  dir.write("run/r.json-bin/0.bin", "x");  // beside the JSON
  dir.write("r.json-bin/1.bin", "x");      // in the folder above (nvbench ran there)
  BulkFolders folders;
  EXPECT_EQ(resolve_bulk_path(dir / "run/r.json", "r.json-bin/0.bin", folders),
            dir / "run/r.json-bin/0.bin");
  EXPECT_EQ(resolve_bulk_path(dir / "run/r.json", "r.json-bin/1.bin", folders),
            dir / "r.json-bin/1.bin");
  EXPECT_EQ(resolve_bulk_path(dir / "run/r.json", "r.json-bin/2.bin", folders),
            dir / "run/r.json-bin/2.bin")
      << "found nowhere: beside the JSON, where the read then reports it missing";
}

TEST(BulkFilePath, TheTextShortcutAgreesWithTheRuleOrLeavesTheNameToIt) {
  // bulk_path_beside answers only for plain relative names found beside the JSON, and then
  // exactly as resolve_bulk_path does; every other name is left to the rule (nullopt).
  const TempDir dir;
  dir.write("run/r.json", "{}");
  dir.write("run/r.json-bin/0.bin", "x");
  dir.write("run/top.bin", "x");
  dir.write("r.json-bin/1.bin", "x");  // found only above the JSON's folder
  const std::string folder = (dir / "run").string();
  BulkFolders folders;
  EXPECT_EQ(bulk_path_beside(folder, "r.json-bin/0.bin", folders),
            (dir / "run/r.json-bin/0.bin").string());
  EXPECT_EQ(bulk_path_beside(folder, "top.bin", folders), (dir / "run/top.bin").string());
  EXPECT_EQ(bulk_path_beside(folder + "/", "top.bin", folders), (dir / "run/top.bin").string());
  for (const std::string name :
       {"r.json-bin/1.bin", "r.json-bin/9.bin", "/abs/0.bin", "./r.json-bin/0.bin",
        "r.json-bin/../top.bin", "r.json-bin//0.bin", "r.json-bin/", ""}) {
    EXPECT_EQ(bulk_path_beside(folder, name, folders), std::nullopt) << name;
  }
  for (const std::string name : {"r.json-bin/0.bin", "top.bin"}) {
    EXPECT_EQ(*bulk_path_beside(folder, name, folders),
              resolve_bulk_path(dir / "run/r.json", name).string())
        << name;
  }
  // A JSON named without a folder: its bulk files are found from the working directory.
  const std::filesystem::path here = std::filesystem::current_path();
  std::filesystem::current_path(dir / "run");
  EXPECT_EQ(bulk_path_beside("", "r.json-bin/0.bin", folders), "r.json-bin/0.bin");
  EXPECT_EQ(resolve_bulk_path("r.json", "r.json-bin/0.bin").string(), "r.json-bin/0.bin");
  std::filesystem::current_path(here);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
