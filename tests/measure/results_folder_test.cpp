#include "measure/results_folder.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(ResultsFolder, NamesTheFileAfterTheBenchmarkAndTheTimestamp) {
  TempDir dir;
  RawRecord record;
  record.identity.benchmark_id = "sort[n=10]";
  const auto path = write_raw_record(dir / "results", record, "20261130T113704Z");
  EXPECT_EQ(path.filename(), "perf_sort_n_10__20261130T113704Z.json");
  EXPECT_EQ(Json::parse(read_text_file(path))["benchmark_id"], "sort[n=10]");
}

TEST(ResultsFolder, NeverOverwritesARecordWithTheSameName) {
  TempDir dir;
  RawRecord first, second;
  first.identity.benchmark_id = second.identity.benchmark_id = "a";
  first.provenance.device = "first";
  second.provenance.device = "second";
  const auto a = write_raw_record(dir.path(), first, "T");
  const auto b = write_raw_record(dir.path(), second, "T");
  EXPECT_EQ(a.filename(), "perf_a_T.json");
  EXPECT_EQ(b.filename(), "perf_a_T-2.json");
  EXPECT_EQ(Json::parse(read_text_file(a))["device"], "first");
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_NE(entry.path().filename().string().rfind(".tmp-", 0), 0u)
        << "temporary file left: " << entry.path();
  }
}

TEST(ResultsFolder, ReportsAnUnwritableFolderAsAnIoError) {
  RawRecord record;
  record.identity.benchmark_id = "a";
  try {
    write_raw_record("/proc/perfgate-cannot-write-here", record, "T");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_NE(std::string(error.what()).find("/proc/perfgate-cannot-write-here"),
              std::string::npos);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
