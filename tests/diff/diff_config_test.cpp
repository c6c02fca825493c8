#include "diff/diff_config.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

DiffThresholds thresholds_of(std::string_view preset) {
  return *preset_thresholds(preset);
}

TEST(DiffPresets, AreDefaultStrictAndPermissive) {
  EXPECT_EQ(preset_names(), (std::vector<std::string>{"default", "strict", "permissive"}));
  EXPECT_FALSE(preset_thresholds("fast").has_value());
}

TEST(DiffPresets, DefaultHoldsTheSeedValues) {
  const DiffThresholds t = thresholds_of("default");
  EXPECT_EQ(t.clear_gap_relative, 0.005);
  EXPECT_EQ(t.same_center_relative, 0.005);
  EXPECT_EQ(t.same_overlap_fraction, 0.5);
  EXPECT_EQ(t.same_relative_dispersion_ceiling, 0.02);
  EXPECT_EQ(t.bulk_sample_coverage, 0.97);
  EXPECT_EQ(t.bulk_support_coverage, 0.8);
  EXPECT_EQ(t.rare_support_sample_fraction, 0.001);
  EXPECT_EQ(t.rare_support_max_removed_sample_fraction, 0.01);
}

TEST(DiffPresets, StrictAndPermissiveHoldTheDocumentedValues) {
  EXPECT_EQ(thresholds_of("strict"),
            (DiffThresholds{0.01, 0.0025, 0.75, 0.01, 0.99, 0.9, 0.001, 0.005}));
  EXPECT_EQ(thresholds_of("permissive"),
            (DiffThresholds{0.0025, 0.01, 0.25, 0.05, 0.9, 0.6, 0.001, 0.02}));
}

// Every threshold of strict makes FAST/SLOW and SAME harder to reach than default does,
// and every threshold of permissive easier (or leaves it as it is).
TEST(DiffPresets, StrictIsNeverEasierAndPermissiveNeverHarderThanDefault) {
  const DiffThresholds d = thresholds_of("default");
  for (const auto& [harder, easier] :
       {std::pair{thresholds_of("strict"), d}, std::pair{d, thresholds_of("permissive")}}) {
    EXPECT_GT(harder.clear_gap_relative, easier.clear_gap_relative);
    EXPECT_LT(harder.same_center_relative, easier.same_center_relative);
    EXPECT_GT(harder.same_overlap_fraction, easier.same_overlap_fraction);
    EXPECT_LT(harder.same_relative_dispersion_ceiling, easier.same_relative_dispersion_ceiling);
    EXPECT_GT(harder.bulk_sample_coverage, easier.bulk_sample_coverage);
    EXPECT_GT(harder.bulk_support_coverage, easier.bulk_support_coverage);
    EXPECT_EQ(harder.rare_support_sample_fraction, easier.rare_support_sample_fraction);
    EXPECT_LT(harder.rare_support_max_removed_sample_fraction,
              easier.rare_support_max_removed_sample_fraction);
  }
}

TEST(DiffConfigPrecedence, UsesTheDefaultPresetWhenNothingSelectsOne) {
  const DiffConfig config = resolve_diff_config(std::nullopt, std::nullopt);
  EXPECT_EQ(config.preset, "default");
  EXPECT_EQ(config.thresholds, thresholds_of("default"));
}

TEST(DiffConfigPrecedence, UsesTheFilesPresetAsTheBase) {
  DiffConfigFile file;
  file.preset = "permissive";
  const DiffConfig config = resolve_diff_config(std::nullopt, file);
  EXPECT_EQ(config.preset, "permissive");
  EXPECT_EQ(config.thresholds, thresholds_of("permissive"));
}

TEST(DiffConfigPrecedence, CommandLinePresetReplacesTheFilesPreset) {
  DiffConfigFile file;
  file.preset = "permissive";
  const DiffConfig config = resolve_diff_config("strict", file);
  EXPECT_EQ(config.preset, "strict");
  EXPECT_EQ(config.thresholds, thresholds_of("strict"));
}

TEST(DiffConfigPrecedence, ExplicitFileKeysOverrideWhicheverPresetIsTheBase) {
  DiffConfigFile file;
  file.preset = "permissive";
  file.bulk_sample_coverage = 0.99;
  file.rare_support_sample_fraction = 0.002;

  DiffThresholds expected = thresholds_of("permissive");
  expected.bulk_sample_coverage = 0.99;
  expected.rare_support_sample_fraction = 0.002;
  EXPECT_EQ(resolve_diff_config(std::nullopt, file).thresholds, expected);

  expected = thresholds_of("strict");
  expected.bulk_sample_coverage = 0.99;
  expected.rare_support_sample_fraction = 0.002;
  EXPECT_EQ(resolve_diff_config("strict", file).thresholds, expected);
}

TEST(DiffConfigPrecedence, FileKeysApplyOverTheDefaultWhenNoPresetIsNamed) {
  DiffConfigFile file;
  file.clear_gap_relative = 0.0;
  file.same_relative_dispersion_ceiling = 3;
  DiffThresholds expected = thresholds_of("default");
  expected.clear_gap_relative = 0.0;
  expected.same_relative_dispersion_ceiling = 3;
  const DiffConfig config = resolve_diff_config(std::nullopt, file);
  EXPECT_EQ(config.preset, "default");
  EXPECT_EQ(config.thresholds, expected);
}

TEST(DiffConfigPrecedence, RejectsAnUnknownCommandLinePresetAsAUsageError) {
  try {
    resolve_diff_config("fastest", std::nullopt);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
    EXPECT_STREQ(error.what(),
                 "--preset: unknown preset 'fastest'. Use default, strict or permissive.");
  }
}

TEST(DiffConfigDump, WritesEveryKeyUnderItsTable) {
  EXPECT_EQ(dump_diff_config(resolve_diff_config(std::nullopt, std::nullopt)),
            "version = 1\n"
            "\n"
            "[preset]\n"
            "name = \"default\"\n"
            "\n"
            "[clear_gap]\n"
            "relative = 0.005\n"
            "\n"
            "[same]\n"
            "center_relative = 0.005\n"
            "overlap_fraction = 0.5\n"
            "relative_dispersion_ceiling = 0.02\n"
            "\n"
            "[bulk]\n"
            "sample_coverage = 0.97\n"
            "support_coverage = 0.8\n"
            "\n"
            "[bulk.rare_support]\n"
            "sample_fraction = 0.001\n"
            "max_removed_sample_fraction = 0.01\n");
}

TEST(DiffConfigDump, SpellsWholeNumbersAndTinyNumbersAsTomlFloats) {
  DiffConfig config{"strict", {0, 1, 1, 25, 0, 1, 1e-05, 1e-300}};
  const std::string text = dump_diff_config(config);
  EXPECT_NE(text.find("relative = 0.0\n"), std::string::npos);
  EXPECT_NE(text.find("center_relative = 1.0\n"), std::string::npos);
  EXPECT_NE(text.find("relative_dispersion_ceiling = 25.0\n"), std::string::npos);
  EXPECT_NE(text.find("sample_fraction = 1e-05\n"), std::string::npos);
  EXPECT_NE(text.find("max_removed_sample_fraction = 1e-300\n"), std::string::npos);
}

TEST(DiffConfigDump, ParsesBackToTheSameConfiguration) {
  std::vector<DiffConfig> configs;
  for (const std::string& name : preset_names()) configs.push_back({name, thresholds_of(name)});
  configs.push_back({"permissive", {1.0 / 3, 0.1 + 0.2, 2.0 / 3, 123456.789, 0, 1, 1e-05, 0.7}});
  for (const DiffConfig& config : configs) {
    const DiffConfigFile file = parse_diff_config("dump.toml", dump_diff_config(config));
    EXPECT_EQ(resolve_diff_config(std::nullopt, file), config) << dump_diff_config(config);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
