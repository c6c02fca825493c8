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

TEST(ScratchFolder, SeesFilesMovedOrLinkedInAndKeepsLookingUntilTheLastIsGone) {
  const TempDir dir;
  const TmpdirScope scope(dir.path());
  ScratchFolder scratch;
  EXPECT_TRUE(scratch.holds_only_its_marker());
  EXPECT_TRUE(scratch.holds_only_its_marker());
  // A report written beside the folder and renamed into it, as programs write atomically.
  std::ofstream(dir.path() / "probe.tmp") << "{}";
  fs::rename(dir.path() / "probe.tmp", scratch.path() / "probe-0.json");
  EXPECT_FALSE(scratch.holds_only_its_marker());
  fs::remove(scratch.path() / "probe-0.json");
  EXPECT_TRUE(scratch.holds_only_its_marker());
  std::ofstream(dir.path() / "outside") << "x";
  fs::create_hard_link(dir.path() / "outside", scratch.path() / "metrics-1.jsonl");
  EXPECT_FALSE(scratch.holds_only_its_marker());
  fs::remove(scratch.path() / "metrics-1.jsonl");
  EXPECT_TRUE(scratch.holds_only_its_marker());
  // Two files at once (a queued run's beside the one being read): after one is removed the
  // other is still seen, though no new file came in since.
  std::ofstream(scratch.path() / "metrics-2.jsonl") << "{}\n";
  std::ofstream(scratch.path() / "metrics-3.jsonl") << "{}\n";
  EXPECT_FALSE(scratch.holds_only_its_marker());
  fs::remove(scratch.path() / "metrics-2.jsonl");
  EXPECT_FALSE(scratch.holds_only_its_marker());
  EXPECT_FALSE(scratch.holds_only_its_marker());
  fs::remove(scratch.path() / "metrics-3.jsonl");
  EXPECT_TRUE(scratch.holds_only_its_marker());
  // A file written into the folder's subfolder is the subfolder's business: the subfolder
  // itself is what is seen.
  fs::create_directory(scratch.path() / "counts-4");
  EXPECT_FALSE(scratch.holds_only_its_marker());
  std::ofstream(scratch.path() / "counts-4" / "x") << "1";
  EXPECT_FALSE(scratch.holds_only_its_marker());
  fs::remove_all(scratch.path() / "counts-4");
  EXPECT_TRUE(scratch.holds_only_its_marker());
  // A file that was written and removed before anyone asked leaves nothing to see.
  std::ofstream(scratch.path() / "gone") << "x";
  fs::remove(scratch.path() / "gone");
  EXPECT_TRUE(scratch.holds_only_its_marker());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
