#include "report/worker_log_copy.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;

TEST(WorkerLogCopy, WritesTheLogAsMarkdownNamedAfterTheBenchmarkAndStamp) {
  TempDir dir;
  const auto log = dir.write("results/worker_logs/worker_decode.log", "loading\nstep 1\n");
  const fs::path copy =
      copy_worker_log_to_reports(log, "decode[n=2]", "20261201T050000Z", dir / "reports");
  EXPECT_EQ(copy, dir / "reports" / "worker_decode_n_2__20261201T050000Z.md");
  EXPECT_EQ(read_text_file(copy), "# Worker log of decode\\[n=2\\]\n\nCopied from `" +
                                      log.string() + "`.\n\n```text\nloading\nstep 1\n```\n");
}

TEST(WorkerLogCopy, NeverOverwritesAnEarlierCopy) {
  TempDir dir;
  const auto first = dir.write("a.log", "first\n");
  const auto second = dir.write("b.log", "second\n");
  const fs::path one = copy_worker_log_to_reports(first, "decode", "T1", dir / "reports");
  const fs::path two = copy_worker_log_to_reports(second, "decode", "T1", dir / "reports");
  EXPECT_EQ(one, dir / "reports" / "worker_decode_T1.md");
  EXPECT_EQ(two, dir / "reports" / "worker_decode_T1-2.md");
  EXPECT_NE(read_text_file(one).find("first\n"), std::string::npos);
  EXPECT_NE(read_text_file(two).find("second\n"), std::string::npos);
}

TEST(WorkerLogCopy, ChoosesAFenceLongerThanAnyBacktickRunInTheLog) {
  const std::string log = "```\nnot the end\n````python\nx`````y\n";
  EXPECT_EQ(worker_log_markdown("b", "w.log", log),
            "# Worker log of b\n\nCopied from `w.log`.\n\n``````text\n" + log + "``````\n");
}

TEST(WorkerLogCopy, PutsAPathWithBackticksInALongerCodeSpan) {
  EXPECT_NE(worker_log_markdown("b", "odd`name.log", "").find("Copied from ``odd`name.log``.\n"),
            std::string::npos);
}

TEST(WorkerLogCopy, EndsTheLastLineOfALogThatLacksANewline) {
  EXPECT_EQ(worker_log_markdown("b", "w.log", "tail"),
            "# Worker log of b\n\nCopied from `w.log`.\n\n```text\ntail\n```\n");
}

TEST(WorkerLogCopy, WritesNothingWhenTheWorkerLogIsMissing) {
  TempDir dir;
  EXPECT_EQ(copy_worker_log_to_reports(dir / "gone.log", "b", "T1", dir / "reports"), fs::path());
  EXPECT_EQ(copy_worker_log_to_reports("", "b", "T1", dir / "reports"), fs::path());
  EXPECT_FALSE(fs::exists(dir / "reports"));
}

TEST(WorkerLogCopy, RefusesAReportsFolderThatCannotBeCreatedWithAnIoError) {
  TempDir dir;
  const auto log = dir.write("a.log", "x\n");
  dir.write("blocked", "a file where the folder should be");
  try {
    copy_worker_log_to_reports(log, "b", "T1", dir / "blocked" / "reports");
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_NE(std::string(error.what()).find((dir / "blocked" / "reports").string()),
              std::string::npos)
        << error.what();
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
