#include "config/key_suggestion.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(KeySuggestion, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("comand", "command"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
}

TEST(KeySuggestion, SuggestsTheNearestKnownKeyForATypo) {
  const std::vector<std::string> known = {"benchmark_id", "command", "cwd", "env"};
  EXPECT_EQ(nearest_key("comand", known), "command");
  EXPECT_EQ(nearest_key("benchmarkid", known), "benchmark_id");
  EXPECT_EQ(nearest_key("ENV", known), std::nullopt);  // 3 edits, limit max(2, 1) = 2
}

TEST(KeySuggestion, AllowsMoreEditsForLongerKeys) {
  const std::vector<std::string> known = {"num_measurement_runs"};
  // 17 characters allow 5 edits; these are 3 away.
  EXPECT_EQ(nearest_key("nm_measuremnt_rns", known), "num_measurement_runs");
  // 11 characters allow 3 edits; these are 9 away.
  EXPECT_EQ(nearest_key("measurement", known), std::nullopt);
}

TEST(KeySuggestion, PrefersTheEarlierKnownKeyOnATie) {
  EXPECT_EQ(nearest_key("cat", {"bat", "cot"}), "bat");
}

TEST(KeySuggestion, ListsTheKnownKeysWhenNothingIsClose) {
  EXPECT_EQ(unknown_key_fix("comand", {"command", "cwd"}), "Did you mean 'command'?");
  EXPECT_EQ(unknown_key_fix("model_path", {"command", "cwd"}), "Known keys: command, cwd");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
