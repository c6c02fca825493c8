// The runs' log of a bisection: written a line at a time, read back for --resume, a torn
// last line dropped, a log of another bisection refused.
#include "bisect/sample_log.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::bisect {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

const Json kHeader = {{"perfgate_bisect", 1}, {"good", "a"}, {"bad", "b"}, {"threshold", 0.02}};

std::string read(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(SampleLog, AppendsEachRunAsALineAndReadsThemBackToResume) {
  TempDir dir;
  const fs::path file = dir.path() / "samples.jsonl";
  {
    SampleLog log = SampleLog::create(file, kHeader);
    log.append({"a", 0.5, ""});
    log.append({"b", std::nullopt, "build: exit 1"});
  }
  EXPECT_EQ(read(file), kHeader.dump() + "\n" + R"({"commit":"a","value":0.5})" + "\n" +
                            R"({"commit":"b","failed":"build: exit 1"})" + "\n");
  SampleLog resumed = SampleLog::resume(file, kHeader);
  ASSERT_EQ(resumed.pending().size(), 2u);
  EXPECT_EQ(resumed.pending()[0].commit, "a");
  EXPECT_EQ(resumed.pending()[0].value, 0.5);
  EXPECT_FALSE(resumed.pending()[1].value.has_value());
  EXPECT_EQ(resumed.pending()[1].failure, "build: exit 1");
}

TEST(SampleLog, ATornLastLineIsDroppedAndTheFileKeepsTheWholeOnes) {
  TempDir dir;
  const fs::path file = dir.path() / "samples.jsonl";
  std::ofstream(file) << kHeader.dump() << "\n"
                      << R"({"commit":"a","value":0.5})"
                      << "\n"
                      << R"({"commit":"a","val)";
  SampleLog resumed = SampleLog::resume(file, kHeader);
  ASSERT_EQ(resumed.pending().size(), 1u);
  resumed.append({"c", 1.0, ""});
  EXPECT_EQ(read(file), kHeader.dump() + "\n" + R"({"commit":"a","value":0.5})" + "\n" +
                            R"({"commit":"c","value":1.0})" + "\n");
}

TEST(SampleLog, DiscardingWhatWasNotReplayedKeepsWhatWas) {
  TempDir dir;
  const fs::path file = dir.path() / "samples.jsonl";
  {
    SampleLog log = SampleLog::create(file, kHeader);
    for (const char* commit : {"a", "b", "c"}) log.append({commit, 1.0, ""});
  }
  SampleLog resumed = SampleLog::resume(file, kHeader);
  resumed.pending().pop_front();
  resumed.note_replayed();
  resumed.discard_pending();
  resumed.append({"d", 2.0, ""});
  EXPECT_EQ(read(file), kHeader.dump() + "\n" + R"({"commit":"a","value":1.0})" + "\n" +
                            R"({"commit":"d","value":2.0})" + "\n");
}

TEST(SampleLog, RefusesToResumeAnotherBisection) {
  TempDir dir;
  const fs::path file = dir.path() / "samples.jsonl";
  { SampleLog::create(file, kHeader); }
  Json other = kHeader;
  other["threshold"] = 0.05;
  try {
    SampleLog::resume(file, other);
    FAIL() << "resumed another bisection";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what()).find("holds a bisection with threshold 0.02, not 0.05"),
              std::string::npos)
        << error.what();
  }
  try {
    SampleLog::resume(dir.path() / "none.jsonl", kHeader);
    FAIL() << "resumed nothing";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
  }
  EXPECT_THROW(SampleLog::create(file, kHeader), Error) << "a log is never overwritten";
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::bisect
