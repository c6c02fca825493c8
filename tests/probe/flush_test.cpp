// perfgate::probe::flush: the report lands whole at the path given, or the call says it
// could not be written.

#include <filesystem>
#include <fstream>
#include <random>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeFlush : public ProbeTest {
 protected:
  void SetUp() override {
    ProbeTest::SetUp();
    std::random_device random;
    dir_ = std::filesystem::temp_directory_path() /
           ("perfgate-test-probe-flush-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    ProbeTest::TearDown();
  }
  std::filesystem::path dir_;
};

TEST_F(ProbeFlush, WritesTheReportAndLeavesNoTemporaryFileBehind) {
  {
    probe::Run run;
    PERFGATE_REGION("decode");
  }
  const auto path = dir_ / "probe.json";
  ASSERT_TRUE(flush(path.string()));
  std::ifstream in(path);
  const Json doc = Json::parse(in);
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["runs"][0]["regions"][0]["region_id"], "decode");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);
}

TEST_F(ProbeFlush, ReplacesAReportAlreadyAtThePath) {
  const auto path = dir_ / "probe.json";
  std::ofstream(path) << "an older report";
  {
    probe::Run run;
    PERFGATE_REGION("decode");
  }
  ASSERT_TRUE(flush(path.string()));
  std::ifstream in(path);
  EXPECT_EQ(Json::parse(in)["runs"][0]["regions"][0]["region_id"], "decode");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);
}

TEST(ProbeCreatedAt, SaysSecondsSinceTheEpochAsAUtcStamp) {
  EXPECT_EQ(detail::utc_stamp(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(detail::utc_stamp(-1), "1969-12-31T23:59:59Z");
  EXPECT_EQ(detail::utc_stamp(951782400), "2000-02-29T00:00:00Z");
  EXPECT_EQ(detail::utc_stamp(4107542399), "2100-02-28T23:59:59Z");
  EXPECT_EQ(detail::utc_stamp(1796428799), "2026-12-04T23:59:59Z");
  // Years of five digits and before year 0 are written as printf's %04lld writes them.
  EXPECT_EQ(detail::utc_stamp(253402300800), "10000-01-01T00:00:00Z");
  EXPECT_EQ(detail::utc_stamp(-62167219200), "0000-01-01T00:00:00Z");
  EXPECT_EQ(detail::utc_stamp(-62167219201), "-001-12-31T23:59:59Z");
}

TEST_F(ProbeFlush, ReturnsFalseWhenTheFolderDoesNotExist) {
  EXPECT_FALSE(flush((dir_ / "missing" / "probe.json").string()));
}

TEST_F(ProbeFlush, KeepsTheTopLevelKeysOfTheContractInItsOrder) {
  std::vector<std::string> keys;
  const std::string text = detail::render_report(detail::ReportMoment::kFlush);
  for (const char* key : {"schema_version", "created_at", "perfgate_version", "config", "target",
                          "runs", "regions", "threads", "key_averages", "trace", "warnings"}) {
    const auto at = text.find("\n  \"" + std::string(key) + "\": ");
    ASSERT_NE(at, std::string::npos) << key;
    keys.push_back(key);
    EXPECT_TRUE(keys.size() == 1 || at > text.find("\n  \"" + keys[keys.size() - 2] + "\": "))
        << key << " comes before " << keys[keys.size() - 2];
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
