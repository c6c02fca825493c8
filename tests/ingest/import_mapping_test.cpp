#include "ingest/import_mapping.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

ImportMapping toml_mapping(const std::string& text) {
  return parse_import_mapping(parse_toml_document("map.toml", text));
}

std::string toml_error(const std::string& text) {
  try {
    toml_mapping(text);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    return error.what();
  }
  return "no error";
}

TEST(ImportMapping, ReadsTomlEntriesInFileOrder) {
  const ImportMapping mapping = toml_mapping(R"(
[[benchmark]]
match = "BM_memcpy*"
workload_id = "memcpy"
variant_id = "default"
benchmark_version = 2

[[benchmark]]
match = "BM_sort/*"
variant_id = "std-sort"
)");
  EXPECT_EQ(mapping.source, "map.toml");
  ASSERT_EQ(mapping.entries.size(), 2u);
  EXPECT_EQ(mapping.entries[0].match, "BM_memcpy*");
  EXPECT_EQ(mapping.entries[0].identity.workload_id, "memcpy");
  EXPECT_EQ(mapping.entries[0].identity.variant_id, "default");
  EXPECT_EQ(mapping.entries[0].identity.benchmark_version, 2);
  EXPECT_EQ(mapping.entries[1].match, "BM_sort/*");
  EXPECT_EQ(mapping.entries[1].identity.workload_id, std::nullopt);
  EXPECT_EQ(mapping.entries[1].identity.variant_id, "std-sort");
  EXPECT_EQ(mapping.entries[1].identity.benchmark_version, std::nullopt);
}

TEST(ImportMapping, ReadsTheSameEntriesFromJson) {
  const ImportMapping mapping = parse_import_mapping(parse_json_document(
      "map.json", R"({"benchmark": [{"match": "BM_*", "workload_id": "all"}]})"));
  ASSERT_EQ(mapping.entries.size(), 1u);
  EXPECT_EQ(mapping.entries[0].match, "BM_*");
  EXPECT_EQ(mapping.entries[0].identity.workload_id, "all");
}

TEST(ImportMapping, RejectsAnUnknownTopLevelKeyAndSuggestsTheKnownOne) {
  EXPECT_EQ(toml_error("[[benchmarks]]\nmatch = \"x\"\nworkload_id = \"w\"\n"),
            "map.toml: benchmarks: unknown key 'benchmarks'. Did you mean 'benchmark'?");
}

TEST(ImportMapping, RejectsAnUnknownEntryKeyAndSuggestsTheKnownOne) {
  EXPECT_EQ(toml_error("[[benchmark]]\nmatch = \"x\"\nworklod_id = \"w\"\n"),
            "map.toml: benchmark[0].worklod_id: unknown key 'worklod_id'. Did you mean "
            "'workload_id'?");
}

TEST(ImportMapping, RejectsAnEntryWithoutMatch) {
  EXPECT_EQ(toml_error("[[benchmark]]\nworkload_id = \"w\"\n"),
            "map.toml: benchmark[0].match: missing required key. Add match = \"<glob>\", e.g. "
            "\"BM_memcpy*\", over the benchmark name or <benchmark>/<state>");
}

TEST(ImportMapping, RejectsAnEntryThatSetsNothing) {
  EXPECT_EQ(toml_error("[[benchmark]]\nmatch = \"x\"\n"),
            "map.toml: benchmark[0]: sets nothing. Add workload_id, variant_id, "
            "benchmark_version or regression_thresholds, or remove the entry");
}

TEST(ImportMapping, ReadsPerBenchmarkPoliciesAsABenchmarkConfigWritesThem) {
  const ImportMapping mapping = toml_mapping(R"(
[[benchmark]]
match = "BM_*"
[benchmark.regression_thresholds.latency]
threshold_percent = 0.05
threshold_absolute = 0.000001
[benchmark.regression_thresholds.cpu_time]
threshold_percent = 0.1
threshold_absolute = 0
gated = false
)");
  ASSERT_EQ(mapping.entries.size(), 1u);
  const auto& policies = mapping.entries[0].regression_thresholds;
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies.at("latency"), (MetricPolicy{0.05, 0.000001, true}));
  EXPECT_EQ(policies.at("cpu_time"), (MetricPolicy{0.1, 0, false}));
  EXPECT_EQ(mapping.entries[0].identity.workload_id, std::nullopt);
}

TEST(ImportMapping, RejectsAPolicyWithAKeyItDoesNotKnow) {
  const std::string error = toml_error(
      "[[benchmark]]\nmatch = \"x\"\n[benchmark.regression_thresholds.latency]\n"
      "threshold_pct = 0.05\n");
  EXPECT_NE(error.find("map.toml: benchmark[0].regression_thresholds.latency.threshold_pct: "
                       "unknown key"),
            std::string::npos)
      << error;
}

TEST(ImportMapping, RejectsABenchmarkVersionBelowOne) {
  EXPECT_EQ(toml_error("[[benchmark]]\nmatch = \"x\"\nbenchmark_version = 0\n"),
            "map.toml: benchmark[0].benchmark_version: must be at least 1, found 0. Start at 1 "
            "and raise it when the measurement protocol changes");
}

TEST(ImportMapping, RejectsAnEmptyWorkloadId) {
  EXPECT_EQ(toml_error("[[benchmark]]\nmatch = \"x\"\nworkload_id = \"\"\n"),
            "map.toml: benchmark[0].workload_id: must not be empty. Write a non-empty string");
}

TEST(ImportMapping, RejectsAQuotedBenchmarkVersion) {
  EXPECT_EQ(toml_error("[[benchmark]]\nmatch = \"x\"\nbenchmark_version = \"2\"\n"),
            "map.toml: benchmark[0].benchmark_version: expected an integer, found a string. "
            "Write the number without quotes");
}

TEST(ImportMapping, RejectsAFileWithoutBenchmarkEntries) {
  EXPECT_EQ(toml_error("# nothing\n"),
            "map.toml: benchmark: missing required key. Add [[benchmark]] entries with match "
            "and workload_id, variant_id or benchmark_version");
}

TEST(ImportMapping, ReportsAMissingFileAsMissingInput) {
  try {
    read_import_mapping("/nonexistent/perfgate-import-map.toml");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kNoInput);
  }
}

TEST(ImportMapping, MatchesTheBenchmarkAloneOrWithItsStateKey) {
  EXPECT_EQ(mapping_subject("BM_memcpy", ""), "BM_memcpy");
  EXPECT_EQ(mapping_subject("BM_memcpy", "8"), "BM_memcpy/8");
}

TEST(ImportMapping, TheFirstMatchingEntryWins) {
  const ImportMapping mapping = toml_mapping(R"(
[[benchmark]]
match = "BM_memcpy/64"
workload_id = "big"
[[benchmark]]
match = "BM_memcpy*"
workload_id = "any"
)");
  EXPECT_EQ(find_mapping_entry(mapping, "BM_memcpy/64")->identity.workload_id, "big");
  EXPECT_EQ(find_mapping_entry(mapping, "BM_memcpy/8")->identity.workload_id, "any");
  EXPECT_EQ(find_mapping_entry(mapping, "BM_sort/8"), nullptr);
}

TEST(ImportMapping, MatchesNamesWithBracketsLiterallyToo) {
  const ImportMapping mapping =
      toml_mapping("[[benchmark]]\nmatch = \"copy/T=[I32]\"\nworkload_id = \"w\"\n");
  EXPECT_NE(find_mapping_entry(mapping, "copy/T=[I32]"), nullptr);
  EXPECT_EQ(find_mapping_entry(mapping, "copy/T=I32"), nullptr);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
