#include <gtest/gtest.h>

#include "diff/diff_config.hpp"
#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

/// The message parse_diff_config rejects `text` with (as compare.toml), or "accepted".
std::string rejection(const std::string& text) {
  try {
    parse_diff_config("compare.toml", text);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  return "accepted";
}

TEST(DiffConfigParser, ReadsThePresetAndEveryKey) {
  const DiffConfigFile file = parse_diff_config("compare.toml", R"(version = 1

[preset]
name = "strict"

[clear_gap]
relative = 0.01

[same]
center_relative = 0.002
overlap_fraction = 0.6
relative_dispersion_ceiling = 0.03

[bulk]
sample_coverage = 0.95
support_coverage = 0.7

[bulk.rare_support]
sample_fraction = 0.002
max_removed_sample_fraction = 0.05
)");
  EXPECT_EQ(file.preset, "strict");
  EXPECT_EQ(file.clear_gap_relative, 0.01);
  EXPECT_EQ(file.same_center_relative, 0.002);
  EXPECT_EQ(file.same_overlap_fraction, 0.6);
  EXPECT_EQ(file.same_relative_dispersion_ceiling, 0.03);
  EXPECT_EQ(file.bulk_sample_coverage, 0.95);
  EXPECT_EQ(file.bulk_support_coverage, 0.7);
  EXPECT_EQ(file.rare_support_sample_fraction, 0.002);
  EXPECT_EQ(file.rare_support_max_removed_sample_fraction, 0.05);
}

TEST(DiffConfigParser, LeavesKeysThatTheFileDoesNotSetUnset) {
  const DiffConfigFile file = parse_diff_config("compare.toml",
                                                "version = 1\n[same]\n"
                                                "overlap_fraction = 0.7\n");
  EXPECT_FALSE(file.preset.has_value());
  EXPECT_EQ(file.same_overlap_fraction, 0.7);
  EXPECT_FALSE(file.same_center_relative.has_value());
  EXPECT_FALSE(file.clear_gap_relative.has_value());
  EXPECT_FALSE(file.bulk_sample_coverage.has_value());
}

TEST(DiffConfigParser, AcceptsIntegersWhereNumbersAreExpected) {
  const DiffConfigFile file = parse_diff_config(
      "compare.toml",
      "version = 1\n[same]\noverlap_fraction = 1\nrelative_dispersion_ceiling = 2\n");
  EXPECT_EQ(file.same_overlap_fraction, 1.0);
  EXPECT_EQ(file.same_relative_dispersion_ceiling, 2.0);
}

TEST(DiffConfigParser, AcceptsDottedKeysAndAnEmptyPresetTable) {
  const DiffConfigFile file = parse_diff_config(
      "compare.toml", "version = 1\nbulk.rare_support.sample_fraction = 0.5\n[preset]\n");
  EXPECT_EQ(file.rare_support_sample_fraction, 0.5);
  EXPECT_FALSE(file.preset.has_value());
}

TEST(DiffConfigParser, RejectsTomlSyntaxErrorsWithTheirPosition) {
  const std::string message = rejection("version = 1\n[same\n");
  EXPECT_EQ(message.rfind("compare.toml:2:", 0), 0u) << message;
  EXPECT_NE(message.find(". Fix the TOML syntax at that position"), std::string::npos);
}

TEST(DiffConfigParser, RejectsAFileWithoutVersion) {
  EXPECT_EQ(rejection("[same]\noverlap_fraction = 0.5\n"),
            "compare.toml: version: the required key is missing. Add version = 1 as the first "
            "line.");
}

TEST(DiffConfigParser, RejectsUnsupportedVersions) {
  EXPECT_EQ(rejection("version = 2\n"),
            "compare.toml: version: version 2 is not supported. This perfgate reads version 1 "
            "only; write version = 1 (keys: docs/diff.md).");
  EXPECT_EQ(rejection("version = 0\n"),
            "compare.toml: version: version 0 is not supported. This perfgate reads version 1 "
            "only; write version = 1 (keys: docs/diff.md).");
}

TEST(DiffConfigParser, RejectsAVersionThatIsNotAnInteger) {
  EXPECT_EQ(rejection("version = 1.0\n"),
            "compare.toml: version: expected the integer 1, found a floating-point number. Write "
            "version = 1 without a decimal point.");
  EXPECT_EQ(rejection("version = \"1\"\n"),
            "compare.toml: version: expected the integer 1, found a string. Write version = 1 "
            "without quotes.");
  EXPECT_EQ(rejection("version = true\n"),
            "compare.toml: version: expected the integer 1, found a boolean. Write version = 1.");
}

TEST(DiffConfigParser, RejectsUnknownTopLevelTablesAndKeys) {
  EXPECT_EQ(rejection("version = 1\n[clear_gaps]\nrelative = 0.1\n"),
            "compare.toml: clear_gaps: unknown table [clear_gaps]. Did you mean 'clear_gap'?");
  EXPECT_EQ(rejection("version = 1\n[output]\n"),
            "compare.toml: output: unknown table [output]. Known keys: version, preset, "
            "clear_gap, same, bulk.");
  EXPECT_EQ(rejection("version = 1\ncolour = true\n"),
            "compare.toml: colour: unknown key 'colour'. Known keys: version, preset, clear_gap, "
            "same, bulk.");
}

TEST(DiffConfigParser, AnUnknownKeyDoesNotHideTheOtherErrorsOfItsTable) {
  EXPECT_EQ(rejection("version = 1\n[same]\ncenter_relativ = 0.1\ncenter_relative = -1\n"),
            "compare.toml: same.center_relativ: unknown key 'center_relativ'. Did you mean "
            "'center_relative'?\n"
            "compare.toml: same.center_relative: -1 is below 0. Use a value of 0 or more.");
}

TEST(DiffConfigParser, RejectsUnknownKeysInsideTables) {
  EXPECT_EQ(rejection("version = 1\n[same]\ncenter_relativ = 0.1\n"),
            "compare.toml: same.center_relativ: unknown key 'center_relativ'. Did you mean "
            "'center_relative'?");
  EXPECT_EQ(rejection("version = 1\n[bulk.rare_support]\nfraction = 0.1\n"),
            "compare.toml: bulk.rare_support.fraction: unknown key 'fraction'. Known keys: "
            "sample_fraction, max_removed_sample_fraction.");
  EXPECT_EQ(rejection("version = 1\n[preset]\nname = \"strict\"\ntitle = \"mine\"\n"),
            "compare.toml: preset.title: unknown key 'title'. Known keys: name.");
  EXPECT_EQ(rejection("version = 1\n[bulk.extra]\n"),
            "compare.toml: bulk.extra: unknown table [bulk.extra]. Known keys: sample_coverage, "
            "support_coverage, rare_support.");
}

TEST(DiffConfigParser, RejectsKeysAndTablesNestedInTheWrongPlace) {
  EXPECT_EQ(rejection("version = 1\n[rare_support]\nsample_fraction = 0.1\n"),
            "compare.toml: rare_support: unknown table [rare_support]. It belongs inside [bulk]: "
            "write [bulk.rare_support].");
  EXPECT_EQ(rejection("version = 1\n[same]\nsample_coverage = 0.9\n"),
            "compare.toml: same.sample_coverage: unknown key 'sample_coverage'. It belongs in "
            "[bulk]; move it there.");
  EXPECT_EQ(rejection("version = 1\nrelative = 0.1\n"),
            "compare.toml: relative: unknown key 'relative'. It belongs in [clear_gap]; move it "
            "there.");
  EXPECT_EQ(rejection("version = 1\n[bulk]\nmax_removed_sample_fraction = 0.1\n"),
            "compare.toml: bulk.max_removed_sample_fraction: unknown key "
            "'max_removed_sample_fraction'. It belongs in [bulk.rare_support]; move it there.");
  EXPECT_EQ(rejection("version = 1\n[same.rare_support]\n"),
            "compare.toml: same.rare_support: unknown table [same.rare_support]. It belongs in "
            "[bulk]; move it there.");
}

TEST(DiffConfigParser, RejectsAValueWhereATableBelongsAndATableWhereAValueBelongs) {
  EXPECT_EQ(rejection("version = 1\nbulk = 0.5\n"),
            "compare.toml: bulk: expected a table, found a floating-point number. Write [bulk] "
            "with its keys on the lines below it.");
  EXPECT_EQ(rejection("version = 1\npreset = \"strict\"\n"),
            "compare.toml: preset: expected a table, found a string. Write [preset] with its keys "
            "on the lines below it.");
  EXPECT_EQ(rejection("version = 1\n[bulk]\nrare_support = 0.1\n"),
            "compare.toml: bulk.rare_support: expected a table, found a floating-point number. "
            "Write [bulk.rare_support] with its keys on the lines below it.");
  EXPECT_EQ(rejection("version = 1\n[clear_gap.relative]\nvalue = 0.1\n"),
            "compare.toml: clear_gap.relative: expected a number, found a table. Write a value of "
            "0 or more.");
}

TEST(DiffConfigParser, RejectsThresholdsOfTheWrongType) {
  EXPECT_EQ(rejection("version = 1\n[same]\noverlap_fraction = \"0.5\"\n"),
            "compare.toml: same.overlap_fraction: expected a number, found a string. Write the "
            "number without quotes.");
  EXPECT_EQ(rejection("version = 1\n[same]\noverlap_fraction = true\n"),
            "compare.toml: same.overlap_fraction: expected a number, found a boolean. Write a "
            "value from 0 to 1.");
  EXPECT_EQ(rejection("version = 1\n[clear_gap]\nrelative = [0.1]\n"),
            "compare.toml: clear_gap.relative: expected a number, found an array. Write a value "
            "of 0 or more.");
}

TEST(DiffConfigParser, RejectsNonFiniteThresholds) {
  EXPECT_EQ(rejection("version = 1\n[same]\ncenter_relative = nan\n"),
            "compare.toml: same.center_relative: nan is not a finite number. Use a value of 0 or "
            "more.");
  EXPECT_EQ(rejection("version = 1\n[same]\nrelative_dispersion_ceiling = inf\n"),
            "compare.toml: same.relative_dispersion_ceiling: inf is not a finite number. Use a "
            "value of 0 or more.");
  EXPECT_EQ(rejection("version = 1\n[bulk]\nsample_coverage = -inf\n"),
            "compare.toml: bulk.sample_coverage: -inf is not a finite number. Use a value from 0 "
            "to 1.");
}

TEST(DiffConfigParser, RejectsThresholdsOutsideTheirRange) {
  EXPECT_EQ(rejection("version = 1\n[same]\noverlap_fraction = 1.5\n"),
            "compare.toml: same.overlap_fraction: 1.5 is above 1. Use a value from 0 to 1.");
  EXPECT_EQ(rejection("version = 1\n[clear_gap]\nrelative = -0.1\n"),
            "compare.toml: clear_gap.relative: -0.1 is below 0. Use a value of 0 or more.");
  EXPECT_EQ(rejection("version = 1\n[bulk.rare_support]\nsample_fraction = -1\n"),
            "compare.toml: bulk.rare_support.sample_fraction: -1 is below 0. Use a value from 0 "
            "to 1.");
  EXPECT_EQ(rejection("version = 1\n[bulk]\nsupport_coverage = 2\n"),
            "compare.toml: bulk.support_coverage: 2 is above 1. Use a value from 0 to 1.");
}

TEST(DiffConfigParser, RejectsUnknownPresetNamesAndNamesThatAreNotStrings) {
  EXPECT_EQ(rejection("version = 1\n[preset]\nname = \"strickt\"\n"),
            "compare.toml: preset.name: unknown preset 'strickt'. Did you mean 'strict'?");
  EXPECT_EQ(rejection("version = 1\n[preset]\nname = \"fastest\"\n"),
            "compare.toml: preset.name: unknown preset 'fastest'. Use default, strict or "
            "permissive.");
  EXPECT_EQ(rejection("version = 1\n[preset]\nname = 2\n"),
            "compare.toml: preset.name: expected a string, found an integer. Write name = "
            "\"default\", \"strict\" or \"permissive\".");
}

TEST(DiffConfigParser, ReportsEveryErrorOfTheFileAtOnce) {
  EXPECT_EQ(rejection("version = 1\n[same]\noverlap_fraction = 1.5\ncenter_relative = -1\n"
                      "[bulk]\nsample_coverage = \"all\"\n"),
            "compare.toml: same.overlap_fraction: 1.5 is above 1. Use a value from 0 to 1.\n"
            "compare.toml: same.center_relative: -1 is below 0. Use a value of 0 or more.\n"
            "compare.toml: bulk.sample_coverage: expected a number, found a string. Write the "
            "number without quotes.");
}

TEST(DiffConfigFileReading, ReadsAFileFromDisk) {
  const TempDir dir;
  const auto file = dir.write("compare.toml", "version = 1\n[clear_gap]\nrelative = 0.02\n");
  EXPECT_EQ(read_diff_config(file).clear_gap_relative, 0.02);
}

TEST(DiffConfigFileReading, RejectsAMissingFileAsNoInput) {
  const TempDir dir;
  try {
    read_diff_config(dir / "absent.toml");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
    EXPECT_EQ(std::string(error.what()),
              (dir / "absent.toml").string() +
                  ": cannot read the diff config (No such file or directory). Check the path "
                  "given to --config.");
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
