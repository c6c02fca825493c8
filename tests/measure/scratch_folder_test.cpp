// Scratch folders: removed with their scope, and, when a killed process could not remove
// its own, by the next perfgate that makes one of the same kind; never anyone else's.
#include "measure/scratch_folder.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

/// The pid of a process that has ended (and been reaped).
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

/// Sets TMPDIR for the scope, so the test's scratch folders land in its own folder.
struct TmpdirScope {
  explicit TmpdirScope(const fs::path& dir) {
    const char* old = std::getenv("TMPDIR");
    if (old != nullptr) previous = old;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~TmpdirScope() {
    if (previous.empty()) {
      ::unsetenv("TMPDIR");
    } else {
      ::setenv("TMPDIR", previous.c_str(), 1);
    }
  }
  std::string previous;
};

TEST(ScratchFolder, RemovesItselfAndWhatKilledProcessesLeftButNothingElse) {
  TempDir dir;
  const TmpdirScope tmpdir(dir.path());
  // Left by a killed perfgate: its marker names a process that is gone.
  dir.write("perfgate-sweep-abc123/.perfgate-owner", std::to_string(dead_pid()) + " 12345\n");
  dir.write("perfgate-sweep-abc123/src/file.c", "x");
  // Not perfgate's: no marker.
  dir.write("perfgate-sweep-zzz999/keep.txt", "mine");
  // Of a perfgate that still runs: this process.
  std::string start;
  {
    std::ifstream stat("/proc/self/stat");
    std::string line;
    std::getline(stat, line);
    std::istringstream fields(line.substr(line.rfind(')') + 2));
    for (int i = 3; i <= 22; ++i) fields >> start;
  }
  dir.write("perfgate-sweep-live01/.perfgate-owner", std::to_string(::getpid()) + " " + start);
  // Another prefix: not this kind's to clear.
  dir.write("perfgate-other-abc123/.perfgate-owner", std::to_string(dead_pid()) + " 1\n");

  fs::path made;
  {
    const ScratchFolder scratch("perfgate-sweep-");
    made = scratch.path();
    EXPECT_TRUE(fs::exists(made / ".perfgate-owner"));
    EXPECT_EQ(made.parent_path(), dir.path());
  }
  EXPECT_FALSE(fs::exists(made));
  EXPECT_FALSE(fs::exists(dir / "perfgate-sweep-abc123"));
  EXPECT_TRUE(fs::exists(dir / "perfgate-sweep-zzz999/keep.txt"));
  EXPECT_TRUE(fs::exists(dir / "perfgate-sweep-live01"));
  EXPECT_TRUE(fs::exists(dir / "perfgate-other-abc123"));
}

// Asked before each run's files are looked for: each answer reads the folder as it is then.
TEST(ScratchFolder, SaysWhetherAnythingButItsMarkerIsInItEachTimeItIsAsked) {
  const TempDir dir;
  const TmpdirScope scope(dir.path());
  ScratchFolder scratch;
  EXPECT_TRUE(scratch.holds_only_its_marker());
  std::ofstream(scratch.path() / "metrics-0.jsonl") << "{}\n";
  EXPECT_FALSE(scratch.holds_only_its_marker());
  fs::remove(scratch.path() / "metrics-0.jsonl");
  EXPECT_TRUE(scratch.holds_only_its_marker());
  fs::create_directory(scratch.path() / "counts-0");
  EXPECT_FALSE(scratch.holds_only_its_marker());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
