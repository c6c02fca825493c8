// The real binary on pairs of result files giving every status of `perfgate diff`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "model/json.hpp"
#include "report/text_table.hpp"
#include "support/cli_runner.hpp"
#include "support/nvbench_fixture.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::gpu_summaries;
using ::testing::HasSubstr;
using testing::NvbenchStateSpec;
using testing::run_perfgate;
using testing::write_nvbench_file;

constexpr double kClock = 1.4e9;

NvbenchStateSpec summary_state(const std::string& t, double center, double spread,
                               std::optional<double> clock = kClock) {
  NvbenchStateSpec spec;
  spec.benchmark = "copy";
  spec.axes = {{"T", t}};
  spec.gpu = gpu_summaries(center, spread);
  spec.clock_rate = clock;
  return spec;
}

/// 1,000 samples around `center` on a 0.1% grid, so repeated values exist as in real
/// GPU timings (the bulk SAME test looks at unique values and their counts).
std::vector<float> samples_around(double center) {
  std::vector<float> samples;
  for (int i = 0; i < 1000; ++i) {
    samples.push_back(static_cast<float>(center * (1.0 + 0.001 * ((i * 7) % 5))));
  }
  return samples;
}

/// Rows of the JSON output keyed by "<benchmark>/<state_key>".
std::map<std::string, Json> rows_by_state(const std::string& json_text) {
  std::map<std::string, Json> rows;
  const Json document = Json::parse(json_text);
  for (const auto& section : document["sections"]) {
    for (const auto& row : section["rows"]) {
      rows[section["benchmark"].get<std::string>() + "/" + row["state_key"].get<std::string>()] =
          row;
    }
  }
  return rows;
}

class DiffCommand : public ::testing::Test {
 protected:
  /// reference and compare nvbench files covering every status.
  void write_every_status() {
    write_nvbench_file(dir / "ref.json",
                       {summary_state("same", 1e-3, 0.004), summary_state("slow", 1e-3, 0.004),
                        summary_state("fast", 1e-3, 0.004), summary_state("noisy", 1e-3, 0.1),
                        summary_state("noclock", 1e-3, 0.004, std::nullopt),
                        summary_state("gone", 1e-3, 0.004), skipped("skipped")});
    write_nvbench_file(dir / "cmp.json",
                       {summary_state("same", 1e-3, 0.004), summary_state("slow", 1.2e-3, 0.004),
                        summary_state("fast", 0.8e-3, 0.004), summary_state("noisy", 1e-3, 0.1),
                        summary_state("noclock", 1.2e-3, 0.004, std::nullopt),
                        summary_state("skipped", 1e-3, 0.004)});
  }

  static NvbenchStateSpec skipped(const std::string& t) {
    auto spec = summary_state(t, 1e-3, 0.004);
    spec.skipped = true;
    return spec;
  }

  TempDir dir;
};

TEST_F(DiffCommand, GivesEveryStatusWithItsReason) {
  write_every_status();
  const auto result =
      run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto rows = rows_by_state(result.out);
  ASSERT_EQ(rows.size(), 7u);
  auto status = [&](const std::string& key) { return rows.at(key)["status"].get<std::string>(); };
  auto reason = [&](const std::string& key) {
    return rows.at(key)["reason"]["code"].get<std::string>();
  };
  EXPECT_EQ(status("copy/T=same"), "SAME");
  EXPECT_EQ(reason("copy/T=same"), "same_confirmed_by_cycles");
  EXPECT_EQ(status("copy/T=slow"), "SLOW");
  EXPECT_EQ(reason("copy/T=slow"), "clear_gap_confirmed_by_summary_cycles");
  EXPECT_EQ(status("copy/T=fast"), "FAST");
  EXPECT_EQ(reason("copy/T=fast"), "clear_gap_confirmed_by_summary_cycles");
  EXPECT_EQ(status("copy/T=noisy"), "AMBG");
  EXPECT_EQ(reason("copy/T=noisy"), "noise_too_high");
  EXPECT_EQ(status("copy/T=noclock"), "AMBG");
  EXPECT_EQ(reason("copy/T=noclock"), "missing_clock_rate");
  EXPECT_EQ(status("copy/T=gone"), "????");
  EXPECT_EQ(reason("copy/T=gone"), "only_in_reference");
  EXPECT_EQ(status("copy/T=skipped"), "????");
  EXPECT_EQ(reason("copy/T=skipped"), "state_skipped");

  const Json summary = Json::parse(result.out)["summary"];
  EXPECT_EQ(summary["total"], 6);
  EXPECT_EQ(summary["same"], 1);
  EXPECT_EQ(summary["fast"], 1);
  EXPECT_EQ(summary["slow"], 1);
  EXPECT_EQ(summary["ambiguous"], 2);
  EXPECT_EQ(summary["unknown"], 1);
  EXPECT_EQ(summary["only_in_reference"], 1);
  EXPECT_EQ(summary["only_in_compare"], 0);
  EXPECT_EQ(summary["ambiguous_reasons"]["noise_too_high"]["count"], 1);
}

TEST_F(DiffCommand, FailsOnlyWhereAsked) {
  write_every_status();
  EXPECT_EQ(run_perfgate({"diff", "ref.json", "cmp.json"}, dir.path()).exit_code, 0);
  EXPECT_EQ(
      run_perfgate({"diff", "--fail-on", "slow", "ref.json", "cmp.json"}, dir.path()).exit_code, 1);
  EXPECT_EQ(
      run_perfgate({"diff", "--fail-on", "ambg", "ref.json", "cmp.json"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_perfgate({"diff", "--fail-on", "slow,ambg", "ref.json", "cmp.json"}, dir.path())
                .exit_code,
            1);
  EXPECT_EQ(run_perfgate(
                {"diff", "--fail-on", "slow", "-b", "copy", "-a", "T=same", "ref.json", "cmp.json"},
                dir.path())
                .exit_code,
            0);
}

TEST_F(DiffCommand, ScopesAxisFiltersToTheBenchmark) {
  write_every_status();
  const auto result = run_perfgate(
      {"diff", "--format", "json", "-b", "copy", "-a", "T=[slow,fast]", "ref.json", "cmp.json"},
      dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto rows = rows_by_state(result.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows.count("copy/T=slow"));
  EXPECT_TRUE(rows.count("copy/T=fast"));
}

TEST_F(DiffCommand, DecidesWithBulkSamplesAndCycles) {
  auto bulk = [](const std::string& t, double center) {
    NvbenchStateSpec spec = summary_state(t, center, 0.004);
    spec.sample_times = samples_around(center);
    spec.sample_freqs = std::vector<float>(1000, static_cast<float>(kClock));
    return spec;
  };
  write_nvbench_file(dir / "ref.json", {bulk("same", 1e-3), bulk("slow", 1e-3)});
  write_nvbench_file(dir / "cmp.json", {bulk("same", 1e-3), bulk("slow", 1.2e-3)});
  const auto result =
      run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto rows = rows_by_state(result.out);
  EXPECT_EQ(rows.at("copy/T=same")["status"], "SAME");
  EXPECT_EQ(rows.at("copy/T=same")["evidence"], "bulk-cycles");
  EXPECT_EQ(rows.at("copy/T=slow")["status"], "SLOW");
  EXPECT_EQ(rows.at("copy/T=slow")["reason"]["code"], "clear_gap_confirmed_by_bulk_cycles");
}

TEST_F(DiffCommand, NeverLetsSampleCoverageOverruleCentersThatAreTooFarApart) {
  // Bimodal timings: half the samples at 1.000 ms, half at 1.010 ms, with the majority
  // flipping sides, so the medians are 1% apart while the samples are the same two values.
  auto bimodal = [](int low_count) {
    std::vector<float> samples(1000, 1.010e-3f);
    std::fill(samples.begin(), samples.begin() + low_count, 1.000e-3f);
    return samples;
  };
  NvbenchStateSpec ref = summary_state("bimodal", 1.000e-3, 0.004);
  ref.sample_times = bimodal(501);
  ref.sample_freqs = std::vector<float>(1000, static_cast<float>(kClock));
  NvbenchStateSpec cmp = summary_state("bimodal", 1.010e-3, 0.004);
  cmp.sample_times = bimodal(499);
  cmp.sample_freqs = ref.sample_freqs;
  write_nvbench_file(dir / "ref.json", {ref});
  write_nvbench_file(dir / "cmp.json", {cmp});
  const auto result =
      run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto row = rows_by_state(result.out).at("copy/T=bimodal");
  // The two samples cover each other value for value, but their medians are 1% apart:
  // like nvbench-compare, perfgate asks for close centers before coverage can show SAME.
  EXPECT_EQ(row["status"], "AMBG");
  EXPECT_EQ(row["reason"]["code"], "centers_not_close");
}

TEST_F(DiffCommand, WarnsAndFallsBackToSummariesWhenABulkFileIsMissing) {
  NvbenchStateSpec spec = summary_state("same", 1e-3, 0.004);
  spec.sample_times = samples_around(1e-3);
  spec.sample_freqs = std::vector<float>(1000, static_cast<float>(kClock));
  write_nvbench_file(dir / "ref.json", {spec});
  write_nvbench_file(dir / "cmp.json", {spec});
  std::filesystem::remove_all(dir / "cmp.json-bin");
  const auto result =
      run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("perfgate: warning: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("cmp.json-bin/0.bin"), std::string::npos) << result.err;
  EXPECT_EQ(rows_by_state(result.out).at("copy/T=same")["status"], "SAME");
}

TEST_F(DiffCommand, DecidesFormatsWithoutAClockOnTheClearGapAndExplainsIt) {
  auto gbench = [](double slow_factor) {
    Json rows = Json::array();
    for (int rep = 0; rep < 5; ++rep) {
      rows.push_back({{"name", "BM_copy/64"},
                      {"run_name", "BM_copy/64"},
                      {"run_type", "iteration"},
                      {"repetitions", 5},
                      {"repetition_index", rep},
                      {"iterations", 1000},
                      {"real_time", (100.0 + rep) * slow_factor},
                      {"cpu_time", (100.0 + rep) * slow_factor},
                      {"time_unit", "ns"}});
    }
    return Json{{"context", {{"date", "2026-11-30"}, {"num_cpus", 2}}}, {"benchmarks", rows}}
        .dump();
  };
  dir.write("base.json", gbench(1.0));
  dir.write("head.json", gbench(1.5));
  const auto json =
      run_perfgate({"diff", "--format", "json", "base.json", "head.json"}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto row = rows_by_state(json.out).at("BM_copy/64");
  EXPECT_EQ(row["status"], "SLOW");
  EXPECT_EQ(row["decided_without_clock"], true);

  const auto explain =
      run_perfgate({"diff", "--display", "explain", "base.json", "head.json"}, dir.path());
  ASSERT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_NE(explain.out.find("carry no clock rate"), std::string::npos) << explain.out;
  EXPECT_NE(explain.out.find("\xF0\x9F\x94\xB4 SLOW"), std::string::npos) << explain.out;
}

TEST_F(DiffCommand, DumpsAConfigThatReadsBackToTheSameValues) {
  const auto strict = run_perfgate({"diff", "--dump-config", "--preset", "strict"}, dir.path());
  ASSERT_EQ(strict.exit_code, 0) << strict.err;
  EXPECT_NE(strict.out.find("name = \"strict\""), std::string::npos) << strict.out;
  dir.write("compare.toml", strict.out);
  const auto again =
      run_perfgate({"diff", "--dump-config", "--config", "compare.toml"}, dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, strict.out);
  const auto defaults = run_perfgate({"diff", "--dump-config"}, dir.path());
  EXPECT_NE(defaults.out.find("name = \"default\""), std::string::npos) << defaults.out;
  EXPECT_NE(defaults.out, strict.out);
}

TEST_F(DiffCommand, LetsTheCommandLinePresetReplaceTheFilesPresetButKeepsItsKeys) {
  dir.write("compare.toml",
            "version = 1\n[preset]\nname = \"permissive\"\n[bulk]\nsample_coverage = 0.99\n");
  const auto permissive =
      run_perfgate({"diff", "--dump-config", "--config", "compare.toml"}, dir.path());
  ASSERT_EQ(permissive.exit_code, 0) << permissive.err;
  EXPECT_NE(permissive.out.find("name = \"permissive\""), std::string::npos);
  EXPECT_NE(permissive.out.find("sample_coverage = 0.99"), std::string::npos) << permissive.out;
  const auto strict = run_perfgate(
      {"diff", "--dump-config", "--config", "compare.toml", "--preset", "strict"}, dir.path());
  EXPECT_NE(strict.out.find("name = \"strict\""), std::string::npos);
  EXPECT_NE(strict.out.find("sample_coverage = 0.99"), std::string::npos) << strict.out;
}

TEST_F(DiffCommand, RejectsBadInputWithTheRightExitCode) {
  write_every_status();
  dir.write("bad.toml", "version = 2\n");
  const auto config =
      run_perfgate({"diff", "--config", "bad.toml", "ref.json", "cmp.json"}, dir.path());
  EXPECT_EQ(config.exit_code, 65);
  EXPECT_NE(config.err.find("bad.toml"), std::string::npos) << config.err;

  const auto missing = run_perfgate({"diff", "ref.json", "nope.json"}, dir.path());
  EXPECT_EQ(missing.exit_code, 66);
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << missing.err;

  dir.write("broken.json", "{\"benchmarks\": [");
  const auto broken = run_perfgate({"diff", "ref.json", "broken.json"}, dir.path());
  EXPECT_EQ(broken.exit_code, 65);
  EXPECT_NE(broken.err.find("broken.json"), std::string::npos) << broken.err;
  EXPECT_TRUE(broken.out.empty());

  EXPECT_EQ(run_perfgate({"diff", "ref.json"}, dir.path()).exit_code, 64);
  EXPECT_EQ(
      run_perfgate({"diff", "--display", "fancy", "ref.json", "cmp.json"}, dir.path()).exit_code,
      64);
  EXPECT_EQ(run_perfgate({"diff", "-a", "T", "ref.json", "cmp.json"}, dir.path()).exit_code, 64);
  EXPECT_EQ(
      run_perfgate({"diff", "--format-in", "xml", "ref.json", "cmp.json"}, dir.path()).exit_code,
      64);
  const auto forced =
      run_perfgate({"diff", "--format-in", "hyperfine", "ref.json", "cmp.json"}, dir.path());
  EXPECT_EQ(forced.exit_code, 65);
  EXPECT_NE(forced.err.find("ref.json"), std::string::npos) << forced.err;
  EXPECT_NE(forced.err.find("results"), std::string::npos) << forced.err;
  EXPECT_EQ(run_perfgate({"diff", "--reference-devices", "7", "ref.json", "cmp.json"}, dir.path())
                .exit_code,
            64);
}

/// A hyperfine --export-json file of one command measured `times` (seconds).
std::string hyperfine_export(const std::string& command, const std::vector<double>& times) {
  double sum = 0;
  for (const double t : times) sum += t;
  const double mean = sum / static_cast<double>(times.size());
  double squares = 0;
  for (const double t : times) squares += (t - mean) * (t - mean);
  const Json result = {{"command", command},
                       {"mean", mean},
                       {"stddev", std::sqrt(squares / static_cast<double>(times.size() - 1))},
                       {"median", times[times.size() / 2]},
                       {"user", 0.001},
                       {"system", 0.001},
                       {"min", *std::min_element(times.begin(), times.end())},
                       {"max", *std::max_element(times.begin(), times.end())},
                       {"times", times},
                       {"exit_codes", std::vector<int>(times.size(), 0)}};
  return Json{{"results", Json::array({result})}}.dump();
}

// `hyperfine ./old/app` against `hyperfine ./new/app`: no command in common, so the single
// results are paired by position and compared, and the user is told.
TEST_F(DiffCommand, PairsHyperfineExportsOfDifferentCommandsByPosition) {
  dir.write("old.json", hyperfine_export("./old/app", {0.100, 0.101, 0.099, 0.100, 0.102, 0.100,
                                                       0.101, 0.099, 0.100, 0.100}));
  dir.write("new.json", hyperfine_export("./new/app", {0.177, 0.178, 0.176, 0.177, 0.179, 0.177,
                                                       0.178, 0.176, 0.177, 0.177}));
  const auto result =
      run_perfgate({"diff", "--fail-on", "slow", "old.json", "new.json"}, dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("perfgate: note: the two hyperfine exports have no command in "
                                    "common: their 1 result(s) are paired by position "
                                    "('./old/app' with './new/app')\n"));
  EXPECT_THAT(result.out, HasSubstr("SLOW"));
}

// States without a partner are not compared at all; --fail-on unmatched says so in the exit.
TEST_F(DiffCommand, FailsOnUnmatchedStatesOnlyWhenAsked) {
  write_nvbench_file(dir / "ref.json",
                     {summary_state("kept", 1e-3, 0.004), summary_state("renamed", 1e-3, 0.004)});
  write_nvbench_file(dir / "cmp.json",
                     {summary_state("kept", 1e-3, 0.004), summary_state("new_name", 1e-3, 0.004)});
  EXPECT_EQ(run_perfgate({"diff", "--fail-on", "slow,ambg", "ref.json", "cmp.json"}, dir.path())
                .exit_code,
            0);
  EXPECT_EQ(
      run_perfgate({"diff", "--fail-on", "slow,unmatched", "ref.json", "cmp.json"}, dir.path())
          .exit_code,
      2);
  write_nvbench_file(dir / "cmp.json",
                     {summary_state("kept", 1e-3, 0.004), summary_state("renamed", 1e-3, 0.004)});
  EXPECT_EQ(run_perfgate({"diff", "--fail-on", "unmatched", "ref.json", "cmp.json"}, dir.path())
                .exit_code,
            0);
}

TEST_F(DiffCommand, WritesABulkDebugScriptThatNumpyCanLoad) {
  NvbenchStateSpec spec = summary_state("same", 1e-3, 0.004);
  spec.sample_times = samples_around(1e-3);
  spec.sample_freqs = std::vector<float>(1000, static_cast<float>(kClock));
  write_nvbench_file(dir / "ref.json", {spec, summary_state("plain", 1e-3, 0.004)});
  write_nvbench_file(dir / "cmp.json", {spec, summary_state("plain", 1e-3, 0.004)});
  const auto result =
      run_perfgate({"diff", "--bulk-debug-python", "out.py", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string script = read_text_file(dir / "out.py");
  EXPECT_EQ(script.rfind("# NVB-BULK-BEGIN\n", 0), 0u);
  EXPECT_TRUE(script.ends_with("# NVB-BULK-END\n"));

  dir.write("check.py",
            "exec(open('out.py').read())\n"
            "assert len(bulk_rows) == 2, bulk_rows\n"
            "row = bulk_rows[0]\n"
            "assert row['status'] == 'SAME' and row['state_key'] == 'T=same', row\n"
            "arrays = load_bulk_data(row)\n"
            "assert len(arrays['reference_samples']) == 1000\n"
            "assert len(arrays['compare_frequencies']) == 1000\n"
            "assert abs(float(arrays['reference_frequencies'][0]) - 1.4e9) < 1e3\n"
            "assert load_bulk_data(bulk_rows[1])['reference_samples'] is None\n"
            "print('ok')\n");
  const std::string command = "cd '" + dir.path().string() + "' && /usr/bin/python3 check.py";
  EXPECT_EQ(std::system(command.c_str()), 0);

  const auto to_stdout =
      run_perfgate({"diff", "--bulk-debug-python", "stdout", "ref.json", "cmp.json"}, dir.path());
  EXPECT_NE(to_stdout.out.find("# NVB-BULK-BEGIN\n"), std::string::npos);
  EXPECT_NE(to_stdout.out.find("# Summary"), std::string::npos);
}

/// A Google Benchmark file with one iteration row per benchmark, `repetitions` rows each:
/// real_time and cpu_time in ns as given.
std::string gbench_file(const std::vector<std::tuple<std::string, double, double>>& rows) {
  Json benchmarks = Json::array();
  for (const auto& [name, real, cpu] : rows) {
    benchmarks.push_back({{"name", name},
                          {"run_name", name},
                          {"run_type", "iteration"},
                          {"iterations", 1000},
                          {"real_time", real},
                          {"cpu_time", cpu},
                          {"time_unit", "ns"}});
  }
  return Json{{"context", {{"date", "2026-01-01"}}}, {"benchmarks", benchmarks}}.dump();
}

/// ref.json and cmp.json of BM_copy, five repetitions a side: the same real times on both
/// sides, and the compare run burning half as much CPU time again.
void write_cpu_burning_pair(const TempDir& dir) {
  std::vector<std::tuple<std::string, double, double>> reference, compare;
  for (const double jitter : {0.0, 1.0, 2.0, 1.0, 0.0}) {
    reference.emplace_back("BM_copy", 100 + jitter, 100 + jitter);
    compare.emplace_back("BM_copy", 100 + jitter, 150 + jitter);
  }
  dir.write("ref.json", gbench_file(reference));
  dir.write("cmp.json", gbench_file(compare));
}

TEST_F(DiffCommand, CallsAStateMeasuredOnceAmbiguousUnlessAllowed) {
  dir.write("ref.json", gbench_file({{"BM_copy", 100, 100}}));
  dir.write("cmp.json", gbench_file({{"BM_copy", 150, 150}}));
  const auto result =
      run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json row = Json::parse(result.out)["sections"][0]["rows"][0];
  EXPECT_EQ(row["status"], "AMBG");
  EXPECT_EQ(row["reason"]["code"], "single_sample");
  EXPECT_EQ(row["reason"]["message"].get<std::string>().rfind(
                "1 sample: no spread on the reference and compare side", 0),
            0u)
      << row;

  const auto allowed = run_perfgate(
      {"diff", "--allow-single-sample", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_EQ(Json::parse(allowed.out)["sections"][0]["rows"][0]["status"], "SLOW");
}

TEST_F(DiffCommand, CountsMatchesOnlyInTheTotalAndStatesInOneFileApart) {
  write_every_status();
  const auto result = run_perfgate({"diff", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("- Total matches: 6\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("  - Unknown     (????, a side is skipped or unusable): 1\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("- Not matched (????, in one file only): 1 (reference only 1, "
                            "compare only 0)\n"),
            std::string::npos)
      << result.out;
}

TEST_F(DiffCommand, EscapesPipesInMarkdownCells) {
  write_every_status();
  const auto result = run_perfgate(
      {"diff", "--format", "md", "--display", "explain", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(R"(Ref \[Lo \| Ce \| Hi\])"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(R"( \| 1.000 \| )"), std::string::npos) << result.out;
  // Every table row has as many unescaped pipes as the header row.
  std::istringstream lines(result.out);
  std::string line;
  std::optional<std::size_t> columns;
  while (std::getline(lines, line)) {
    if (!line.starts_with("|")) continue;
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
      pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    if (!columns) columns = pipes;
    EXPECT_EQ(pipes, *columns) << line;
  }
  ASSERT_TRUE(columns);
}

TEST_F(DiffCommand, FitsItsTablesToAnEightyColumnTerminalButNotItsMarkdown) {
  write_every_status();
  // Table lines only (the summary's prose wraps on any terminal), in columns: the status
  // emoji take two columns each but four bytes.
  auto widest_line = [](const std::string& text) {
    std::istringstream lines(text);
    std::size_t widest = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("|") || line.starts_with("(")) {
        widest = std::max(widest, terminal_width(line));
      }
    }
    return widest;
  };
  const auto full = run_perfgate({"diff", "--display", "explain", "ref.json", "cmp.json"},
                                 dir.path(), {{"COLUMNS", "0"}});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  ASSERT_GT(widest_line(full.out), 80u) << full.out;
  EXPECT_NE(full.out.find("Ref [Lo | Ce | Hi]"), std::string::npos) << full.out;

  const auto fitted = run_perfgate({"diff", "--display", "explain", "ref.json", "cmp.json"},
                                   dir.path(), {{"COLUMNS", "80"}});
  ASSERT_EQ(fitted.exit_code, 0) << fitted.err;
  EXPECT_LE(widest_line(fitted.out), 80u) << fitted.out;
  EXPECT_EQ(fitted.out.find("Ref [Lo | Ce | Hi]"), std::string::npos) << fitted.out;
  EXPECT_NE(fitted.out.find("|  slow   |    1.000 ms |   1.200 ms | sc-gap     | >= +19.3% |"),
            std::string::npos)
      << fitted.out;
  EXPECT_NE(fitted.out.find("(interval bounds and noise left out to fit 80 columns; "
                            "COLUMNS=142 shows them)\n"),
            std::string::npos)
      << fitted.out;
  // The same statuses and summary either way: only the layout changed.
  EXPECT_EQ(fitted.out.substr(fitted.out.find("# Summary")),
            full.out.substr(full.out.find("# Summary")));

  const auto markdown =
      run_perfgate({"diff", "--format", "md", "--display", "explain", "ref.json", "cmp.json"},
                   dir.path(), {{"COLUMNS", "80"}});
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_NE(markdown.out.find(R"(Ref \[Lo \| Ce \| Hi\])"), std::string::npos) << markdown.out;
}

TEST_F(DiffCommand, EndsItsHelpWithExitStatusesAndAnExample) {
  const auto result = run_perfgate({"diff", "--help"}, dir.path());
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("  perfgate diff ref.json cmp.json\n"), std::string::npos);
  EXPECT_NE(result.out.find("Exit status: 0 compared"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("65 a malformed result or config file"), std::string::npos);
}

TEST_F(DiffCommand, ComparesCpuTimeBesideRealTimeWhenBothFilesHaveIt) {
  write_cpu_burning_pair(dir);

  const auto json = run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const Json document = Json::parse(json.out);
  const Json& row = document["sections"][0]["rows"][0];
  EXPECT_EQ(row["status"], "SAME") << row;
  EXPECT_EQ(row["cpu_time"]["status"], "SLOW") << row;
  EXPECT_EQ(row["cpu_time"]["reason"]["code"], "clear_gap_without_clock");
  EXPECT_DOUBLE_EQ(row["cpu_time"]["compare"]["center"].get<double>(), 151e-9);
  EXPECT_EQ(document["summary"]["cpu_time"]["total"], 1);
  EXPECT_EQ(document["summary"]["cpu_time"]["slow"], 1);
  EXPECT_EQ(document["summary"]["slow"], 0);

  const auto text = run_perfgate({"diff", "ref.json", "cmp.json"}, dir.path());
  EXPECT_NE(text.out.find("### CPU time (cpu_time)\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("- CPU time (cpu_time, beside real_time): 1 matches; SAME 0, FAST 0, "
                          "SLOW 1, AMBG 0, ???? 0\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(
      run_perfgate({"diff", "--fail-on", "slow", "ref.json", "cmp.json"}, dir.path()).exit_code, 1);
}

TEST_F(DiffCommand, ShowsTheUTestOfEachStatesRepetitionsAsComparePyDoes) {
  write_cpu_burning_pair(dir);
  const auto json = run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const Json row = Json::parse(json.out)["sections"][0]["rows"][0];
  // scipy.stats.mannwhitneyu(ref, cmp, alternative="two-sided"), SciPy 1.10.1.
  EXPECT_EQ(row["u_test"]["p_value"], 1.0);
  EXPECT_EQ(row["u_test"]["reference_count"], 5);
  EXPECT_NEAR(row["cpu_time"]["u_test"]["p_value"].get<double>(), 0.011159425282914755, 1e-15);
  EXPECT_EQ(row["cpu_time"]["u_test"]["u"], 0.0);
  EXPECT_EQ(row["cpu_time"]["u_test"]["exact"], false);  // tied values: the approximation

  const auto text = run_perfgate({"diff", "ref.json", "cmp.json"}, dir.path());
  EXPECT_THAT(text.out, HasSubstr("| Status  | U test p |"));
  EXPECT_THAT(text.out, HasSubstr(" SLOW |   0.0112 |"));
  EXPECT_THAT(text.out, HasSubstr("- U test p: the two-sided Mann-Whitney U test of each state's "
                                  "samples, as compare.py shows it;"));
  EXPECT_THAT(text.out, HasSubstr("Some states have 5 samples a side: with fewer than 9 its "
                                  "p-value is unreliable."));
}

TEST_F(DiffCommand, LeavesCpuTimeOutForNvbenchFiles) {
  write_every_status();
  const auto result =
      run_perfgate({"diff", "--format", "json", "ref.json", "cmp.json"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Json::parse(result.out)["summary"]["cpu_time"]["total"], 0);
  // nvbench has a clock: its verdicts need no U test beside them.
  EXPECT_TRUE(Json::parse(result.out)["sections"][0]["rows"][0]["u_test"].is_null());
  EXPECT_EQ(run_perfgate({"diff", "ref.json", "cmp.json"}, dir.path()).out.find("CPU time"),
            std::string::npos);
}

TEST_F(DiffCommand, ComparesTwoFoldersFileByFileAndListsUnmatchedFiles) {
  std::filesystem::create_directories(dir / "base" / "sub");
  std::filesystem::create_directories(dir / "head" / "sub");
  write_nvbench_file(dir / "base" / "copy.json", {summary_state("same", 1e-3, 0.004)});
  write_nvbench_file(dir / "head" / "copy.json", {summary_state("same", 1e-3, 0.004)});
  write_nvbench_file(dir / "base" / "sub" / "sort.json", {summary_state("slow", 1e-3, 0.004)});
  write_nvbench_file(dir / "head" / "sub" / "sort.json", {summary_state("slow", 1.2e-3, 0.004)});
  write_nvbench_file(dir / "base" / "old.json", {summary_state("x", 1e-3, 0.004)});
  write_nvbench_file(dir / "head" / "new.json", {summary_state("x", 1e-3, 0.004)});

  const auto text = run_perfgate({"diff", "--fail-on", "slow", "base", "head"}, dir.path());
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_NE(text.out.find("# File: copy.json\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("# File: sub/sort.json\n"), std::string::npos) << text.out;
  EXPECT_LT(text.out.find("# File: copy.json"), text.out.find("# File: sub/sort.json"));
  EXPECT_NE(text.out.find("# Files\n\n- Compared: 2 (2 matches, 1 SLOW, 0 AMBG)\n"
                          "- Only in base: 1 (old.json)\n- Only in head: 1 (new.json)\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.err.find("old.json is only in base; not compared"), std::string::npos) << text.err;

  const auto json = run_perfgate({"diff", "--format", "json", "base", "head"}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const Json document = Json::parse(json.out);
  ASSERT_EQ(document["files"].size(), 2u);
  EXPECT_EQ(document["files"][1]["file"], "sub/sort.json");
  EXPECT_EQ(document["files"][1]["summary"]["slow"], 1);
  EXPECT_EQ(document["only_in_reference"], Json::array({"old.json"}));
  EXPECT_EQ(document["only_in_compare"], Json::array({"new.json"}));

  EXPECT_EQ(run_perfgate({"diff", "base", "head/copy.json"}, dir.path()).exit_code, 64);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
