// The whole report for a fixed program on an injected clock: every wall-clock reading
// advances 1 µs and every CPU-time reading 0.4 µs, so every figure is exact. Only the fields
// that name this process and this moment (created_at, target, the source directory) are
// replaced before the comparison.

#include <filesystem>

#include "probe/probe_fixture.hpp"
#include "probe/self_cost.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

void frame() {
  probe::Run run;
  {
    PERFGATE_REGION("decode");
    PERFGATE_REGION("huffman");
  }
  PERFGATE_REGION("render");
}

constexpr const char* kGolden = R"({
 "config": {
  "clock": "steady_clock",
  "clock_hz": null,
  "cpu_time": false,
  "disabled_by": null,
  "enabled": true,
  "region_cost_ns": 250,
  "trace": true,
  "warmup_runs": null
 },
 "created_at": "CREATED_AT",
 "key_averages": {
  "by_name": [
   {
    "calls": 1,
    "ids": 1,
    "name": "decode",
    "runs": 1,
    "self_wall_time_us": 1.75,
    "wall_time_us": 3
   },
   {
    "calls": 1,
    "ids": 1,
    "name": "huffman",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_us": 1
   },
   {
    "calls": 1,
    "ids": 1,
    "name": "render",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_us": 1
   }
  ],
  "self_time": [
   {
    "calls": 1,
    "region_id": "decode",
    "runs": 1,
    "self_wall_time_us": 1.75,
    "wall_time_us": 3
   },
   {
    "calls": 1,
    "region_id": "decode/huffman",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_us": 1
   },
   {
    "calls": 1,
    "region_id": "render",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_us": 1
   }
  ],
  "total_time": [
   {
    "calls": 1,
    "region_id": "decode",
    "runs": 1,
    "self_wall_time_us": 1.75,
    "wall_time_us": 3
   },
   {
    "calls": 1,
    "region_id": "decode/huffman",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_us": 1
   },
   {
    "calls": 1,
    "region_id": "render",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_us": 1
   }
  ]
 },
 "perfgate_version": "0.1.0",
 "regions": [
  {
   "depth": 0,
   "file": "report_golden_test.cpp",
   "function": "frame",
   "id": "decode",
   "line": 17,
   "name": "decode",
   "parent": null
  },
  {
   "depth": 1,
   "file": "report_golden_test.cpp",
   "function": "frame",
   "id": "decode/huffman",
   "line": 18,
   "name": "huffman",
   "parent": "decode"
  },
  {
   "depth": 0,
   "file": "report_golden_test.cpp",
   "function": "frame",
   "id": "render",
   "line": 20,
   "name": "render",
   "parent": null
  }
 ],
 "runs": [
  {
   "dispatched": [],
   "probe": {
    "cost_fraction": 0.10714285714285714,
    "cost_us": 0.75,
    "region_calls": 3
   },
   "regions": [
    {
     "calls": 1,
     "region_id": "decode",
     "self_wall_time_us": 1.75,
     "wall_time_fraction": 0.42857142857142855,
     "wall_time_us": 3
    },
    {
     "calls": 1,
     "region_id": "decode/huffman",
     "self_wall_time_us": 1,
     "wall_time_fraction": 0.14285714285714285,
     "wall_time_us": 1
    },
    {
     "calls": 1,
     "region_id": "render",
     "self_wall_time_us": 1,
     "wall_time_fraction": 0.14285714285714285,
     "wall_time_us": 1
    }
   ],
   "residual": {
    "wall_time_fraction": 0.42857142857142855,
    "wall_time_us": 3
   },
   "run_index": 0,
   "thread_index": 0,
   "timing": {
    "cpu_time_us": 0.4,
    "wall_time_us": 7
   },
   "warmup": true
  },
  {
   "dispatched": [],
   "probe": {
    "cost_fraction": 0.10714285714285714,
    "cost_us": 0.75,
    "region_calls": 3
   },
   "regions": [
    {
     "calls": 1,
     "region_id": "decode",
     "self_wall_time_us": 1.75,
     "wall_time_fraction": 0.42857142857142855,
     "wall_time_us": 3
    },
    {
     "calls": 1,
     "region_id": "decode/huffman",
     "self_wall_time_us": 1,
     "wall_time_fraction": 0.14285714285714285,
     "wall_time_us": 1
    },
    {
     "calls": 1,
     "region_id": "render",
     "self_wall_time_us": 1,
     "wall_time_fraction": 0.14285714285714285,
     "wall_time_us": 1
    }
   ],
   "residual": {
    "wall_time_fraction": 0.42857142857142855,
    "wall_time_us": 3
   },
   "run_index": 1,
   "thread_index": 0,
   "timing": {
    "cpu_time_us": 0.4,
    "wall_time_us": 7
   },
   "warmup": false
  }
 ],
 "schema_version": 1,
 "summary": {
  "cpu_time_us": {
   "mean": 0.4
  },
  "dispatched": [],
  "listed_runs": 2,
  "measured_runs": 1,
  "quantiles": "exact",
  "regions": [
   {
    "calls": 1,
    "per_run_wall_time_us": {
     "max": 3,
     "median": 3,
     "p90": 3
    },
    "region_id": "decode",
    "runs": 1,
    "self_wall_time_us": 1.75,
    "wall_time_fraction": 0.42857142857142855,
    "wall_time_us": 3
   },
   {
    "calls": 1,
    "per_run_wall_time_us": {
     "max": 1,
     "median": 1,
     "p90": 1
    },
    "region_id": "decode/huffman",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_fraction": 0.14285714285714285,
    "wall_time_us": 1
   },
   {
    "calls": 1,
    "per_run_wall_time_us": {
     "max": 1,
     "median": 1,
     "p90": 1
    },
    "region_id": "render",
    "runs": 1,
    "self_wall_time_us": 1,
    "wall_time_fraction": 0.14285714285714285,
    "wall_time_us": 1
   }
  ],
  "residual": {
   "wall_time_fraction": 0.42857142857142855,
   "wall_time_us": 3
  },
  "runs": 2,
  "wall_time_us": {
   "max": 7,
   "mean": 7,
   "median": 7,
   "min": 7,
   "p90": 7
  }
 },
 "target": "TARGET",
 "threads": [
  {
   "name": "main",
   "thread_index": 0
  }
 ],
 "trace": {
  "dropped": 0,
  "events": [
   {
    "duration_us": 1,
    "region_id": "decode/huffman",
    "start_us": 3,
    "thread_index": 0
   },
   {
    "duration_us": 3,
    "region_id": "decode",
    "start_us": 2,
    "thread_index": 0
   },
   {
    "duration_us": 1,
    "region_id": "render",
    "start_us": 6,
    "thread_index": 0
   },
   {
    "duration_us": 1,
    "region_id": "decode/huffman",
    "start_us": 11,
    "thread_index": 0
   },
   {
    "duration_us": 3,
    "region_id": "decode",
    "start_us": 10,
    "thread_index": 0
   },
   {
    "duration_us": 1,
    "region_id": "render",
    "start_us": 14,
    "thread_index": 0
   }
  ]
 },
 "warnings": []
})";

class ProbeReport : public FakeClockTest {
 protected:
  void SetUp() override {
    FakeClockTest::SetUp();
    // The probe's own cost per region call, as if measured: 0.25 µs of each parent's
    // self time is the probe's work for a child call, not the parent's.
    detail::set_region_cost_for_testing(250);
  }
};

TEST_F(ProbeReport, MatchesTheGoldenDocumentOnAFakeClock) {
  set_trace(true);
  frame();
  frame();
  Json doc = report();
  doc["created_at"] = "CREATED_AT";
  doc["target"] = "TARGET";
  for (Json& region : doc["regions"]) {
    region["file"] = std::filesystem::path(region["file"].get<std::string>()).filename();
  }
  EXPECT_EQ(doc.dump(1), kGolden);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
