#include "ingest/seed_raw_record.hpp"

#include <gtest/gtest.h>

#include "gate/raw_outcome.hpp"
#include "model/error.hpp"
#include "model/normalize.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A raw record in the seed suite's layout, with values of our own.
Json seed_record() {
  return Json::parse(R"({
    "benchmark_id": "video-2gpu", "result_schema_version": 2,
    "workload_id": "video", "variant_id": "small-sp2", "benchmark_version": 3,
    "device": "NVIDIA L40S", "num_gpus": 2, "num_warmup_runs": 1, "num_measurement_runs": 3,
    "avg_generation_time_s": 20.0, "individual_times_s": [19.0, 20.0, 21.0],
    "throughput_fps": 2.25, "max_peak_memory_mb": 9000.0,
    "individual_peak_memories_mb": [8990.0, 9000.0, 8995.0],
    "thresholds": {"max_generation_time_s": 30.0, "max_peak_memory_mb": 8000.0, "max_decode_time_s": 5.0},
    "regression_thresholds": {"latency": {"threshold_percent": 0.1, "threshold_absolute": 1.0, "gated": true}},
    "commit": "abc123", "run_source": "scheduled_main", "branch": "main", "pr_number": null,
    "timestamp": "2026-05-08T22:00:00+00:00", "quality_metadata": {"quality_status": "canonical"},
    "encoder_time_s": 2.5, "decode_time_s": 3.25, "denoise_time_s": null,
    "recipe": {"recipe_schema_version": 2}, "recipe_fingerprint": "f00d",
    "hardware_profile_id": "hw-1", "software_profile_id": "sw-2", "environment_fingerprint": "env-3"
  })");
}

TEST(SeedRawRecord, IsRecognisedByItsFlatMetricKeys) {
  EXPECT_TRUE(is_seed_raw_record(seed_record()));
  EXPECT_FALSE(is_seed_raw_record(Json{{"metrics", Json::object()}, {"avg_generation_time_s", 1}}));
  EXPECT_FALSE(is_seed_raw_record(Json::array()));
}

TEST(SeedRawRecord, NormalisesToTheSameValuesAsTheSeedWould) {
  const Json raw = convert_seed_raw_record(seed_record(), "perf_video.json");
  const NormalizedRecord r = normalize_raw_record(raw, "perf_video.json", "digest", {});
  EXPECT_EQ(r.benchmark_id, "video-2gpu");
  EXPECT_EQ(r.config_schema_version, 2);
  EXPECT_EQ(r.workload_id, "video");
  EXPECT_EQ(r.benchmark_version, 3);
  EXPECT_EQ(r.metrics.at("latency").value, 20.0);
  EXPECT_EQ(r.metrics.at("memory").value, 9000.0);
  EXPECT_EQ(r.metrics.at("throughput").value, 2.25);
  EXPECT_EQ(r.metrics.at("throughput").direction, Direction::kHigherIsBetter);
  EXPECT_EQ(r.metrics.at("decode_time_s").value, 3.25);
  EXPECT_EQ(r.metrics.count("denoise_time_s"), 0u) << "a null component is not measured";
  EXPECT_EQ(r.regression_thresholds.at("latency").threshold_percent, 0.1);
  EXPECT_EQ(r.commit_sha, "abc123");
  EXPECT_EQ(r.run_source, "scheduled_main");
  EXPECT_EQ(r.recipe_fingerprint, "f00d");
}

TEST(SeedRawRecord, AppliesItsInlineThresholdsBlock) {
  const Json raw = convert_seed_raw_record(seed_record(), "perf_video.json");
  EXPECT_TRUE(raw_record_breached_static_threshold(raw)) << "peak 9000 MB > 8000 MB";
  // perfgate's MB is a MiB: from 1024 MB a memory reads in GiB.
  EXPECT_EQ(raw_record_outcome(raw).static_breach_detail, "memory max 8.789 GiB > 7.812 GiB");
}

TEST(SeedRawRecord, TreatsARecordWithoutIdentityAsLegacyV1) {
  Json seed = seed_record();
  seed.erase("workload_id");
  seed.erase("variant_id");
  seed.erase("benchmark_version");
  const Json raw = convert_seed_raw_record(seed, "perf_video.json");
  EXPECT_EQ(raw["config_schema_version"], 1);
}

TEST(SeedRawRecord, RejectsAMetricOfTheWrongTypeNamingTheKey) {
  Json seed = seed_record();
  seed["individual_times_s"][1] = "fast";
  try {
    convert_seed_raw_record(seed, "perf_video.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(error.what())
                  .rfind("perf_video.json: individual_times_s[1]: must be a finite number.", 0),
              0u);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
