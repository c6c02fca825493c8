// The range `perfgate history bisect` takes from an export: a change point widened by two
// points each side, or a flag's previous point to the flag.
#include "bisect/export_range.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate::bisect {
namespace PERFGATE_TEST_FILE {

std::string sha(int i) {
  return std::string(39, 'a') + static_cast<char>('0' + i);
}

/// Ten commits; the series has a point on each but commit 4, and a change at point 6.
Json history() {
  Json commits = Json::array();
  for (int i = 0; i < 10; ++i) commits.push_back({{"sha", sha(i)}});
  return {{"commits", commits},
          {"series",
           {{{"id", "s-1"},
             {"case", "app"},
             {"metric", "latency"},
             {"points", {{"commit", {0, 1, 2, 3, 5, 6, 7, 8, 9}}}},
             {"changes", {{{"index", 6}}}}},
            {{"id", "s-2"},
             {"case", "app"},
             {"metric", "instructions"},
             {"points", {{"commit", {0, 9}}}},
             {"changes", Json::array()}}}},
          {"flags",
           {{{"series", "s-1"}, {"commit", sha(7)}, {"previous_commit", sha(6)}},
            {{"series", "s-2"}, {"commit", sha(9)}, {"previous_commit", sha(0)}}}}};
}

TEST(ExportRange, AChangePointIsWidenedByTwoPointsEachSide) {
  // Point 6 (commit 7) starts the new level: good is point 3 (commit 3), bad point 8 (9).
  const ExportRange range = range_from_export(history(), "s-1", 1, "");
  EXPECT_EQ(range.good, sha(3));
  EXPECT_EQ(range.bad, sha(9));
  EXPECT_EQ(range.case_name, "app");
  EXPECT_EQ(range.metric, "latency");
}

TEST(ExportRange, AFlagRunsFromItsPreviousPointToIt) {
  const ExportRange range = range_from_export(history(), "s-1", std::nullopt, sha(7).substr(0, 9));
  EXPECT_EQ(range.good, sha(6));
  EXPECT_EQ(range.bad, sha(7));
  const ExportRange counted = range_from_export(history(), "s-2", std::nullopt, sha(9));
  EXPECT_EQ(counted.metric, "instructions");
  EXPECT_EQ(counted.good, sha(0));
}

TEST(ExportRange, SaysWhatIsMissingAndWhatThereIs) {
  const auto message = [](const std::string& series, std::optional<int> change,
                          const std::string& flag) {
    try {
      range_from_export(history(), series, change, flag);
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kDataError);
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("s-3", 1, ""),
            "--series s-3: the export has no such series. Did you mean 's-1'?");
  EXPECT_EQ(message("s-1", 2, ""),
            "--change 2: series s-1 has 1 change point. Give a number from 1 (the oldest)");
  EXPECT_EQ(message("s-2", 1, ""),
            "--change 1: series s-2 has 0 change points. Give a number from 1 (the oldest), or "
            "bisect a flag with --flag");
  EXPECT_NE(message("s-1", std::nullopt, sha(5))
                .find("--flag " + sha(5) +
                      ": series s-1 has no "
                      "flag at that commit"),
            std::string::npos);
  EXPECT_NE(message("s-1", std::nullopt, "aaa").find("no flag"), std::string::npos)
      << "a prefix under 7 digits names no flag";
  Json broken = history();
  broken["series"][0]["points"] = "nonsense";
  try {
    range_from_export(broken, "s-1", 1, "");
    ADD_FAILURE() << "a broken export is refused";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what()).find("not a history.json perfgate wrote"),
              std::string::npos);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::bisect
