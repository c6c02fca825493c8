#include "measure/bounded_log.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {

TEST(BoundedLog, KeepsEverythingThatFitsTheLimit) {
  const TempDir dir;
  BoundedLog log(dir / "run.log", 10);
  log.write("hello ");
  log.write("you!");
  log.finish();
  EXPECT_EQ(read_text_file(dir / "run.log"), "hello you!");
  EXPECT_EQ(log.total_bytes(), 10u);
  EXPECT_EQ(log.dropped_bytes(), 0u);
}

TEST(BoundedLog, KeepsTheFirstAndLastHalfWhenOutputExceedsTheLimit) {
  const TempDir dir;
  BoundedLog log(dir / "run.log", 10);
  for (const char* chunk : {"012", "345", "678", "9AB", "CDE", "FGH", "IJ"}) log.write(chunk);
  log.finish();
  EXPECT_EQ(read_text_file(dir / "run.log"),
            "01234\n[perfgate: 10 bytes of output dropped]\nFGHIJ");
  EXPECT_EQ(log.total_bytes(), 20u);
  EXPECT_EQ(log.dropped_bytes(), 10u);
}

TEST(BoundedLog, KeepsTheLastHalfOfOneChunkLargerThanTheLimit) {
  const TempDir dir;
  BoundedLog log(dir / "run.log", 7);
  log.write("abcdefghijklmnopqrstuvwxyz");
  log.finish();
  EXPECT_EQ(read_text_file(dir / "run.log"), "abc\n[perfgate: 19 bytes of output dropped]\nwxyz");
  EXPECT_EQ(log.dropped_bytes(), 19u);
}

TEST(BoundedLog, WrapsTheTailAroundManyTimes) {
  const TempDir dir;
  BoundedLog log(dir / "run.log", 6);
  std::string all;
  for (int i = 0; i < 100; ++i) {
    const std::string chunk(1, static_cast<char>('a' + i % 26));
    all += chunk;
    log.write(chunk);
  }
  log.finish();
  EXPECT_EQ(read_text_file(dir / "run.log"),
            all.substr(0, 3) + "\n[perfgate: 94 bytes of output dropped]\n" + all.substr(97));
}

TEST(BoundedLog, DropsEverythingWithALimitOfZero) {
  const TempDir dir;
  BoundedLog log(dir / "run.log", 0);
  log.write("12345");
  log.finish();
  EXPECT_EQ(read_text_file(dir / "run.log"), "\n[perfgate: 5 bytes of output dropped]\n");
  EXPECT_EQ(log.dropped_bytes(), 5u);
}

TEST(BoundedLog, AppendsToAnExistingLog) {
  const TempDir dir;
  dir.write("run.log", "earlier run\n");
  BoundedLog log(dir / "run.log", 100);
  log.write("later run\n");
  log.finish();
  EXPECT_EQ(read_text_file(dir / "run.log"), "earlier run\nlater run\n");
}

TEST(BoundedLog, RefusesALogItCannotOpen) {
  const TempDir dir;
  const auto path = dir / "missing-folder/run.log";
  try {
    BoundedLog log(path, 100);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_EQ(std::string(error.what()),
              "cannot open the worker log " + path.string() +
                  ": No such file or directory. Check that its folder exists and is writable.");
  }
}

}  // namespace perfgate
