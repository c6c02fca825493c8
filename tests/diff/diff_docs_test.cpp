// docs/diff.md states the default file, the reason codes and the presets: it must say
// what the code does.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "diff/diff_config.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

std::string diff_doc() {
  std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/docs/diff.md");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(DiffDocs, ShowTheDefaultConfigurationExactlyAsDumpConfigPrintsIt) {
  const std::string doc = diff_doc();
  const std::size_t start = doc.find("```toml\n");
  ASSERT_NE(start, std::string::npos);
  const std::size_t body = start + 8;
  const std::string block = doc.substr(body, doc.find("```", body) - body);
  EXPECT_EQ(block, dump_diff_config(resolve_diff_config(std::nullopt, std::nullopt)));
}

TEST(DiffDocs, GiveEveryReasonItsShortCode) {
  const std::string doc = diff_doc();
  const std::regex row(R"(\| `([a-z_]+)` \| `([a-z-]+)` \| (FAST/SLOW|SAME|AMBG|\?\?\?\?) \|)");
  int rows = 0;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it) {
    EXPECT_EQ(short_reason_code((*it)[1].str()), (*it)[2].str()) << (*it)[1].str();
    ++rows;
  }
  EXPECT_EQ(rows, 33);  // one row per code the comparator gives
}

TEST(DiffDocs, ListThePresetValuesTheCodeUses) {
  const std::string doc = diff_doc();
  const DiffThresholds s = *preset_thresholds("strict");
  const DiffThresholds d = *preset_thresholds("default");
  const DiffThresholds p = *preset_thresholds("permissive");
  const auto row = [](std::string_view key, double strict, double normal, double permissive) {
    std::ostringstream text;
    text << "| `" << key << "` | " << strict << " | " << normal << " | " << permissive << " |";
    return text.str();
  };
  for (const std::string& expected : {
           row("clear_gap.relative", s.clear_gap_relative, d.clear_gap_relative,
               p.clear_gap_relative),
           row("same.center_relative", s.same_center_relative, d.same_center_relative,
               p.same_center_relative),
           row("same.overlap_fraction", s.same_overlap_fraction, d.same_overlap_fraction,
               p.same_overlap_fraction),
           row("same.relative_dispersion_ceiling", s.same_relative_dispersion_ceiling,
               d.same_relative_dispersion_ceiling, p.same_relative_dispersion_ceiling),
           row("bulk.sample_coverage", s.bulk_sample_coverage, d.bulk_sample_coverage,
               p.bulk_sample_coverage),
           row("bulk.support_coverage", s.bulk_support_coverage, d.bulk_support_coverage,
               p.bulk_support_coverage),
           row("bulk.rare_support.sample_fraction", s.rare_support_sample_fraction,
               d.rare_support_sample_fraction, p.rare_support_sample_fraction),
           row("bulk.rare_support.max_removed_sample_fraction",
               s.rare_support_max_removed_sample_fraction,
               d.rare_support_max_removed_sample_fraction,
               p.rare_support_max_removed_sample_fraction),
       }) {
    EXPECT_NE(doc.find(expected), std::string::npos) << expected;
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
